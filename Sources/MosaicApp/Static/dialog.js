/*
 * Mosaic web app, framework — modal dialogs (dialog.modal, .dialog-close) and the yes/no confirmation
 * (#confirm-dialog #confirm-yes #confirm-no); closeDialogs() runs on every route change.
 * approve() is the wallet's approval step before a signed transaction (#approve-dialog
 * [data-field=action|amount|fee|to] #approve-yes #approve-no #approve-skip for notes and social).
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, $$, icon } = M;

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
    if ($('#toast') && $('#toast').children.length) M.raiseToasts();
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

  function closeDialogs() { $$('dialog[open]').forEach((d) => d.close()); }

  // approve({action, amount, fee, to, kind}) → Promise<boolean>: what will be signed, before it is.
  // kind 'notes' or 'social' may be turned off by the user (remembered in this browser); value
  // moving transactions (send, allocation, lock, vote with stake) always ask.
  const SKIP_KEY = 'mosaic.approve.skip';
  function skipped() { try { return JSON.parse(localStorage.getItem(SKIP_KEY) || '{}'); } catch (_) { return {}; } }
  function setSkipped(kind, on) {
    const s = skipped();
    if (on) s[kind] = true; else delete s[kind];
    try { localStorage.setItem(SKIP_KEY, JSON.stringify(s)); } catch (_) { /* private mode */ }
  }
  function approve(opts) {
    const optional = opts.kind === 'notes' || opts.kind === 'social';
    if (optional && skipped()[opts.kind]) return Promise.resolve(true);
    return new Promise((resolve) => {
      let answer = false;
      const rows = [['Action', 'action', opts.action], ['Amount', 'amount', opts.amount], ['Network fee', 'fee', opts.fee], ['To', 'to', opts.to]]
        .filter((r) => r[2] !== undefined && r[2] !== null && r[2] !== '');
      const yes = h('button', { type: 'button', class: 'btn btn-primary', id: 'approve-yes', text: opts.yes || 'Approve and sign' });
      const no = h('button', { type: 'button', class: 'btn', id: 'approve-no', text: 'Reject' });
      const skip = optional ? h('input', { type: 'checkbox', id: 'approve-skip' }) : null;
      const dlg = dialog({
        id: 'approve-dialog', title: 'Approve transaction',
        body: [
          h('p', { class: 'muted', text: 'Your wallet will sign this transaction:' }),
          h('dl', { class: 'details' }, rows.map(([label, key, value]) => h('div', { class: 'detail-row' },
            h('dt', { text: label }), h('dd', { class: key === 'to' ? 'mono wrap' : '', data: { field: key }, text: String(value) })))),
          skip ? h('div', { class: 'checkline' }, skip, h('label', { for: 'approve-skip', text: 'Do not ask again for ' + (opts.kind === 'notes' ? 'notes' : 'social actions') })) : null,
          h('div', { class: 'actions' }, no, yes)],
        onClose: () => resolve(answer)
      });
      yes.focus();
      yes.addEventListener('click', () => { answer = true; if (skip && skip.checked) setSkipped(opts.kind, true); dlg.close(); });
      no.addEventListener('click', () => dlg.close());
    });
  }

  Object.assign(M, { approve, setApprovalSkipped: setSkipped, dialog, confirmDialog, closeDialogs });
})();
