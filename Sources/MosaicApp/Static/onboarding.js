/*
 * Mosaic web app, view — getting in: create a wallet, recover one from its words, the recovery phrase
 * shown once, the unlock screen and sign-out.
 * Hooks: #onboarding #create-open #recover-open
 *   create:  #create-form #wallet-name #passphrase #passphrase-confirm #create-error #create-wallet
 *   recover: #recover-form #recover-name #recover-mnemonic #recover-passphrase
 *            #recover-passphrase-confirm #recover-error #recover-submit
 *   mnemonic once: #mnemonic-screen #mnemonic-words (li.mnemonic-word[data-index]) #mnemonic-written #continue
 *   unlock:  #unlock-form #unlock-message #unlock-wallet (select, if several) #unlock-passphrase
 *            #unlock-error #unlock #add-wallet-open
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, field, errorBox, showError, busy, shortHash, render, route, go, leave, loadSession } = M;

  // passphrase rules, checked before sending (the server checks again)
  function checkPassphrases(p1, p2) {
    if (p1.length < 8) return 'The passphrase needs at least 8 characters';
    if (p1 !== p2) return 'The passphrases do not match';
    return '';
  }

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

  // The phrase is shown once after creating a wallet; the page stays here (navigation is held by
  // the router while M.state.phrase is set) until the user has typed three of the words back.
  function renderMnemonic(mnemonic) {
    M.state.phrase = mnemonic;
    $('#topnav').hidden = true;
    window.scrollTo(0, 0);
    const check = h('input', { type: 'checkbox', id: 'mnemonic-written' });
    const cont = h('button', { type: 'button', class: 'btn btn-primary btn-block', id: 'continue', text: 'Continue', disabled: true });
    check.addEventListener('change', () => { cont.disabled = !check.checked; });
    cont.addEventListener('click', () => renderPhraseCheck(mnemonic));
    render(h('section', { class: 'card narrow', id: 'mnemonic-screen' },
      h('h1', { text: 'Your recovery phrase' }),
      h('p', { text: 'Write these 24 words down, in order, and keep them somewhere safe and offline. They are the only way to recover this wallet on another computer, or here if you forget your passphrase.' }),
      h('p', { class: 'muted', id: 'mnemonic-again', text: 'You can see them again later in Wallet Details, after typing your passphrase.' }),
      mnemonicGrid('mnemonic-words', mnemonic),
      h('div', { class: 'checkline' }, check, h('label', { for: 'mnemonic-written', text: 'I have written these words down' })),
      cont));
    check.focus();
  }

  // Three words, asked by their number, before the wallet can be used.
  function renderPhraseCheck(mnemonic) {
    const words = String(mnemonic).trim().split(/\s+/);
    const picks = [];
    while (picks.length < Math.min(3, words.length)) {
      const i = Math.floor(Math.random() * words.length);
      if (!picks.includes(i)) picks.push(i);
    }
    picks.sort((a, b) => a - b);
    const err = errorBox('phrase-check-error');
    const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-block', id: 'phrase-check-submit', text: 'Confirm' });
    const back = h('button', { type: 'button', class: 'link', id: 'phrase-check-back', text: 'Show the words again' });
    back.addEventListener('click', () => renderMnemonic(mnemonic));
    const form = h('form', { id: 'phrase-check', class: 'stack', novalidate: true },
      picks.map((i, n) => field({ id: 'confirm-word-' + (n + 1), label: 'Word ' + (i + 1), autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', 'data-index': String(i + 1) })),
      err, submit);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const wrong = picks.filter((i, n) => $('#confirm-word-' + (n + 1), form).value.trim().toLowerCase() !== words[i]);
      if (wrong.length) return showError(err, 'Word ' + wrong.map((i) => i + 1).join(' and word ') + (wrong.length > 1 ? ' do' : ' does') + ' not match. Check what you wrote down, or show the words again.');
      M.state.phrase = null;
      $('#topnav').hidden = false;
      afterWalletCreated();
    });
    render(h('section', { class: 'card narrow', id: 'phrase-check-screen' },
      h('h1', { text: 'Check your recovery phrase' }),
      h('p', { text: 'Type these words from what you wrote down, to be sure the copy is right.' }),
      form, h('p', { class: 'center' }, back)));
    $('#confirm-word-1').focus();
  }

  // A network with a faucet offers the one-tap start; any other goes Home.
  async function afterWalletCreated() {
    let faucet = false;
    try { const n = await api('GET', '/api/network'); faucet = !!n.faucet_tokens && n.faucet_tokens !== '0'; } catch (_) { /* Home then */ }
    go(faucet ? '#/start' : '#/');
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
    M.state.phrase = null;
    M.state.message = 'You are signed out.';
    await loadSession().catch(() => {});
    // A public page (Social) would stay as it is: signing out shows the unlock screen all the same.
    const key = M.parseHash().parts[0] || '';
    if (M.publicRoutes && M.publicRoutes[key] && M.state.session && M.state.session.state !== 'no_wallet') {
      document.body.dataset.state = M.state.session.state;
      return renderUnlock();
    }
    route();
  }

  Object.assign(M, { renderOnboarding, renderUnlock, renderMnemonic, signOut, mnemonicGrid });
})();
