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
  // The rule of the SDK's Quantity.formatBytes, which formats the server's share pages, so a size
  // reads the same everywhere: binary units, one decimal cut (not rounded) and left out when it is 0.
  function fmtBytes(n) {
    n = Number(n);
    if (!isFinite(n) || n < 0) return '—';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
    let unit = 0, scale = 1;
    while (unit < units.length - 1 && n >= scale * 1024) { scale *= 1024; unit++; }
    if (unit === 0) return Math.floor(n) + ' B';
    const tenths = Math.floor((n % scale) * 10 / scale);
    return Math.floor(n / scale) + (tenths > 0 ? '.' + tenths : '') + ' ' + units[unit];
  }
  function shortHash(s, n) {
    n = n || 8;
    s = String(s || '');
    return s.length > n * 2 + 1 ? s.slice(0, n) + '…' + s.slice(-n) : s;
  }
  function orDash(v) { return v === null || v === undefined || v === '' ? '—' : String(v); }

  Object.assign(M, { fmtDate, fmtBytes, shortHash, orDash });
})();
