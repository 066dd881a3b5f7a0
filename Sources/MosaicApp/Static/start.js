/*
 * Mosaic web app, view — the one-tap start (#/start) after a new wallet, on a network with a faucet:
 * wallet created → test tokens from the faucet → the default allocation (1 GiB, 30 days, 2+2 shards,
 * the network's price plus a margin). Each step shows its progress; a failure says which step failed
 * and what to do, and "Try again" resumes from that step.
 * Hooks: #first-run #start-go #start-skip #start-done #start-error
 *        li.step[data-step=wallet|faucet|allocation][data-state=todo|running|done|failed] .step-note
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, routes, render, go, pageHead, errorBox, showError, busy, allocationQuote } = M;

  const TERMS = { name: 'my-files', data: 2, parity: 2, size: '1GiB', expire: '30d' };

  function step(id, title) {
    return h('li', { class: 'step', data: { step: id, state: 'todo' } },
      h('span', { class: 'step-dot', 'aria-hidden': 'true' }),
      h('span', { class: 'step-body' }, h('strong', { text: title }), h('span', { class: 'step-note small muted' })));
  }
  function mark(id, state, note) {
    const li = $('li.step[data-step="' + id + '"]');
    if (!li) return;
    li.dataset.state = state;
    if (note !== undefined) $('.step-note', li).textContent = note;
  }

  // Waits until a transaction seals; returns it, or throws with the chain's reason.
  async function sealed(hash) {
    for (let i = 0; i < 6; i++) {
      const tx = await api('GET', '/api/transactions/' + encodeURIComponent(hash) + '/wait?until=sealed&timeout=30');
      if (tx.outcome === 'failure' || tx.status === 'expired') throw new Error((tx.error && tx.error.message) || 'the transaction ' + tx.status);
      if (tx.status === 'sealed') return tx;
    }
    throw new Error('the network has not confirmed it yet');
  }

  routes.start = async function startPage() {
    const [net, bal] = await Promise.all([api('GET', '/api/network'), api('GET', '/api/balance')]);
    const sym = bal.symbol || net.symbol || 'MSC';
    const err = errorBox('start-error');
    const go1 = h('button', { type: 'button', class: 'btn btn-primary btn-block', id: 'start-go', text: 'Start' });
    const skip = h('a', { href: '#/', id: 'start-skip', class: 'link', text: 'Skip for now' });
    const list = h('ol', { class: 'steps', id: 'start-steps' },
      step('wallet', 'Wallet created'),
      step('faucet', 'Receive ' + (net.faucet_tokens || '') + ' test ' + sym + ' from the faucet'),
      step('allocation', 'Create storage: ' + TERMS.size.replace('GiB', ' GiB') + ' for 30 days, on ' + (TERMS.data + TERMS.parity) + ' blobbers'));
    render(h('section', { class: 'card narrow', id: 'first-run' },
      h('h1', { text: 'Get started' }),
      h('p', { text: 'This is a test network: its faucet gives tokens for free. One tap gets you tokens and a place for your files.' }),
      list, h('p', { class: 'small muted', id: 'start-cost', text: 'Asking the network what the storage costs…' }),
      err, go1, h('p', { class: 'center' }, skip)));
    mark('wallet', 'done', (M.state.session.wallet && M.state.session.wallet.name) || '');
    allocationQuote(TERMS).then((q) => {
      const c = $('#start-cost');
      if (c) c.textContent = 'The storage locks ' + q.lock_tokens + ' ' + sym + ' (the network\u2019s price ' + q.quote_tokens + ' plus a margin; what is not spent comes back) and each step costs a fee of ' + q.fee_tokens + ' ' + sym + '.';
    }).catch((e) => { const c = $('#start-cost'); if (c) c.textContent = e.message; });

    let done = { faucet: false, allocation: false };
    go1.addEventListener('click', async () => {
      showError(err, '');
      busy(go1, true, 'Working…');
      skip.hidden = true;
      let current = 'faucet';
      try {
        if (!done.faucet) {
          mark('faucet', 'running', 'Asking the faucet…');
          try {
            const r = await api('POST', '/api/faucet');
            mark('faucet', 'running', 'Waiting for the network to confirm…');
            const tx = await sealed(r.hash);
            mark('faucet', 'done', 'Received ' + (tx.credited_tokens || net.faucet_tokens) + ' ' + sym);
          } catch (e) {
            // The faucet gives once per window; a wallet that already has tokens goes on.
            const b = await api('GET', '/api/balance').catch(() => null);
            if (!(e.code === 'faucet_limited' && b && Number(b.balance) > 0)) throw e;
            mark('faucet', 'done', 'The faucet already gave this wallet tokens; using your balance of ' + b.tokens + ' ' + sym);
          }
          done.faucet = true;
        }
        current = 'allocation';
        if (!done.allocation) {
          mark('allocation', 'running', 'Creating the allocation and waiting until it is sealed…');
          const a = await api('POST', '/api/allocations', { name: TERMS.name, data_shards: TERMS.data, parity_shards: TERMS.parity, size: TERMS.size, expire: TERMS.expire });
          mark('allocation', 'done', (a.name || 'my-files') + ' · ' + a.tokens_locked + ' ' + sym + ' locked');
          done.allocation = true;
        }
        go1.remove();
        $('#first-run').append(h('div', { class: 'actions', id: 'start-done' },
          h('a', { class: 'btn', href: '#/', text: 'Home' }), h('a', { class: 'btn btn-primary', href: '#/vult', id: 'start-open-vult', text: 'Open Vult' })));
      } catch (e) {
        const what = current === 'faucet' ? 'Getting test tokens failed' : 'Creating the storage failed';
        const todo = current === 'faucet'
          ? 'Try again in a moment; if the faucet keeps refusing, skip and use the Faucet button in Bolt later.'
          : 'Try again; if it keeps failing, skip and create an allocation from Home, where you can choose a smaller size.';
        mark(current, 'failed', e.message);
        showError(err, what + ': ' + e.message + ' ' + todo);
        busy(go1, false);
        go1.textContent = 'Try again';
        skip.hidden = false;
      }
    });
  };
})();
