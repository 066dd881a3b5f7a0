/*
 * Mosaic web app, framework — modal dialogs (dialog.modal, .dialog-close) and the yes/no confirmation
 * (#confirm-dialog #confirm-yes #confirm-no); closeDialogs() runs on every route change.
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $$, icon } = M;

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

  function closeDialogs() { $$('dialog[open]').forEach((d) => d.close()); }

  Object.assign(M, { dialog, confirmDialog, closeDialogs });
})();
