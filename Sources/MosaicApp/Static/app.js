/*
 * Mosaic web app — core: API client, DOM helpers, dialogs, toasts, router,
 * sessions (create / recover / unlock), Home, Wallet, Allocation and Network
 * details. Bolt lives in bolt.js, Vult in vult.js, Locker in locker.js. No framework, no build step.
 *
 * Stable ids / test hooks (for browser tests):
 *  Layout     #topbar #brand #topnav #nav-bolt #nav-vult #who #sign-out #main #view
 *             #app-version #toast (.toast .toast-info|success|error|progress)
 *  Dialogs    dialog.modal  #confirm-dialog #confirm-yes #confirm-no  .dialog-close
 *  Onboarding #onboarding #create-open #recover-open
 *             create:  #create-form #wallet-name #passphrase #passphrase-confirm
 *                      #create-error #create-wallet (submit)
 *             recover: #recover-form #recover-name #recover-mnemonic #recover-passphrase
 *                      #recover-passphrase-confirm #recover-error #recover-submit
 *             mnemonic once: #mnemonic-screen #mnemonic-words (li.mnemonic-word[data-index])
 *                      #mnemonic-written #continue
 *  Unlock     #unlock-form #unlock-message #unlock-wallet (select, if several)
 *             #unlock-passphrase #unlock-error #unlock #add-wallet-open
 *  Home       #home #tile-wallet #tile-allocation #tile-network #tile-bolt #tile-vult
 *             #tile-notes #tile-social #tile-locker #no-allocation (Notes: notes.js)
 *             #create-allocation-open
 *  Allocation form  #alloc-form #alloc-name #alloc-data #alloc-parity #alloc-size
 *             #alloc-expire #alloc-lock #alloc-error #alloc-submit
 *  Wallet     #wallet-details [data-field=name|client_id|public_key]
 *             #copy-client-id #copy-public-key #reveal-open
 *             reveal dialog: #reveal-passphrase #reveal-error #reveal-submit #revealed-mnemonic
 *  Allocation #allocation-details #alloc-picker [data-field=id|name|expiration|size|used_size|
 *             data_shards|parity_shards|num_writes|num_reads|successful_challenges|
 *             failed_challenges|latest_closed_challenge|write_pool|tokens_locked]
 *             #alloc-blobbers (li.blobber)
 *  Network    #network-details [data-field=name|node|app|chain_id|symbol|block_time_ms|
 *             confirmations] #network-blobbers #network-select #network-switch
 *             (confirm: #confirm-yes / #confirm-no)
 *  Bolt       #bolt #balance-tokens #balance-symbol #balance-usd #balance-rate
 *             #send-open #receive-open #faucet
 *             send dialog: #send-form #send-to #send-amount #send-description #send-error #send-submit
 *             receive dialog: #receive-client-id #receive-copy #receive-qr
 *             #tx-list (li.tx-row[data-hash][data-status], .tx-failed) #tx-empty
 *             #tx-prev #tx-next #tx-page
 *  Tx details #tx-detail [data-field=hash|block_hash|round|output_hash|client_id|
 *             to_client_id|signature|status|outcome|error|value|fee|tokens|fee_tokens|
 *             type|description|creation_date] #explorer-link #tx-back
 *  Vult       #vult #vult-alloc (select, if several) #space-bar #space-text #breadcrumb
 *             #upload-input #upload-button #mkdir-open #view-table #view-grid #view-gallery
 *             #dropzone #uploads (.upload-item[data-name] .upload-progress .upload-status)
 *             #file-list (.file-row[data-path][data-type]) #files-empty
 *             row actions: .file-open .file-download .file-rename .file-share .file-delete
 *             mkdir dialog: #mkdir-name #mkdir-error #mkdir-submit
 *             move dialog: #move-to #move-error #move-submit
 *             share dialog: #share-public #share-client #share-client-id #share-expire
 *                           #share-error #share-submit #share-url #share-copy
 *             gallery: #gallery (.gallery-item[data-path]) lightbox: #lightbox #lightbox-img
 *                      #lightbox-caption #lightbox-prev #lightbox-next
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

  /* -------------------------------------------------------------- API */

  class ApiError extends Error {
    constructor(status, code, message) {
      super(message || 'Request failed (' + status + ')');
      this.status = status;
      this.code = code || 'http_' + status;
    }
  }

  async function parseError(res) {
    let code = '', message = '';
    try {
      const data = await res.json();
      if (data && data.error) { code = data.error.code; message = data.error.message; }
    } catch (_) { /* not JSON */ }
    return new ApiError(res.status, code, message || res.statusText || 'Request failed (' + res.status + ')');
  }

  // api('GET', '/api/balance') → parsed JSON (null for 204). Throws ApiError.
  async function api(method, path, body, opts) {
    opts = opts || {};
    const headers = { Accept: 'application/json' };
    if (method !== 'GET' && method !== 'HEAD') headers['X-CSRF-Token'] = M.state.csrf || '';
    let payload;
    if (body !== undefined) { headers['Content-Type'] = 'application/json'; payload = JSON.stringify(body); }
    let res;
    try {
      res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal: opts.signal, cache: 'no-store' });
    } catch (e) {
      if (e && e.name === 'AbortError') throw e;
      throw new ApiError(0, 'network', 'Cannot reach the Mosaic app. Is it still running?');
    }
    if (!res.ok) {
      const err = await parseError(res);
      // A stale token, or a session the app forgot after long idleness: start afresh once.
      const stale = (res.status === 403 && (err.code === 'csrf_invalid' || err.code === 'csrf_missing')) ||
        (res.status === 401 && err.code === 'no_session');
      if (stale && !opts.retried) {
        await loadSession().catch(() => {});
        return api(method, path, body, Object.assign({}, opts, { retried: true }));
      }
      if (res.status === 401 && (err.code === 'session_expired' || err.code === 'locked') && !opts.noRedirect) {
        sessionLost();
      }
      throw err;
    }
    if (res.status === 204) return null;
    const ct = res.headers.get('content-type') || '';
    if (ct.includes('json')) return res.json();
    return res.text();
  }

  function sessionLost() {
    if (!M.state.session || M.state.session.state !== 'unlocked') return;
    M.state.session.state = 'locked';
    M.state.message = 'Your session expired; unlock again';
    loadSession().catch(() => {}).then(route);
  }

  async function loadSession() {
    const s = await api('GET', '/api/session', undefined, { noRedirect: true });
    M.state.session = s;
    M.state.csrf = s.csrf || '';
    const v = $('#app-version');
    if (v) v.textContent = s.version ? 'version ' + s.version : '';
    updateHeader();
    return s;
  }

  function updateHeader() {
    const s = M.state.session;
    const on = !!(s && s.state === 'unlocked');
    $('#sign-out').hidden = !on;
    $('#topnav').hidden = !on;
    const who = $('#who');
    who.hidden = !on;
    who.textContent = on && s.wallet ? s.wallet.name || shortHash(s.wallet.client_id, 6) : '';
  }

  /* ---------------------------------------------------------- toasts */

  // toast(message, kind) → {update(msg, kind), close()}; kind: info|success|error|progress
  function toast(message, kind, timeoutMs) {
    kind = kind || 'info';
    const area = $('#toast');
    const text = h('span', { class: 'toast-text' });
    const close = h('button', { type: 'button', class: 'toast-close', 'aria-label': 'Dismiss' }, icon('close'));
    const el = h('div', { class: 'toast', role: kind === 'error' ? 'alert' : 'status' }, h('span', { class: 'toast-dot', 'aria-hidden': 'true' }), text, close);
    let timer = null;
    const handle = {
      update(msg, k, ms) {
        kind = k || kind;
        el.className = 'toast toast-' + kind;
        el.dataset.kind = kind;
        text.textContent = msg;
        clearTimeout(timer);
        const t = ms !== undefined ? ms : kind === 'progress' ? 0 : kind === 'error' ? 8000 : 4000;
        if (t > 0) timer = setTimeout(handle.close, t);
        return handle;
      },
      close() { clearTimeout(timer); el.remove(); }
    };
    close.addEventListener('click', handle.close);
    area.appendChild(el);
    while (area.children.length > 4) area.firstElementChild.remove();
    return handle.update(message, kind, timeoutMs);
  }

  /* --------------------------------------------------------- dialogs */

  // dialog({id, title, body, onClose}) → <dialog> shown modally. Escape closes it.
  function dialog(opts) {
    const titleId = (opts.id || 'dlg') + '-title';
    const closeBtn = h('button', { type: 'button', class: 'btn-icon dialog-close', 'aria-label': 'Close' }, icon('close'));
    const dlg = h('dialog', { class: 'modal ' + (opts.class || ''), id: opts.id, 'aria-labelledby': titleId },
      h('div', { class: 'modal-head' }, h('h2', { id: titleId, text: opts.title }), closeBtn),
      h('div', { class: 'modal-body' }, opts.body));
    closeBtn.addEventListener('click', () => dlg.close());
    dlg.addEventListener('close', () => { dlg.remove(); if (opts.onClose) opts.onClose(dlg.returnValue); });
    dlg.addEventListener('click', (e) => { if (e.target === dlg) dlg.close(); });
    document.body.appendChild(dlg);
    dlg.showModal();
    const first = dlg.querySelector('[autofocus]') || dlg.querySelector('input, select, textarea, .modal-body button');
    if (first) first.focus();
    return dlg;
  }

  // confirmDialog({title, message, yes, danger}) → Promise<boolean>
  function confirmDialog(opts) {
    return new Promise((resolve) => {
      let answer = false;
      const yes = h('button', { type: 'button', class: 'btn ' + (opts.danger ? 'btn-danger' : 'btn-primary'), id: 'confirm-yes', text: opts.yes || 'Yes' });
      const no = h('button', { type: 'button', class: 'btn', id: 'confirm-no', text: opts.no || 'Cancel', autofocus: true });
      const dlg = dialog({
        id: 'confirm-dialog', title: opts.title,
        body: [h('p', { class: 'confirm-message', text: opts.message }), h('div', { class: 'actions' }, no, yes)],
        onClose: () => resolve(answer)
      });
      no.focus();
      yes.addEventListener('click', () => { answer = true; dlg.close(); });
      no.addEventListener('click', () => dlg.close());
    });
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

  // passphrase rules, checked before sending (the server checks again)
  function checkPassphrases(p1, p2) {
    if (p1.length < 8) return 'The passphrase needs at least 8 characters';
    if (p1 !== p2) return 'The passphrases do not match';
    return '';
  }

  /* ---------------------------------------------------------- router */

  function parseHash() {
    const raw = location.hash.replace(/^#/, '') || '/';
    const q = raw.indexOf('?');
    const path = q >= 0 ? raw.slice(0, q) : raw;
    const params = new URLSearchParams(q >= 0 ? raw.slice(q + 1) : '');
    return { path: path.replace(/\/+$/, '') || '/', parts: path.split('/').filter(Boolean), params };
  }
  function go(hash) {
    if (location.hash === hash) route(); else location.hash = hash;
  }
  // Views register cleanups (timers, aborts) that run when the route changes.
  function onLeave(fn) { M.state.leave.push(fn); }
  function leave() {
    const fns = M.state.leave;
    M.state.leave = [];
    for (const fn of fns) { try { fn(); } catch (_) { /* ignore */ } }
  }

  const routes = {};
  function view() { return $('#view'); }
  function render(...nodes) {
    const v = view();
    v.replaceChildren(...nodes.flat());
    return v;
  }
  function pageHead(title, backHref, extra) {
    return h('div', { class: 'page-head' },
      backHref ? h('a', { class: 'btn-icon back', href: backHref, 'aria-label': 'Back' }, icon('back')) : null,
      h('h1', { text: title }), extra || null);
  }

  async function route() {
    leave();
    closeDialogs();
    const s = M.state.session;
    const r = parseHash();
    if (!s) return render(h('p', { class: 'muted', text: 'Loading…' }));
    document.body.dataset.state = s.state;
    if (s.state === 'no_wallet') return renderOnboarding();
    if (s.state !== 'unlocked') return renderUnlock();
    const key = r.parts[0] || '';
    if (M.state.lastKey !== r.path) window.scrollTo(0, 0);
    M.state.lastKey = r.path;
    $$('#topnav a').forEach((a) => { if (a.getAttribute('href') === '#/' + key) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current'); });
    const fn = routes[key] || routes[''];
    try {
      await fn(r);
    } catch (e) {
      if (e && e.name === 'AbortError') return;
      if (e && e.status === 401) return;
      render(pageHead('Something went wrong', '#/'), h('p', { class: 'form-error', id: 'page-error', text: e.message }));
    }
    const main = $('#main');
    if (document.activeElement === document.body && main) main.focus({ preventScroll: true });
  }
  function closeDialogs() { $$('dialog[open]').forEach((d) => d.close()); }

  /* ------------------------------------------------------ onboarding */

  function renderOnboarding(allowBack) {
    const createTab = h('button', { type: 'button', class: 'tab', id: 'create-open', role: 'tab', 'aria-selected': 'true', text: 'New wallet' });
    const recoverTab = h('button', { type: 'button', class: 'tab', id: 'recover-open', role: 'tab', 'aria-selected': 'false', text: 'Recover wallet' });
    const createForm = buildCreateForm();
    const recoverForm = buildRecoverForm();
    recoverForm.hidden = true;
    function select(which) {
      const c = which === 'create';
      createTab.setAttribute('aria-selected', String(c));
      recoverTab.setAttribute('aria-selected', String(!c));
      createForm.hidden = !c;
      recoverForm.hidden = c;
      (c ? createForm : recoverForm).querySelector('input, textarea').focus();
    }
    createTab.addEventListener('click', () => select('create'));
    recoverTab.addEventListener('click', () => select('recover'));
    render(h('section', { class: 'card narrow onboarding', id: 'onboarding' },
      h('div', { class: 'hero' }, h('img', { src: 'icon.svg', alt: '', width: 56, height: 56 }),
        h('h1', { text: 'Welcome to Mosaic' }),
        h('p', { class: 'muted', text: 'Your wallet and your storage, on a decentralized network. Your keys stay on this computer, protected by your passphrase.' })),
      h('div', { class: 'tabs', role: 'tablist' }, createTab, recoverTab),
      createForm, recoverForm,
      allowBack ? h('p', { class: 'center' }, h('a', { href: '#/', id: 'back-to-unlock', text: 'Back to unlock', on: { click: (e) => { e.preventDefault(); route(); } } })) : null));
  }

  function buildCreateForm() {
    const err = errorBox('create-error');
    const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-block', id: 'create-wallet', text: 'Create wallet' });
    const form = h('form', { id: 'create-form', class: 'stack', novalidate: true },
      field({ id: 'wallet-name', label: 'Wallet name (optional)', autocomplete: 'off', placeholder: 'default' }),
      field({ id: 'passphrase', label: 'Passphrase', type: 'password', autocomplete: 'new-password', minlength: 8, required: true, hint: 'At least 8 characters. It unlocks this wallet on this computer.' }),
      field({ id: 'passphrase-confirm', label: 'Passphrase again', type: 'password', autocomplete: 'new-password', required: true }),
      err, submit);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const name = $('#wallet-name', form).value.trim();
      const p1 = $('#passphrase', form).value, p2 = $('#passphrase-confirm', form).value;
      const bad = checkPassphrases(p1, p2);
      if (bad) return showError(err, bad);
      showError(err, '');
      busy(submit, true, 'Creating…');
      try {
        const body = { passphrase: p1, passphrase_confirm: p2 };
        if (name) body.name = name;
        const w = await api('POST', '/api/wallets', body);
        await loadSession();
        renderMnemonic(w.mnemonic);
      } catch (ex) {
        showError(err, ex.message);
        busy(submit, false);
      }
    });
    return form;
  }

  function buildRecoverForm() {
    const err = errorBox('recover-error');
    const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-block', id: 'recover-submit', text: 'Recover wallet' });
    const form = h('form', { id: 'recover-form', class: 'stack', novalidate: true },
      field({ id: 'recover-name', label: 'Wallet name (optional)', autocomplete: 'off', placeholder: 'default' }),
      field({ id: 'recover-mnemonic', tag: 'textarea', label: 'Recovery phrase (24 words)', rows: 4, autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', required: true, hint: 'The words separated by spaces, in order.' }),
      field({ id: 'recover-passphrase', label: 'New passphrase', type: 'password', autocomplete: 'new-password', required: true, hint: 'At least 8 characters.' }),
      field({ id: 'recover-passphrase-confirm', label: 'New passphrase again', type: 'password', autocomplete: 'new-password', required: true }),
      err, submit);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const name = $('#recover-name', form).value.trim();
      const words = $('#recover-mnemonic', form).value.trim().toLowerCase().split(/\s+/).filter(Boolean);
      const p1 = $('#recover-passphrase', form).value, p2 = $('#recover-passphrase-confirm', form).value;
      if (words.length !== 24) return showError(err, 'The recovery phrase must have 24 words (' + words.length + ' given)');
      const bad = checkPassphrases(p1, p2);
      if (bad) return showError(err, bad);
      showError(err, '');
      busy(submit, true, 'Recovering…');
      try {
        const body = { mnemonic: words.join(' '), passphrase: p1, passphrase_confirm: p2 };
        if (name) body.name = name;
        await api('POST', '/api/wallets/recover', body);
        await loadSession();
        toast('Wallet recovered', 'success');
        go('#/');
      } catch (ex) {
        showError(err, ex.message);
        busy(submit, false);
      }
    });
    return form;
  }

  function mnemonicGrid(id, mnemonic) {
    const words = String(mnemonic || '').trim().split(/\s+/);
    return h('ol', { class: 'mnemonic-grid', id },
      words.map((w, i) => h('li', { class: 'mnemonic-word', data: { index: String(i + 1) } },
        h('span', { class: 'n', text: String(i + 1) }), h('span', { class: 'w', text: w }))));
  }

  function renderMnemonic(mnemonic) {
    window.scrollTo(0, 0);
    const check = h('input', { type: 'checkbox', id: 'mnemonic-written' });
    const cont = h('button', { type: 'button', class: 'btn btn-primary btn-block', id: 'continue', text: 'Continue', disabled: true });
    check.addEventListener('change', () => { cont.disabled = !check.checked; });
    cont.addEventListener('click', () => { go('#/'); });
    render(h('section', { class: 'card narrow', id: 'mnemonic-screen' },
      h('h1', { text: 'Your recovery phrase' }),
      h('p', { text: 'Write these 24 words down, in order, and keep them somewhere safe and offline. They are the only way to recover this wallet. They will not be shown again.' }),
      mnemonicGrid('mnemonic-words', mnemonic),
      h('div', { class: 'checkline' }, check, h('label', { for: 'mnemonic-written', text: 'I have written these words down' })),
      cont));
    check.focus();
  }

  /* ---------------------------------------------------------- unlock */

  function renderUnlock() {
    const s = M.state.session;
    const wallets = s.wallets || [];
    const err = errorBox('unlock-error');
    const msg = h('p', { class: 'notice', id: 'unlock-message', role: 'status', hidden: !M.state.message, text: M.state.message });
    M.state.message = '';
    const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-block', id: 'unlock', text: 'Unlock' });
    const picker = wallets.length > 1
      ? field({ id: 'unlock-wallet', tag: 'select', label: 'Wallet', options: wallets.map((w) => h('option', { value: w.name, selected: w.name === (M.state.session && M.state.session.default_wallet), text: w.name + ' · ' + shortHash(w.client_id, 6) })) })
      : null;
    const form = h('form', { id: 'unlock-form', class: 'stack', novalidate: true },
      picker,
      wallets.length === 1 ? h('p', { class: 'muted', text: 'Wallet: ' + wallets[0].name + ' · ' + shortHash(wallets[0].client_id, 6) }) : null,
      field({ id: 'unlock-passphrase', label: 'Passphrase', type: 'password', autocomplete: 'current-password', required: true, autofocus: true }),
      err, submit);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const pass = $('#unlock-passphrase', form).value;
      if (!pass) return showError(err, 'Enter your passphrase');
      showError(err, '');
      busy(submit, true, 'Unlocking…');
      try {
        const body = { passphrase: pass };
        const sel = $('#unlock-wallet', form);
        if (sel) body.name = sel.value;
        else if (wallets.length === 1) body.name = wallets[0].name;
        await api('POST', '/api/unlock', body, { noRedirect: true });
        await loadSession();
        route();
      } catch (ex) {
        showError(err, ex.message);
        busy(submit, false);
        $('#unlock-passphrase', form).select();
      }
    });
    const add = h('button', { type: 'button', class: 'link', id: 'add-wallet-open', text: 'Create or recover another wallet' });
    add.addEventListener('click', () => renderOnboarding(true));
    render(h('section', { class: 'card narrow', id: 'unlock-screen' },
      h('div', { class: 'hero' }, h('img', { src: 'icon.svg', alt: '', width: 56, height: 56 }), h('h1', { text: 'Unlock Mosaic' })),
      msg, form, h('p', { class: 'center' }, add)));
    $('#unlock-passphrase').focus();
  }

  async function signOut() {
    leave();
    try { await api('POST', '/api/lock', undefined, { noRedirect: true }); } catch (_) { /* already locked */ }
    M.state.message = 'You are signed out.';
    await loadSession().catch(() => {});
    route();
  }

  /* ------------------------------------------------------ allocation */

  function allocationForm(onDone) {
    const err = errorBox('alloc-error');
    const submit = h('button', { type: 'submit', class: 'btn btn-primary', id: 'alloc-submit', text: 'Create allocation' });
    const form = h('form', { id: 'alloc-form', class: 'stack', novalidate: true },
      field({ id: 'alloc-name', label: 'Name', value: 'my-files', autocomplete: 'off', required: true }),
      h('div', { class: 'row2' },
        field({ id: 'alloc-data', label: 'Data shards', type: 'number', min: 1, max: 32, value: '2', inputmode: 'numeric' }),
        field({ id: 'alloc-parity', label: 'Parity shards', type: 'number', min: 0, max: 32, value: '2', inputmode: 'numeric' })),
      h('div', { class: 'row2' },
        field({ id: 'alloc-size', label: 'Size', value: '1GiB', hint: 'e.g. 500MiB, 1GiB' }),
        field({ id: 'alloc-expire', label: 'Expires after', value: '30d', hint: 'e.g. 30d, 12h' })),
      field({ id: 'alloc-lock', label: 'Tokens to lock', value: '5', inputmode: 'decimal', hint: 'Paid from your wallet into the allocation\u2019s write pool.' }),
      err, submit);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const v = (id) => $('#' + id, form).value.trim();
      const data = parseInt(v('alloc-data'), 10), parity = parseInt(v('alloc-parity'), 10);
      if (!v('alloc-name')) return showError(err, 'Give the allocation a name');
      if (!(data >= 1) || !(parity >= 0)) return showError(err, 'Shards must be whole numbers (data at least 1)');
      if (!/^\d+(\.\d+)?\s*[KMGT]?i?B?$/i.test(v('alloc-size'))) return showError(err, 'Size must look like 1GiB or 500MiB');
      if (!/^\d+\s*[smhdw]$/i.test(v('alloc-expire'))) return showError(err, 'Expiry must look like 30d or 12h');
      if (!/^\d+(\.\d+)?$/.test(v('alloc-lock'))) return showError(err, 'invalid amount');
      showError(err, '');
      busy(submit, true, 'Creating…');
      const t = toast('Creating allocation…', 'progress');
      try {
        const a = await api('POST', '/api/allocations', {
          name: v('alloc-name'), data_shards: data, parity_shards: parity,
          size: v('alloc-size'), expire: v('alloc-expire'), lock: v('alloc-lock')
        });
        t.update('Allocation ' + (a.name || a.id) + ' created', 'success');
        if (onDone) onDone(a);
      } catch (ex) {
        t.update(ex.message, 'error');
        showError(err, ex.message);
        busy(submit, false);
      }
    });
    return form;
  }
  function openAllocationDialog(onDone) {
    let dlg = null;
    dlg = dialog({ id: 'alloc-dialog', title: 'New allocation', body: allocationForm((a) => { dlg.close(); if (onDone) onDone(a); }) });
  }

  /* ------------------------------------------------------------ home */

  function tile(id, href, iconName, title, sub, coming) {
    const inner = [h('span', { class: 'tile-icon' }, icon(iconName)), h('span', { class: 'tile-title', text: title }), h('span', { class: 'tile-sub', text: sub })];
    if (coming) {
      return h('div', { class: 'tile tile-coming', id, 'aria-disabled': 'true' }, inner, h('span', { class: 'chip', text: 'coming' }));
    }
    return h('a', { class: 'tile', id, href }, inner);
  }

  routes[''] = async function home() {
    const s = M.state.session;
    const wrap = h('section', { id: 'home' },
      pageHead('Home'),
      h('p', { class: 'muted', text: 'Signed in as ' + (s.wallet ? s.wallet.name : '') }),
      h('div', { id: 'home-alloc-slot' }),
      h('h2', { class: 'section-title', text: 'Account' }),
      h('div', { class: 'tiles' },
        tile('tile-wallet', '#/wallet', 'wallet', 'Wallet Details', 'Client id, keys, recovery phrase'),
        tile('tile-allocation', '#/allocation', 'alloc', 'Allocation Details', 'Size, shards, challenges'),
        tile('tile-network', '#/network', 'network', 'Network Details', 'Node, blobbers, switch network')),
      h('h2', { class: 'section-title', text: 'Apps' }),
      h('div', { class: 'tiles' },
        tile('tile-bolt', '#/bolt', 'bolt', 'Bolt', 'Wallet: send, receive, faucet'),
        tile('tile-vult', '#/vult', 'vult', 'Vult', 'Your files, encrypted and spread'),
        tile('tile-notes', '#/notes', 'notes', 'Notes', 'Your notepad on the ledger'),
        tile('tile-social', '#/social', 'social', 'Social', 'Posts, replies, votes'),
        tile('tile-locker', '#/locker', 'locker', 'Locker', 'Files that open with a PIN')));
    render(wrap);
    try {
      const r = await api('GET', '/api/allocations');
      if (!(r.allocations || []).length && document.body.contains(wrap)) {
        const openBtn = h('button', { type: 'button', class: 'btn btn-primary', id: 'create-allocation-open' }, icon('plus'), 'Create allocation');
        openBtn.addEventListener('click', () => openAllocationDialog(() => route()));
        $('#home-alloc-slot').replaceChildren(h('div', { class: 'card banner', id: 'no-allocation' },
          h('div', {}, h('strong', { text: 'No storage allocation yet' }),
            h('p', { class: 'muted', text: 'Create one to store files with Vult. It locks some tokens; use the faucet in Bolt first if your balance is empty.' })),
          openBtn));
      }
    } catch (e) { if (e.status !== 401) toast(e.message, 'error'); }
  };

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

  /* ---------------------------------------------------------- wallet */

  routes.wallet = async function walletPage() {
    const w = await api('GET', '/api/wallet');
    const reveal = h('button', { type: 'button', class: 'btn', id: 'reveal-open', text: 'Reveal recovery phrase' });
    reveal.addEventListener('click', openReveal);
    render(h('section', { id: 'wallet-page' },
      pageHead('Wallet Details', '#/'),
      h('div', { class: 'card' },
        detailList('wallet-details', [
          ['Name', 'name', w.name],
          ['Client ID', 'client_id', w.client_id, { mono: true }],
          ['Public key', 'public_key', w.public_key, { mono: true }]]),
        h('div', { class: 'actions left' }, copyButton('copy-client-id', w.client_id, 'Client ID'), copyButton('copy-public-key', w.public_key, 'Public key'))),
      h('div', { class: 'card' },
        h('h2', { text: 'Recovery phrase' }),
        h('p', { class: 'muted', text: 'The 24 words that restore this wallet anywhere. Anyone who sees them controls your tokens and files. You need your passphrase to show them.' }),
        reveal)));
  };

  function openReveal() {
    const err = errorBox('reveal-error');
    const submit = h('button', { type: 'submit', class: 'btn btn-primary', id: 'reveal-submit', text: 'Reveal' });
    const out = h('div', { id: 'reveal-out' });
    const form = h('form', { class: 'stack', id: 'reveal-form', novalidate: true },
      field({ id: 'reveal-passphrase', label: 'Passphrase', type: 'password', autocomplete: 'current-password', required: true }),
      err, h('div', { class: 'actions' }, submit));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const pass = $('#reveal-passphrase', form).value;
      if (!pass) return showError(err, 'Enter your passphrase');
      busy(submit, true, 'Checking…');
      try {
        const r = await api('POST', '/api/wallet/reveal', { passphrase: pass }, { noRedirect: true });
        form.remove();
        out.append(h('p', { class: 'notice warn', text: 'Do not share these words. Close this dialog when you are done.' }), mnemonicGrid('revealed-mnemonic', r.mnemonic));
      } catch (ex) {
        showError(err, ex.message);
        busy(submit, false);
      }
    });
    dialog({ id: 'reveal-dialog', title: 'Reveal recovery phrase', body: [form, out] });
  }

  /* ------------------------------------------------------ allocation */

  routes.allocation = async function allocationPage(r) {
    const list = (await api('GET', '/api/allocations')).allocations || [];
    const newBtn = h('button', { type: 'button', class: 'btn', id: 'create-allocation-open' }, icon('plus'), 'New allocation');
    newBtn.addEventListener('click', () => openAllocationDialog((a) => go('#/allocation?id=' + encodeURIComponent(a.id))));
    if (!list.length) {
      return render(h('section', { id: 'allocation-page' }, pageHead('Allocation Details', '#/'),
        h('div', { class: 'card' }, h('p', { id: 'allocation-empty', text: 'You have no allocation yet.' }), allocationForm(() => route()))));
    }
    const id = r.params.get('id') || list[0].id;
    const a = list.find((x) => x.id === id) || list[0];
    const picker = list.length > 1 ? field({
      id: 'alloc-picker', tag: 'select', label: 'Allocation',
      options: list.map((x) => h('option', { value: x.id, selected: x.id === a.id, text: (x.name || 'unnamed') + ' · ' + shortHash(x.id, 6) })),
      on: { change: (e) => go('#/allocation?id=' + encodeURIComponent(e.target.value)) }
    }) : null;
    const used = Number(a.used_size) || 0, size = Number(a.size) || 0;
    render(h('section', { id: 'allocation-page' },
      pageHead('Allocation Details', '#/', newBtn),
      picker,
      h('div', { class: 'card' },
        spaceBar(used, size, 'alloc-space'),
        detailList('allocation-details', [
          ['Allocation ID', 'id', a.id, { mono: true, copy: true }],
          ['Name', 'name', a.name],
          ['Expiration date', 'expiration', fmtDate(a.expiration)],
          ['Size', 'size', fmtBytes(a.size)],
          ['Used size', 'used_size', fmtBytes(a.used_size)],
          ['Data shards', 'data_shards', a.data_shards],
          ['Parity shards', 'parity_shards', a.parity_shards],
          ['Number of writes', 'num_writes', a.num_writes],
          ['Number of reads', 'num_reads', a.num_reads],
          ['Successful challenges', 'successful_challenges', a.successful_challenges],
          ['Failed challenges', 'failed_challenges', a.failed_challenges],
          ['Latest closed challenge', 'latest_closed_challenge', a.latest_closed_challenge ? fmtDate(a.latest_closed_challenge) : 'none yet'],
          ['Write pool', 'write_pool', a.write_pool],
          ['Tokens locked', 'tokens_locked', a.tokens_locked]])),
      h('div', { class: 'card' }, h('h2', { text: 'Blobbers (' + (a.blobbers || []).length + ')' }),
        blobberList('alloc-blobbers', a.blobbers)),
      h('p', {}, h('a', { class: 'btn', href: '#/vult?alloc=' + encodeURIComponent(a.id), id: 'open-in-vult' }, icon('vult'), 'Open in Vult'))));
  };

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

  /* --------------------------------------------------------- network */

  routes.network = async function networkPage() {
    const n = await api('GET', '/api/network');
    const nets = n.networks || [];
    const sel = field({ id: 'network-select', tag: 'select', label: 'Network',
      options: nets.map((x) => h('option', { value: x.name, selected: x.name === n.name, text: x.name + ' — ' + x.node })) });
    const btn = h('button', { type: 'button', class: 'btn btn-primary', id: 'network-switch', text: 'Switch network' });
    btn.addEventListener('click', async () => {
      const target = $('#network-select').value;
      if (target === n.name) return toast('Already on ' + target, 'info');
      const ok = await confirmDialog({ title: 'Switch to ' + target + '?', message: 'Are you sure? You will be signed out and must unlock again on the other network.', yes: 'Yes, switch network', no: 'No' });
      if (!ok) return;
      busy(btn, true, 'Switching…');
      try {
        await api('POST', '/api/network', { name: target });
        M.state.message = 'Switched to ' + target + '. Unlock again to continue.';
        await loadSession();
        go('#/');
      } catch (e) {
        toast(e.message, 'error');
        busy(btn, false);
      }
    });
    render(h('section', { id: 'network-page' },
      pageHead('Network Details', '#/'),
      h('div', { class: 'card' }, detailList('network-details', [
        ['Name', 'name', n.name],
        ['Node URL', 'node', n.node, { mono: true }],
        ['App URL', 'app', n.app, { mono: true }],
        ['Chain ID', 'chain_id', n.chain_id, { mono: true }],
        ['Token symbol', 'symbol', n.symbol],
        ['Block time', 'block_time_ms', n.block_time_ms !== undefined ? n.block_time_ms + ' ms' : ''],
        ['Confirmations', 'confirmations', n.confirmations]])),
      h('div', { class: 'card' }, h('h2', { text: 'Blobbers (' + (n.blobbers || []).length + ')' }), blobberList('network-blobbers', n.blobbers)),
      h('div', { class: 'card' }, h('h2', { text: 'Change network' }),
        nets.length > 1 ? [sel, h('div', { class: 'actions left' }, btn)] : h('p', { class: 'muted', id: 'network-only', text: 'Only one network is configured. Add more with `mosaic network add`.' }))));
  };

  /* ------------------------------------------------------------ boot */

  async function boot() {
    $('#sign-out').addEventListener('click', signOut);
    window.addEventListener('hashchange', route);
    try {
      await loadSession();
    } catch (e) {
      render(h('div', { class: 'card narrow' }, h('h1', { text: 'Cannot reach Mosaic' }), h('p', { class: 'form-error', id: 'page-error', text: e.message }),
        h('button', { type: 'button', class: 'btn', id: 'retry', text: 'Try again', on: { click: boot } })));
      return;
    }
    route();
  }

  Object.assign(M, {
    h, append, $, $$, icon, api, ApiError, toast, dialog, confirmDialog, field, errorBox, showError, busy,
    copyText, copyButton, fmtDate, fmtBytes, shortHash, orDash, routes, route, go, onLeave, render, pageHead,
    detailList, spaceBar, allocationForm, openAllocationDialog, loadSession, sessionLost, parseHash
  });

  document.addEventListener('DOMContentLoaded', boot);
})();
