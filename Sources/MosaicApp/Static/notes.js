/* Mosaic web app, view — Notes: the wallet's notepad on the ledger's notes contract. Needs the framework files.
 *
 * Test hooks:
 *  #notes #notes-count #note-add-open #notes-menu-open
 *  menu: #notes-menu #notes-refresh #notes-drop #notes-sign-out
 *  #note-list (li.note-row[data-id][data-private]) .note-title .note-body .note-lock .note-delete
 *  #notes-empty
 *  compose sheet: #note-sheet #note-form #note-title #note-body #note-preview (Markdown) #note-private #note-error #note-save
 *  #notes-overlay (while a transaction seals) #notes-overlay-stage   error alert: #notes-alert #notes-alert-message #notes-alert-ok
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, dialog, confirmDialog, field, errorBox, showError, fmtDate, routes, render, pageHead, onLeave, icon } = M;

  const TITLE_MAX = 256;        // bytes, UTF-8 (the contract's limit)
  const BODY_MAX = 16 * 1024;   // bytes
  const enc = new TextEncoder();
  const bytes = (s) => enc.encode(s).length;
  // Notes per page of the list; older ones come with "Show older notes", read at the same round.
  const notes = { page: null, mounted: false, pageSize: 100 };

  /* ------------------------------------------------------ transactions */

  function overlay(on) {
    let el = $('#notes-overlay');
    if (on && !el) {
      el = h('div', { class: 'notes-overlay', id: 'notes-overlay', role: 'alertdialog', 'aria-live': 'assertive', 'aria-label': 'Waiting for the network' },
        h('div', { class: 'notes-overlay-box' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }),
          h('p', { id: 'notes-overlay-stage', text: 'On it — sending the transaction…' })));
      document.body.appendChild(el);
    } else if (!on && el) el.remove();
  }

  // The overlay's line: pending → executed in block #N → sealed.
  function stage(text) { const el = $('#notes-overlay-stage'); if (el) el.textContent = text; }

  function alertError(message) {
    const ok = h('button', { type: 'button', class: 'btn btn-primary', id: 'notes-alert-ok', text: 'OK', autofocus: true });
    const dlg = dialog({ id: 'notes-alert', title: 'Error', body: [h('p', { id: 'notes-alert-message', role: 'alert', text: message }), h('div', { class: 'actions' }, ok)] });
    ok.addEventListener('click', () => dlg.close());
  }

  // Sends a write, shows the overlay until it is sealed, then reloads. A failed, expired or
  // refused transaction ends in the alert with the chain's (or the app's) message.
  // The wallet's approval comes first (the user may turn it off for notes: dialog.js approve()).
  const ACTION = { POST: 'Add note', PUT: 'Save note', DELETE: 'Delete note' };
  async function transact(method, path, body, done) {
    const what = ACTION[method] || 'Notes';
    if (!await M.approve({ kind: 'notes', action: what + (body && body.title && !body.private ? ' \u201c' + body.title + '\u201d' : ''), amount: 'nothing is paid but the fee', fee: notes.fee || '', to: 'The notes contract' })) return;
    overlay(true);
    try {
      const sent = await api(method, path, body);
      stage('Pending: the network accepted the transaction…');
      let tx = await api('GET', '/api/transactions/' + encodeURIComponent(sent.hash) + '/wait?until=finalized&timeout=30');
      if (tx.round !== null && tx.round !== undefined && tx.outcome === 'success') stage('Executed in block #' + tx.round + '; waiting until it is sealed…');
      for (let i = 0; i < 6; i++) {
        if (tx.outcome === 'failure' || tx.status === 'expired' || tx.status === 'sealed') break;
        tx = await api('GET', '/api/transactions/' + encodeURIComponent(sent.hash) + '/wait?until=sealed&timeout=30');
      }
      if (tx.outcome === 'failure') throw new Error((tx.error && tx.error.message) || 'the transaction failed');
      if (tx.status === 'expired') throw new Error('the transaction expired before it was included; try again');
      if (tx.status !== 'sealed') throw new Error('the transaction is still ' + tx.status + '; refresh in a moment');
      if (done) toast(done, 'success');
    } catch (e) {
      if (e && e.status === 401) return;
      overlay(false);
      alertError(e.message);
    } finally {
      overlay(false);
      if (notes.mounted) await load();
    }
  }

  /* ------------------------------------------------------------- sheet */

  function openSheet(note) {
    const err = errorBox('note-error');
    const save = h('button', { type: 'submit', class: 'btn btn-primary', id: 'note-save', text: note ? 'Save changes' : 'Save', disabled: true });
    const priv = h('input', { type: 'checkbox', id: 'note-private', checked: !!(note && note.private) });
    const form = h('form', { id: 'note-form', class: 'stack', novalidate: true },
      field({ id: 'note-title', label: 'Title', autocomplete: 'off', required: true, placeholder: 'A title', hint: 'Up to ' + TITLE_MAX + ' bytes' }),
      field({ id: 'note-body', tag: 'textarea', label: 'Note', rows: 8, required: true, placeholder: 'Write your note…', hint: 'Up to 16 KiB. Markdown: **bold**, *italic*, `code`, - lists, # headings, [links](https://…); HTML shows as text.' }),
      h('div', { class: 'note-preview', id: 'note-preview', 'aria-label': 'Preview' }),
      h('label', { class: 'check', for: 'note-private' }, priv, ' Private: encrypt title and note so only this wallet can read them'),
      err, h('div', { class: 'actions' }, save));
    const title = $('#note-title', form), text = $('#note-body', form);
    if (note) { title.value = note.title; text.value = note.body; }
    // Save stays disabled until both fields are filled and within the limits.
    function check() {
      const t = title.value, b = text.value;
      let msg = '';
      if (bytes(t) > TITLE_MAX) msg = 'The title is ' + bytes(t) + ' bytes; at most ' + TITLE_MAX + ' allowed';
      else if (bytes(b) > BODY_MAX) msg = 'The note is ' + bytes(b) + ' bytes; at most ' + BODY_MAX + ' (16 KiB) allowed';
      showError(err, msg);
      save.disabled = !t.trim() || !b.trim() || !!msg;
    }
    const previewBox = $('#note-preview', form);
    const showPreview = () => previewBox.replaceChildren(M.markdown(text.value));
    title.addEventListener('input', check);
    text.addEventListener('input', () => { check(); showPreview(); });
    check();
    showPreview();
    const dlg = dialog({ id: 'note-sheet', class: 'sheet', title: note ? 'Edit note' : 'New note', body: form });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (save.disabled) return;
      const body = { title: title.value.trim(), body: text.value, private: priv.checked };
      dlg.close();
      if (note) transact('PUT', '/api/notes/' + note.id, body, 'Note saved');
      else transact('POST', '/api/notes', body, 'Note added');
    });
    title.focus();
  }

  /* -------------------------------------------------------------- menu */

  function menu() {
    const btn = h('button', { type: 'button', class: 'btn-icon', id: 'notes-menu-open', 'aria-label': 'More', 'aria-haspopup': 'true', 'aria-expanded': 'false', text: '⋯' });
    const item = (id, label, fn, danger) => h('button', { type: 'button', role: 'menuitem', class: 'menu-item' + (danger ? ' danger' : ''), id, text: label,
      on: { click: () => { close(); fn(); } } });
    const drop = item('notes-drop', 'Delete notepad', async () => {
      const ok = await confirmDialog({ title: 'Delete notepad?', message: 'This deletes your notepad and all ' + ((notes.page && notes.page.notepad && notes.page.notepad.notes) || 0) + ' notes in it, for good.', yes: 'Delete notepad', danger: true });
      if (ok) transact('DELETE', '/api/notepad', undefined, 'Notepad deleted');
    }, true);
    const list = h('div', { class: 'menu', id: 'notes-menu', role: 'menu', hidden: true },
      item('notes-refresh', 'Refresh notepad', () => load()), drop,
      item('notes-sign-out', 'Sign out', () => { const s = $('#sign-out'); if (s) s.click(); }));
    function close() { list.hidden = true; btn.setAttribute('aria-expanded', 'false'); }
    btn.addEventListener('click', (e) => {
      e.stopPropagation();
      drop.disabled = !(notes.page && notes.page.notepad);
      list.hidden = !list.hidden;
      btn.setAttribute('aria-expanded', String(!list.hidden));
    });
    const outside = (e) => { if (!list.contains(e.target)) close(); };
    document.addEventListener('click', outside);
    onLeave(() => document.removeEventListener('click', outside));
    return h('div', { class: 'menu-wrap' }, btn, list);
  }

  /* -------------------------------------------------------------- page */

  function row(n) {
    const del = h('button', { type: 'button', class: 'btn-icon note-delete', 'aria-label': 'Delete note ' + n.id }, icon('trash'));
    del.addEventListener('click', async () => {
      const ok = await confirmDialog({ title: 'Delete note?', message: n.locked ? 'Delete this private note?' : 'Delete “' + n.title + '”?', yes: 'Delete', danger: true });
      if (ok) transact('DELETE', '/api/notes/' + n.id, undefined, 'Note deleted');
    });
    const open = h('button', { type: 'button', class: 'note-main', 'aria-label': 'Edit note ' + n.id, disabled: n.locked },
      h('span', { class: 'note-title', text: n.locked ? 'Private note' : n.title }),
      // A one-line preview with the Markdown's inline formatting; raw HTML stays text.
      h('span', { class: 'note-body' }, n.locked ? 'Encrypted; this wallet cannot open it' : M.markdown(n.body, { inline: true })),
      h('span', { class: 'note-meta', text: '#' + n.id + ' · ' + fmtDate(n.updated_at) }));
    open.addEventListener('click', () => openSheet(n));
    return h('li', { class: 'note-row', data: { id: String(n.id), private: String(!!n.private) } },
      n.private ? h('span', { class: 'note-lock', title: 'Private: only this wallet can read it', 'aria-label': 'Private' }, icon('locker')) : null,
      open, del);
  }

  function show(page, append) {
    const list = $('#note-list'), empty = $('#notes-empty'), count = $('#notes-count'), more = $('#notes-more');
    if (!list) return;
    if (append) {
      list.append(...page.notes.map(row));
      notes.page = Object.assign({}, page, { notes: notes.page.notes.concat(page.notes) });
    } else {
      list.replaceChildren(...page.notes.map(row));
      notes.page = page;
    }
    more.hidden = page.next_after == null;
    empty.hidden = notes.page.notes.length > 0;
    empty.textContent = page.notepad ? 'Your notepad is empty. Add a note with “+”.' : 'You have no notepad yet. Add a note with “+” and it is created with it.';
    count.textContent = page.notepad
      ? 'Notepad #' + page.notepad.number + ' · ' + page.notepad.notes.toLocaleString() + ' of ' + page.notepad.max_notes.toLocaleString() + ' notes · block #' + page.round
      : 'No notepad · block #' + page.round;
  }

  async function load() {
    try {
      show(await api('GET', '/api/notes?limit=' + notes.pageSize));
    } catch (e) {
      if (e && e.status === 401) return;
      alertError(e.message);
    }
  }

  /** The next page after the last note shown, at the round of the first page so nothing shifts. */
  async function loadMore() {
    const p = notes.page;
    if (!p || p.next_after == null) return;
    const btn = $('#notes-more');
    btn.disabled = true;
    try {
      show(await api('GET', '/api/notes?limit=' + notes.pageSize + '&after=' + p.next_after + '&round=' + p.round), true);
    } catch (e) {
      if (e && e.status !== 401) alertError(e.message);
    } finally {
      btn.disabled = false;
    }
  }

  routes.notes = async function notesPage() {
    notes.mounted = true;
    onLeave(() => { notes.mounted = false; overlay(false); });
    const add = h('button', { type: 'button', class: 'btn btn-primary', id: 'note-add-open', 'aria-label': 'New note' }, icon('plus'));
    add.addEventListener('click', () => openSheet(null));
    const more = h('button', { type: 'button', class: 'btn', id: 'notes-more', hidden: true, text: 'Show older notes' });
    more.addEventListener('click', loadMore);
    render(h('section', { id: 'notes' },
      pageHead('Notes', '#/', h('div', { class: 'notes-actions' }, menu(), add)),
      h('p', { class: 'muted', id: 'notes-count', text: 'Loading…' }),
      h('ul', { class: 'note-list', id: 'note-list' }),
      h('p', { class: 'muted center', id: 'notes-empty', hidden: true }),
      h('div', { class: 'center' }, more)));
    await load();
  };

  M.notes = { load, bytes, state: notes };
})();
