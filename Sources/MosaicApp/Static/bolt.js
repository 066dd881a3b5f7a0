/* Mosaic web app, view — Bolt: balance, send, receive, faucet, transactions. Needs the framework files.
 *
 * Test hooks:
 *  Bolt       #bolt #balance-tokens #balance-symbol #balance-usd #balance-rate
 *             #send-open #receive-open #faucet
 *             send dialog: #send-form #send-to #send-amount #send-description #send-error #send-submit
 *             receive dialog: #receive-client-id #receive-copy #receive-qr
 *             #tx-list (li.tx-row[data-hash][data-status], .tx-failed) #tx-empty
 *             #tx-prev #tx-next #tx-page
 *  Tx details #tx-detail [data-field=hash|block_hash|round|output_hash|client_id|
 *             to_client_id|signature|status|outcome|error|value|fee|tokens|fee_tokens|
 *             type|description|creation_date] #explorer-link #tx-back
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, dialog, field, errorBox, showError, busy, copyButton, fmtDate, shortHash, orDash, routes, render, pageHead, onLeave, icon, detailList } = M;

  const PAGE = 20;
  const DECIMALS = 10; // 1 token = 10^10 base units
  const bolt = { offset: 0, balance: null, lastSig: '', mounted: false };

  /* ----------------------------------------------------------- amounts */

  // "1.5" → 15000000000n; null when not a plain non-negative decimal. No floats.
  function toUnits(str) {
    const m = /^(\d+)(?:\.(\d+))?$/.exec(String(str).trim());
    if (!m) return null;
    const frac = m[2] || '';
    if (frac.length > DECIMALS) return null;
    return BigInt(m[1]) * 10n ** BigInt(DECIMALS) + BigInt((frac + '0'.repeat(DECIMALS)).slice(0, DECIMALS));
  }

  // Why a typed amount is not one: each reason a sentence that says what to type instead.
  function amountProblem(str) {
    const s = String(str).trim();
    if (!s) return 'Enter an amount, such as 1.5.';
    if (s.startsWith('-')) return 'That is an invalid amount: it cannot be negative.';
    if (s.includes(',')) return 'That is an invalid amount: use a dot for decimals and no commas (1.5, not 1,5).';
    const m = /^(\d+)(?:\.(\d+))?$/.exec(s);
    if (!m) return 'That is an invalid amount: use digits and at most one dot, such as 1.5.';
    if ((m[2] || '').length > DECIMALS) return 'That is an invalid amount: at most ' + DECIMALS + ' decimals.';
    return '';
  }

  function fmtUnits(u) {
    const base = 10n ** BigInt(DECIMALS);
    const whole = u / base, frac = (u % base).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
    return whole.toString() + (frac ? '.' + frac : '');
  }
  function balanceUnits(balance) {
    if (!balance) return null;
    return typeof balance.balance === 'number' || typeof balance.balance === 'string'
      ? BigInt(String(balance.balance).split('.')[0]) : toUnits(balance.tokens);
  }
  function feeUnits(balance) { return balance && balance.fee !== undefined ? BigInt(String(balance.fee)) : 0n; }

  // The contract's validation messages, checked in the same order as the server.
  function validateSend(to, amount, me, balance) {
    const units = toUnits(amount);
    if (units === null) return amountProblem(amount) || 'That is an invalid amount.';
    if (!/^[0-9a-f]{64}$/.test(to)) return 'That is an invalid address: a client ID is 64 characters, 0-9 and a-f.';
    if (units === 0n) return 'The amount cannot be zero.';
    const have = balanceUnits(balance);
    if (have !== null) {
      if (units > have) return 'The amount cannot be greater than balance (' + fmtUnits(have) + ' ' + symbol() + ').';
      const fee = feeUnits(balance);
      if (units + fee > have) return 'The amount and the fee of ' + fmtUnits(fee) + ' ' + symbol() + ' are more than your balance; use Max to send all you can.';
    }
    if (me && to === me) return 'You cannot send to own wallet: enter the recipient\u2019s client ID.';
    return '';
  }

  function me() { const s = M.state.session; return s && s.wallet ? s.wallet.client_id : ''; }
  function symbol() { return (bolt.balance && bolt.balance.symbol) || 'MSC'; }

  /* ---------------------------------------------------------- tracking */

  // Long-poll a transaction until sealed (or failed/expired), with toasts.
  async function watchTx(hash, what) {
    const t = toast(what + '… waiting for the network to confirm', 'progress');
    let tx = null;
    for (let i = 0; i < 6; i++) {
      try {
        tx = await api('GET', '/api/transactions/' + encodeURIComponent(hash) + '/wait?until=sealed&timeout=30');
      } catch (e) {
        if (e.status === 401) { t.close(); return null; }
        t.update(e.message, 'error');
        return null;
      }
      if (tx.outcome === 'failure' || tx.status === 'expired' || tx.status === 'sealed') break;
      if (bolt.mounted) refresh();
    }
    if (!tx) return null;
    if (tx.outcome === 'failure' || tx.status === 'expired') t.update(what + ' failed: ' + ((tx.error && tx.error.message) || tx.status), 'error');
    else if (tx.status === 'sealed') t.update(what + ' confirmed: ' + (tx.credited && tx.credited !== 0 ? tx.credited_tokens : tx.tokens) + ' ' + symbol(), 'success');
    else t.update(what + ' is still ' + tx.status + '; it will show up when it seals', 'info');
    if (bolt.mounted) refresh();
    return tx;
  }

  /* ----------------------------------------------------------- dialogs */

  function openSend() {
    const err = errorBox('send-error');
    const submit = h('button', { type: 'submit', class: 'btn btn-primary', id: 'send-submit', text: 'Send' });
    const avail = bolt.balance ? 'Available: ' + bolt.balance.tokens + ' ' + symbol() + (bolt.balance.fee_tokens ? ' · network fee ' + bolt.balance.fee_tokens + ' ' + symbol() : '') : '';
    const form = h('form', { id: 'send-form', class: 'stack', novalidate: true },
      field({ id: 'send-to', label: 'Recipient client ID', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', placeholder: '64 hex characters', required: true }),
      field({ id: 'send-amount', label: 'Amount (' + symbol() + ')', inputmode: 'decimal', autocomplete: 'off', placeholder: '0.0', required: true, hint: avail }),
      field({ id: 'send-description', label: 'Description (optional)', autocomplete: 'off', maxlength: 200 }),
      err, h('div', { class: 'actions' }, submit));
    // Max: the whole balance less the fee.
    const max = h('button', { type: 'button', class: 'btn btn-small', id: 'send-max', text: 'Max' });
    max.addEventListener('click', () => {
      const have = balanceUnits(bolt.balance), fee = feeUnits(bolt.balance);
      if (have === null) return;
      $('#send-amount', form).value = have > fee ? fmtUnits(have - fee) : '0';
      showError(err, have > fee ? '' : 'Your balance does not cover the network fee; get tokens from the faucet first.');
    });
    $('#send-amount', form).parentElement.append(h('div', { class: 'actions left' }, max));
    let dlg = null;
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const to = $('#send-to', form).value.trim();
      const amount = $('#send-amount', form).value.trim();
      const desc = $('#send-description', form).value.trim();
      const bad = validateSend(to, amount, me(), bolt.balance);
      if (bad) return showError(err, bad);
      showError(err, '');
      const fee = bolt.balance && bolt.balance.fee_tokens ? bolt.balance.fee_tokens + ' ' + symbol() : '';
      if (!await M.approve({ kind: 'value', action: 'Send tokens', amount: amount + ' ' + symbol(), fee, to })) return;
      busy(submit, true, 'Sending…');
      try {
        const body = { to, amount };
        if (desc) body.description = desc;
        const r = await api('POST', '/api/send', body);
        dlg.close();
        watchTx(r.hash, 'Sending ' + amount + ' ' + symbol());
        refresh();
      } catch (ex) {
        showError(err, ex.message);
        busy(submit, false);
      }
    });
    dlg = dialog({ id: 'send-dialog', title: 'Send ' + symbol(), body: form });
  }

  function openReceive() {
    const id = me();
    dialog({ id: 'receive-dialog', title: 'Receive ' + symbol(), body: [
      h('p', { class: 'muted', text: 'Share your client ID (wallet address) with the sender.' }),
      h('div', { class: 'field' }, h('label', { for: 'receive-client-id', text: 'Your client ID' }),
        h('textarea', { id: 'receive-client-id', class: 'mono', readonly: true, rows: 2, text: id })),
      h('div', { class: 'actions left' }, copyButton('receive-copy', id, 'Client ID')),
      h('img', { id: 'receive-qr', class: 'qr', src: '/api/qr?text=' + encodeURIComponent(id), alt: 'QR code of your client ID', width: 220, height: 220 })
    ] });
  }

  async function faucet(e) {
    const btn = e.currentTarget;
    busy(btn, true, 'Requesting…');
    try {
      const r = await api('POST', '/api/faucet');
      watchTx(r.hash, 'Receiving ' + (bolt.balance && bolt.balance.faucet_tokens ? bolt.balance.faucet_tokens + ' ' + symbol() : 'tokens') + ' from the faucet');
      refresh();
    } catch (ex) {
      toast(ex.message, 'error');
    } finally {
      busy(btn, false);
    }
  }

  /* -------------------------------------------------------- main page */

  function actionButton(id, iconName, label, fn) {
    return h('button', { type: 'button', class: 'btn action', id, on: { click: fn } }, icon(iconName), h('span', { text: label }));
  }

  routes.bolt = async function boltPage(r) {
    if (r.parts[1] === 'tx' && r.parts[2]) return txPage(decodeURIComponent(r.parts[2]));
    bolt.offset = Math.max(0, parseInt(r.params.get('offset') || '0', 10) || 0);
    bolt.lastSig = '';
    render(h('section', { id: 'bolt' },
      pageHead('Bolt'),
      h('div', { class: 'card balance-card', id: 'balance-card' },
        h('p', { class: 'balance-label', text: 'Available balance' }),
        h('p', { class: 'balance-main' }, h('span', { id: 'balance-tokens', text: '…' }), ' ', h('span', { id: 'balance-symbol', text: symbol() })),
        h('p', { class: 'balance-usd' }, h('span', { class: 'muted', text: 'Total in USD ' }), h('span', { id: 'balance-usd', text: '…' })),
        h('p', { class: 'balance-rate muted small', id: 'balance-rate' }),
        h('div', { class: 'balance-actions' },
          actionButton('send-open', 'send', 'Send', openSend),
          actionButton('receive-open', 'receive', 'Receive', openReceive),
          actionButton('faucet', 'faucet', 'Faucet', faucet))),
      h('div', { class: 'card' },
        h('div', { class: 'card-head' }, h('h2', { text: 'Transactions' }), h('span', { class: 'muted small', id: 'tx-page' })),
        h('ol', { class: 'tx-list', id: 'tx-list', start: String(bolt.offset + 1) }),
        h('p', { class: 'muted', id: 'tx-empty', hidden: true, text: 'No transactions yet. Try the faucet to get some tokens.' }),
        h('div', { class: 'pager' },
          h('button', { type: 'button', class: 'btn', id: 'tx-prev', disabled: true, on: { click: () => page(-1) } }, icon('left'), 'Prev'),
          h('button', { type: 'button', class: 'btn', id: 'tx-next', disabled: true, on: { click: () => page(1) } }, 'Next', icon('right'))))));
    bolt.mounted = true;
    const timer = setInterval(() => { if (document.visibilityState === 'visible') refresh(); }, 5000);
    const onVis = () => { if (document.visibilityState === 'visible') refresh(); };
    document.addEventListener('visibilitychange', onVis);
    onLeave(() => { bolt.mounted = false; clearInterval(timer); document.removeEventListener('visibilitychange', onVis); });
    await refresh();
  };

  function page(dir) {
    bolt.offset = Math.max(0, bolt.offset + dir * PAGE);
    history.replaceState(null, '', '#/bolt' + (bolt.offset ? '?offset=' + bolt.offset : ''));
    bolt.lastSig = '';
    $('#tx-list').setAttribute('start', String(bolt.offset + 1));
    refresh();
  }

  let inFlight = null;
  function refresh() {
    if (inFlight) return inFlight;
    inFlight = Promise.all([
      api('GET', '/api/balance').then(showBalance),
      api('GET', '/api/transactions?limit=' + PAGE + '&offset=' + bolt.offset).then(showTxs)
    ]).catch((e) => { if (e.status !== 401 && bolt.mounted) toast(e.message, 'error'); })
      .finally(() => { inFlight = null; });
    return inFlight;
  }

  function showBalance(b) {
    bolt.balance = b;
    if (!bolt.mounted) return;
    $('#balance-tokens').textContent = b.tokens;
    $('#balance-symbol').textContent = b.symbol || 'MSC';
    $('#balance-usd').textContent = '$' + b.usd;
    $('#balance-rate').textContent = '1 ' + (b.symbol || 'MSC') + ' ≈ $' + b.usd_per_token;
  }

  function isFailed(tx) { return tx.outcome === 'failure' || tx.status === 'expired'; }
  function chip(tx) {
    const label = isFailed(tx) ? (tx.status === 'expired' ? 'expired' : 'failed') : tx.status;
    return h('span', { class: 'chip chip-' + label, text: label });
  }

  // "storage.new_allocation" → "Created allocation": the words a person reads in a wallet's history.
  const ACTIONS = {
    'faucet.pour': 'Faucet', 'storage.new_allocation': 'Created allocation', 'storage.update_allocation': 'Changed allocation',
    'storage.cancel_allocation': 'Cancelled allocation', 'storage.finalize_allocation': 'Closed allocation',
    'storage.lock_read_pool': 'Locked read tokens', 'storage.register_blobber': 'Registered blobber',
    'notes.add': 'Added note', 'notes.create': 'Created notepad', 'notes.edit': 'Edited note', 'notes.delete': 'Deleted note',
    'social.post': 'Posted', 'social.reply': 'Replied', 'social.vote': 'Voted', 'social.payout': 'Payout',
    'social.claim_rewards': 'Social rewards', 'social.set_profile': 'Set profile', 'social.stake': 'Staked for votes', 'social.unstake': 'Unstaked'
  };
  function actionName(desc) {
    if (ACTIONS[desc]) return ACTIONS[desc];
    const m = /^([a-z_]+)\.([a-z_]+)$/.exec(desc || '');
    return m ? m[2].replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()) + ' (' + m[1] + ')' : (desc || 'Contract call');
  }

  function txRow(tx) {
    const mine = me();
    const credit = tx.credited && tx.credited !== 0 && tx.credited !== '0';
    const out = !credit && tx.client_id === mine && tx.to_client_id !== mine;
    const sign = out || (tx.type === 'contract_call' && !credit && tx.client_id === mine) ? '−' : '+';
    const call = tx.type === 'contract_call';
    const kind = call ? actionName(tx.description) : out ? 'Sent' : 'Received';
    // A contract call that moved no value costs its fee: show that, not "−0".
    const feeOnly = call && !credit && (tx.value === 0 || tx.value === '0');
    const amount = credit ? tx.credited_tokens : feeOnly ? tx.fee_tokens : tx.tokens;
    return h('li', { class: 'tx-row' + (isFailed(tx) ? ' tx-failed' : '') + (out ? ' tx-out' : ' tx-in'), data: { hash: tx.hash, status: tx.status, outcome: tx.outcome || '' } },
      h('a', { class: 'tx-link', href: '#/bolt/tx/' + encodeURIComponent(tx.hash) },
        h('span', { class: 'tx-dir', 'aria-hidden': 'true' }, icon(out ? 'send' : 'receive')),
        h('span', { class: 'tx-main' },
          h('span', { class: 'tx-hash mono', text: shortHash(tx.hash, 8), title: tx.hash }),
          h('span', { class: 'tx-meta small muted', text: kind + ' · ' + fmtDate(tx.creation_date) })),
        h('span', { class: 'tx-side' },
          h('span', { class: 'tx-amount', text: sign + amount + ' ' + symbol() + (feeOnly ? ' fee' : '') }),
          chip(tx))));
  }

  function showTxs(r) {
    if (!bolt.mounted) return;
    const txs = r.transactions || [];
    const total = Number(r.total) || 0;
    const sig = JSON.stringify([bolt.offset, total, txs.map((t) => [t.hash, t.status, t.outcome])]);
    if (sig === bolt.lastSig) return;
    bolt.lastSig = sig;
    $('#tx-list').replaceChildren(...txs.map(txRow));
    $('#tx-empty').hidden = txs.length > 0 || bolt.offset > 0;
    $('#tx-page').textContent = total ? (bolt.offset + 1) + '–' + (bolt.offset + txs.length) + ' of ' + total : '';
    $('#tx-prev').disabled = bolt.offset === 0;
    $('#tx-next').disabled = bolt.offset + txs.length >= total;
  }

  /* --------------------------------------------------------- tx detail */

  async function txPage(hash) {
    const ctrl = new AbortController();
    onLeave(() => ctrl.abort());
    let tx = await api('GET', '/api/transactions/' + encodeURIComponent(hash), undefined, { signal: ctrl.signal });
    showTx(tx);
    // keep it live until it reaches a final state
    while (!ctrl.signal.aborted && tx.status !== 'sealed' && tx.status !== 'expired') {
      try {
        tx = await api('GET', '/api/transactions/' + encodeURIComponent(hash) + '/wait?until=sealed&timeout=30', undefined, { signal: ctrl.signal });
      } catch (_) { return; }
      if (!ctrl.signal.aborted) showTx(tx);
    }
  }

  function showTx(tx) {
    const outcome = tx.outcome === null || tx.outcome === undefined ? 'pending' : tx.outcome;
    render(h('section', { id: 'tx-page-view' },
      pageHead('Transaction Details', '#/bolt'),
      h('div', { class: 'card' + (isFailed(tx) ? ' card-failed' : ''), id: 'tx-detail', data: { hash: tx.hash, status: tx.status } },
        h('div', { class: 'card-head' }, h('h2', { text: 'Signature and hashes' }), chip(tx)),
        detailList('tx-hashes', [
          ['Transaction hash', 'hash', tx.hash, { mono: true, copy: true }],
          ['Block hash', 'block_hash', tx.block_hash, { mono: true }],
          ['Round', 'round', tx.round],
          ['Output hash', 'output_hash', tx.output_hash, { mono: true }],
          ['Client ID', 'client_id', tx.client_id, { mono: true, copy: true }],
          ['To client ID', 'to_client_id', tx.to_client_id, { mono: true, copy: true }],
          ['Signature', 'signature', tx.signature, { mono: true }]]),
        h('h2', { text: 'Amount details' }),
        detailList('tx-amounts', [
          ['Status', 'status', tx.status],
          ['Outcome', 'outcome', outcome],
          ['Error', 'error', tx.error ? tx.error.message + ' (' + tx.error.code + ')' : 'none'],
          ['Action', 'action', tx.type === 'contract_call' ? actionName(tx.description) : (tx.client_id === me() ? 'Sent' : 'Received')],
          ['Amount', 'tokens', orDash(tx.tokens) + ' ' + symbol()],
          tx.credited && tx.credited !== 0 && tx.credited !== '0' ? ['Received', 'credited', tx.credited_tokens + ' ' + symbol()] : null,
          ['Value (base units)', 'value', tx.value],
          ['Fee', 'fee_tokens', orDash(tx.fee_tokens) + ' ' + symbol()],
          ['Fee (base units)', 'fee', tx.fee],
          ['Nonce', 'nonce', tx.nonce],
          ['Type', 'type', tx.type],
          ['Description', 'description', tx.description],
          ['Date', 'creation_date', fmtDate(tx.creation_date)]]),
        h('h2', { text: 'Explorer' }),
        tx.explorer_url
          ? h('a', { class: 'btn', id: 'explorer-link', href: tx.explorer_url, target: '_blank', rel: 'noopener noreferrer', text: 'View on explorer' })
          : h('p', { class: 'muted', id: 'explorer-link', text: 'No explorer for this network' })),
      h('p', {}, h('a', { href: '#/bolt', id: 'tx-back', class: 'btn btn-ghost' }, icon('back'), 'Back to Bolt'))));
  }

  M.bolt = { toUnits, validateSend, amountProblem, refresh, watchTx };
})();
