/*
 * Mosaic web app, framework — formatting of dates, byte sizes, long hashes and empty values.
 */
(function () {
  'use strict';
  const M = window.Mosaic;

  /* ------------------------------------------------------------ format */

  function fmtDate(sec) {
    if (sec === null || sec === undefined || sec === '') return '—';
    const d = new Date(Number(sec) * 1000);
    if (isNaN(d.getTime())) return String(sec);
    return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  }
  function fmtBytes(n) {
    n = Number(n);
    if (!isFinite(n) || n < 0) return '—';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
    let i = 0;
    while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
    return (i === 0 ? String(n) : n.toFixed(n < 10 ? 2 : 1)) + ' ' + units[i];
  }
  function shortHash(s, n) {
    n = n || 8;
    s = String(s || '');
    return s.length > n * 2 + 1 ? s.slice(0, n) + '…' + s.slice(-n) : s;
  }
  function orDash(v) { return v === null || v === undefined || v === '' ? '—' : String(v); }

  Object.assign(M, { fmtDate, fmtBytes, shortHash, orDash });
})();
