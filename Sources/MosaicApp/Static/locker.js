/* Mosaic web app, view — Locker: files that open only with their PIN (and this wallet). Needs the framework files.
 *
 * Stable ids / test hooks (for browser tests):
 *  Locker     #locker #locker-alloc (select, if several) #locker-intro #locker-input (file)
 *             #locker-upload-button #locker-files #locker-list (tr.locker-row[data-name]) #locker-empty
 *             row actions: .locker-open .locker-delete
 *             lock dialog:  #locker-put-dialog #locker-put-file #locker-name #locker-pin #locker-pin-repeat
 *                           #locker-replace #locker-put-error #locker-put-submit
 *             open dialog:  #locker-get-dialog #locker-get-pin #locker-get-error #locker-get-submit
 *             delete: #confirm-dialog #confirm-yes #confirm-no
 *  The PIN is sent only with the request that needs it and is never kept in the page.
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, dialog, confirmDialog, field, errorBox, showError, busy, fmtDate, fmtBytes, shortHash, routes, render, pageHead, onLeave, icon, go, chooseAllocation, allocationPicker } = M;

  const MIN_PIN = 4, MAX_PIN = 64;
  const locker = { alloc: null, allocs: [], entries: [], mounted: false };

  function q(params) { return new URLSearchParams(params).toString(); }

  // The same words as the SDK (and so the CLI) for what can be checked before sending.
  function checkPin(pin) {
    const n = Array.from(pin).length;
    if (!n) return 'the PIN is empty; a locker PIN needs ' + MIN_PIN + ' to ' + MAX_PIN + ' characters';
    if (n < MIN_PIN || n > MAX_PIN) return 'the PIN has ' + n + ' character' + (n === 1 ? '' : 's') + '; a locker PIN needs ' + MIN_PIN + ' to ' + MAX_PIN;
    return '';
  }
  function checkName(name) {
    if (!name || name === '.' || name === '..' || name.includes('/') || new TextEncoder().encode(name).length > 255) {
      return "'" + name + "' is not a valid locker name: use 1 to 255 bytes without '/' or control characters (not '.' or '..')";
    }
    return '';
  }

  async function errorOf(res) {
    try { const j = await res.json(); if (j && j.error) return new M.ApiError(res.status, j.error.code, j.error.message); } catch (_) { /* not JSON */ }
    return new M.ApiError(res.status, 'http_' + res.status, 'Request failed (' + res.status + ')');
  }
  function lost(e) {
    if (e.status === 401 && (e.code === 'session_expired' || e.code === 'locked')) M.sessionLost();
  }

  /* ------------------------------------------------------------- page */

  routes.locker = async function lockerPage(r) {
    const chosen = await chooseAllocation(r, { id: 'locker', title: 'Locker', note: 'Locker files are kept in your allocation, under /locker.' });
    if (!chosen) return;
    locker.allocs = chosen.list;
    locker.alloc = chosen.alloc;
    locker.mounted = true;
    onLeave(() => { locker.mounted = false; });
    renderShell();
    await loadList();
  };

  function renderShell() {
    const picker = allocationPicker('locker-alloc', locker.allocs, locker.alloc, (id) => go('#/locker?' + q({ alloc: id })));
    const input = h('input', { type: 'file', id: 'locker-input', class: 'visually-hidden' });
    input.addEventListener('change', () => { const f = input.files[0]; input.value = ''; if (f) openPut(f); });
    const label = h('label', { for: 'locker-input', class: 'btn btn-primary', id: 'locker-upload-button', tabindex: '-1' }, icon('upload'), 'Lock a file');
    input.addEventListener('focus', () => label.classList.add('focus'));
    input.addEventListener('blur', () => label.classList.remove('focus'));
    render(h('section', { id: 'locker' },
      pageHead('Locker', '#/'),
      picker,
      h('p', { class: 'notice', id: 'locker-intro', text: 'Each file here opens only with its PIN, on this wallet: the blobbers, someone who learns only the PIN, and this wallet without the PIN cannot read it. After ' +
        '5 wrong PINs for a file, further tries wait. A forgotten PIN cannot be recovered.' }),
      h('div', { class: 'toolbar' }, h('div', { class: 'toolbar-left' }, input, label)),
      h('div', { id: 'locker-files' }, h('p', { class: 'muted', text: 'Loading…' }))));
  }

  async function loadList() {
    try {
      const r = await api('GET', '/api/locker?' + q({ alloc: locker.alloc.id }));
      locker.entries = r.entries || [];
    } catch (e) {
      if (e.status === 401) return;
      if (locker.mounted) $('#locker-files').replaceChildren(h('p', { class: 'form-error', id: 'locker-error', text: e.message }));
      return;
    }
    if (locker.mounted) showList();
  }

  function showList() {
    const box = $('#locker-files');
    if (!box) return;
    if (!locker.entries.length) {
      return box.replaceChildren(h('p', { class: 'empty', id: 'locker-empty', text: 'The locker is empty. Lock a file with the button above.' }));
    }
    box.replaceChildren(h('div', { class: 'table-wrap' }, h('table', { class: 'file-table', id: 'locker-list' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Name' }), h('th', { scope: 'col', class: 'col-size', text: 'Size' }),
        h('th', { scope: 'col', class: 'col-date', text: 'Modified' }), h('th', { scope: 'col', class: 'col-actions' }, h('span', { class: 'visually-hidden', text: 'Actions' })))),
      h('tbody', {}, locker.entries.map(row)))));
  }

  function row(e) {
    const btn = (cls, iconName, label, fn) => h('button', { type: 'button', class: 'btn-icon ' + cls, 'aria-label': label + ' ' + e.name, title: label, on: { click: () => fn(e) } }, icon(iconName));
    return h('tr', { class: 'file-row locker-row', data: { name: e.name } },
      h('td', { class: 'col-name' }, h('span', { class: 'name-cell' }, icon('locker', 'file-icon'), h('span', { class: 'name-text' },
        h('button', { type: 'button', class: 'link file-name locker-name', text: e.name, on: { click: () => openGet(e) } }),
        h('span', { class: 'small muted mobile-meta', text: fmtBytes(e.size) + ' · ' + fmtDate(e.modified) })))),
      h('td', { class: 'col-size', text: fmtBytes(e.size) }),
      h('td', { class: 'col-date', text: fmtDate(e.modified) }),
      h('td', { class: 'col-actions' }, h('div', { class: 'row-actions' },
        btn('locker-open', 'download', 'Open with PIN and download', openGet),
        btn('locker-delete', 'trash', 'Delete', askDelete))));
  }

  /* ---------------------------------------------------------- dialogs */

  function formDialog(o) {
    const err = errorBox(o.errorId);
    const submit = h('button', { type: 'submit', class: 'btn btn-primary', id: o.submitId, text: o.submitLabel });
    const form = h('form', { class: 'stack', novalidate: true }, o.fields, err, h('div', { class: 'actions' }, submit));
    let dlg = null;
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      showError(err, '');
      busy(submit, true, o.busyLabel);
      try {
        const keep = await o.onSubmit(form, (m) => showError(err, m));
        if (keep !== true) dlg.close();
      } catch (ex) {
        showError(err, ex.message);
        lost(ex);
      }
      busy(submit, false);
    });
    dlg = dialog({ id: o.id, title: o.title, body: form });
    return dlg;
  }

  function pinField(id, label, hint, autocomplete) {
    return field({ id, label, type: 'password', autocomplete, required: true, maxlength: String(MAX_PIN * 2), spellcheck: 'false', hint });
  }

  function openPut(file) {
    const replace = h('input', { type: 'checkbox', id: 'locker-replace' });
    formDialog({
      id: 'locker-put-dialog', title: 'Lock a file', errorId: 'locker-put-error', submitId: 'locker-put-submit', submitLabel: 'Lock file', busyLabel: 'Locking…',
      fields: [
        h('p', { class: 'small muted', id: 'locker-put-file', text: file.name + ' · ' + fmtBytes(file.size) }),
        field({ id: 'locker-name', label: 'Name in the locker', value: file.name, autocomplete: 'off', required: true }),
        pinField('locker-pin', 'PIN', MIN_PIN + ' to ' + MAX_PIN + ' characters. It is not stored anywhere: if you forget it, the file is lost.', 'new-password'),
        pinField('locker-pin-repeat', 'Repeat the PIN', '', 'new-password'),
        h('div', { class: 'checkline' }, replace, h('label', { for: 'locker-replace', text: 'Replace a locker file with this name' }))],
      onSubmit: async (form, err) => {
        const name = $('#locker-name', form).value.trim();
        const pin = $('#locker-pin', form).value, again = $('#locker-pin-repeat', form).value;
        const bad = checkName(name) || checkPin(pin) || (pin !== again ? 'the two PINs differ; nothing was stored, try again' : '');
        if (bad) { err(bad); return true; }
        const headers = { 'X-CSRF-Token': M.state.csrf || '', 'X-Locker-PIN': encodeURIComponent(pin), 'X-Locker-PIN-Repeat': encodeURIComponent(again) };
        if (file.type) headers['Content-Type'] = file.type;
        let res;
        try {
          res = await fetch('/api/locker/upload?' + q({ alloc: locker.alloc.id, name, replace: replace.checked ? '1' : '0' }),
            { method: 'POST', headers, body: file, credentials: 'same-origin', cache: 'no-store' });
        } catch (_) {
          throw new M.ApiError(0, 'network', 'Cannot reach the Mosaic app. Is it still running?');
        }
        if (!res.ok) throw await errorOf(res);
        toast(name + ' locked', 'success');
        loadList();
      }
    });
  }

  function openGet(e) {
    formDialog({
      id: 'locker-get-dialog', title: 'Open ' + e.name, errorId: 'locker-get-error', submitId: 'locker-get-submit', submitLabel: 'Open and download', busyLabel: 'Opening…',
      fields: [pinField('locker-get-pin', 'PIN', 'The PIN this file was locked with.', 'off')],
      onSubmit: async (form, err) => {
        const input = $('#locker-get-pin', form);
        const pin = input.value;
        const bad = checkPin(pin);
        if (bad) { err(bad); return true; }
        let res;
        try {
          res = await fetch('/api/locker/download', {
            method: 'POST', credentials: 'same-origin', cache: 'no-store',
            headers: { 'Content-Type': 'application/json', Accept: 'application/octet-stream, application/json', 'X-CSRF-Token': M.state.csrf || '' },
            body: JSON.stringify({ alloc: locker.alloc.id, name: e.name, pin })
          });
        } catch (_) {
          throw new M.ApiError(0, 'network', 'Cannot reach the Mosaic app. Is it still running?');
        }
        if (!res.ok) {
          input.value = '';
          input.focus();
          throw await errorOf(res);
        }
        const blob = await res.blob();
        const url = URL.createObjectURL(blob);
        const a = h('a', { href: url, download: e.name, class: 'visually-hidden' });
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60000);
        toast(e.name + ' opened and downloaded (' + fmtBytes(blob.size) + ')', 'success');
      }
    });
  }

  async function askDelete(e) {
    const ok = await confirmDialog({ title: 'Delete ' + e.name + '?',
      message: 'Delete ' + e.name + ' from the locker? Its fragments and its locked key are removed from every blobber. This cannot be undone.', yes: 'Delete', danger: true });
    if (!ok) return;
    try {
      await api('POST', '/api/locker/delete', { alloc: locker.alloc.id, name: e.name });
      toast(e.name + ' deleted', 'success');
      loadList();
    } catch (ex) {
      toast(ex.message, 'error');
    }
  }

  M.locker = { checkPin, checkName };
})();
