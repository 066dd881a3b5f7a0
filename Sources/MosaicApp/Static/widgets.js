/*
 * Mosaic web app, framework — page pieces several views share: copy buttons, detail lists
 * (dl.details [data-field]), the space-used bar and the list of blobbers.
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, icon, toast, fmtBytes, shortHash, orDash } = M;

  async function copyText(text, what) {
    try {
      if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(text);
      else {
        const ta = h('textarea', { class: 'offscreen', readonly: true });
        ta.value = text;
        document.body.appendChild(ta);
        ta.select();
        document.execCommand('copy');
        ta.remove();
      }
      toast((what || 'Text') + ' copied', 'success', 2500);
    } catch (_) {
      toast('Could not copy; select the text and copy it by hand', 'error');
    }
  }
  function copyButton(id, text, what) {
    return h('button', { type: 'button', class: 'btn btn-small', id, on: { click: () => copyText(text, what) } }, icon('copy'), 'Copy');
  }


  /* ---------------------------------------------------- detail lists */

  // detailList(id, [[label, field, value, {mono, copy}]...]) → <dl>
  function detailList(id, rows) {
    return h('dl', { class: 'details', id }, rows.map(([label, key, value, o]) => {
      o = o || {};
      return h('div', { class: 'detail-row' },
        h('dt', { text: label }),
        h('dd', { class: o.mono ? 'mono' : '', data: { field: key } }, o.node || orDash(value),
          o.copy ? h('button', { type: 'button', class: 'btn-icon copy-inline', 'aria-label': 'Copy ' + label, on: { click: () => copyText(String(value), label) } }, icon('copy')) : null));
    }));
  }

  function blobberList(id, blobbers) {
    blobbers = blobbers || [];
    if (!blobbers.length) return h('p', { class: 'muted', id, text: 'None' });
    return h('ul', { class: 'blobbers', id }, blobbers.map((b) =>
      h('li', { class: 'blobber', data: { id: b.id } }, h('span', { class: 'mono small', text: shortHash(b.id, 8), title: b.id }), h('span', { class: 'mono', text: b.url }))));
  }

  function spaceBar(used, total, id) {
    const pct = total > 0 ? Math.min(100, (used / total) * 100) : 0;
    const fill = h('div', { class: 'bar-fill' + (pct > 90 ? ' bar-full' : '') });
    fill.style.width = pct.toFixed(1) + '%';
    return h('div', { class: 'space' },
      h('div', { class: 'bar', id, role: 'progressbar', 'aria-label': 'Space used', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': pct.toFixed(0) }, fill),
      h('p', { class: 'small muted', id: id + '-text', text: fmtBytes(used) + ' of ' + fmtBytes(total) + ' used (' + pct.toFixed(pct < 10 ? 1 : 0) + '%)' }));
  }

  Object.assign(M, { copyText, copyButton, detailList, spaceBar, blobberList });
})();
