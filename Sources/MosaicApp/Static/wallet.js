/*
 * Mosaic web app, view — Wallet Details (#wallet-details [data-field=name|client_id|public_key],
 * #copy-client-id #copy-public-key) and revealing the recovery phrase again with the passphrase
 * (#reveal-open #reveal-passphrase #reveal-error #reveal-submit #revealed-mnemonic).
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, dialog, field, errorBox, showError, busy, routes, render, pageHead, detailList, copyButton, mnemonicGrid } = M;

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

})();
