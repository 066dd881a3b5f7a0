/*
 * Mosaic web app, framework — DOM building: h() elements, $/$$ queries, SVG icons, form fields,
 * inline error boxes and busy buttons. Loaded first; it creates window.Mosaic and its shared state.
 * No framework, no build step: index.html loads the framework files, then the views, then app.js.
 */
(function () {
  'use strict';

  const M = (window.Mosaic = window.Mosaic || {});
  M.state = { session: null, csrf: '', message: '', leave: [] };

  /* ---------------------------------------------------------------- DOM */

  // h('div', {class:'x', id:'y', on:{click:fn}, data:{path:'/'}}, child, 'text', [children])
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') el.className = v;
        else if (k === 'text') el.textContent = v;
        else if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
        else if (k === 'data') for (const [dk, dv] of Object.entries(v)) el.dataset[dk] = dv;
        else if (k in el && typeof v !== 'string') el[k] = v;
        else el.setAttribute(k, v === true ? '' : v);
      }
    }
    append(el, kids);
    return el;
  }
  function append(el, kids) {
    for (const k of kids.flat(Infinity)) {
      if (k === null || k === undefined || k === false) continue;
      el.appendChild(k instanceof Node ? k : document.createTextNode(String(k)));
    }
    return el;
  }
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));

  // SVG icons, built with DOM APIs (no innerHTML with data).
  const ICONS = {
    wallet: 'M3 7h15a3 3 0 0 1 3 3v7a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3zM3 7l12-4v4M16 13.5h2',
    alloc: 'M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3',
    network: 'M12 3v6M12 15v6M5 12h14M5 5h4v4H5zM15 5h4v4h-4zM5 15h4v4H5zM15 15h4v4h-4z',
    bolt: 'M13 2 4 14h7l-1 8 9-12h-7z',
    vult: 'M3 7a2 2 0 0 1 2-2h5l2 2h7a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z',
    notes: 'M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7',
    social: 'M8 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2 20c0-3.3 2.7-6 6-6s6 2.7 6 6M16 11a3 3 0 1 0 0-6M18 14c2.3.6 4 2.9 4 6',
    locker: 'M6 10h12v11H6zM8 10V7a4 4 0 0 1 8 0v3M12 14v3',
    send: 'M5 19 19 5M9 5h10v10',
    receive: 'M19 5 5 19M5 9v10h10',
    faucet: 'M12 3s6 7 6 11a6 6 0 0 1-12 0c0-4 6-11 6-11z',
    copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
    folder: 'M3 7a2 2 0 0 1 2-2h5l2 2h7a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z',
    file: 'M6 3h9l4 4v14H6zM14 3v5h5',
    image: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15 9.5a1 1 0 1 0 0-.1',
    download: 'M12 4v11M7 10l5 5 5-5M5 20h14',
    upload: 'M12 20V9M7 14l5-5 5 5M5 4h14',
    edit: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4',
    share: 'M15 5a3 3 0 1 0 6 0a3 3 0 1 0-6 0M3 12a3 3 0 1 0 6 0a3 3 0 1 0-6 0M15 19a3 3 0 1 0 6 0a3 3 0 1 0-6 0M8.6 10.5l6.8-4M8.6 13.5l6.8 4',
    trash: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13',
    plus: 'M12 5v14M5 12h14',
    grid: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
    list: 'M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01',
    photo: 'M3 6h18v13H3zM3 15l5-5 5 5 3-3 5 5M16 9.5a1 1 0 1 0 0-.1',
    close: 'M6 6l12 12M18 6 6 18',
    left: 'M15 5l-7 7 7 7',
    right: 'M9 5l7 7-7 7',
    back: 'M19 12H5M11 6l-6 6 6 6'
  };
  function icon(name, cls) {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    svg.setAttribute('class', 'icon' + (cls ? ' ' + cls : ''));
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', ICONS[name] || ICONS.file);
    svg.appendChild(p);
    return svg;
  }

  /* ----------------------------------------------------------- forms */

  // field({id, label, type, ...attrs, hint}) → wrapper div with <label> and input
  function field(o) {
    const attrs = Object.assign({}, o);
    const label = attrs.label, hint = attrs.hint, tag = attrs.tag || 'input', options = attrs.options || [];
    delete attrs.label; delete attrs.hint; delete attrs.tag; delete attrs.options;
    if (tag === 'input' && !attrs.type) attrs.type = 'text';
    if (hint) attrs['aria-describedby'] = attrs.id + '-hint';
    const input = h(tag, attrs, options);
    return h('div', { class: 'field' }, h('label', { for: attrs.id, text: label }), input,
      hint ? h('p', { class: 'hint', id: attrs.id + '-hint', text: hint }) : null);
  }
  function errorBox(id) { return h('p', { class: 'form-error', id, role: 'alert', hidden: true }); }
  function showError(el, msg) {
    if (!el) return;
    el.textContent = msg || '';
    el.hidden = !msg;
  }
  function busy(btn, on, label) {
    if (!btn) return;
    if (on) { btn.dataset.label = btn.textContent; btn.disabled = true; if (label) btn.textContent = label; btn.setAttribute('aria-busy', 'true'); }
    else { btn.disabled = false; if (btn.dataset.label) btn.textContent = btn.dataset.label; btn.removeAttribute('aria-busy'); }
  }

  Object.assign(M, { h, append, $, $$, icon, field, errorBox, showError, busy });
})();
