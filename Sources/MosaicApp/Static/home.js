/*
 * Mosaic web app, view — Home (#home): balance and storage summary (#home-summary #home-balance-tokens
 * #home-storage-text), the tiles to every page and app, and the banner
 * (#no-allocation #create-allocation-open) when there is no allocation yet.
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, icon, fmtBytes, spaceBar, routes, render, pageHead, openAllocationDialog } = M;

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
      h('div', { class: 'card summary', id: 'home-summary' },
        h('a', { class: 'summary-item', href: '#/bolt', id: 'home-balance' },
          h('span', { class: 'small muted', text: 'Balance' }), h('strong', { id: 'home-balance-tokens', text: '…' }), h('span', { class: 'small muted', id: 'home-balance-usd' })),
        h('a', { class: 'summary-item', href: '#/vult', id: 'home-storage' },
          h('span', { class: 'small muted', text: 'Storage' }), h('strong', { id: 'home-storage-text', text: '…' }), h('span', { class: 'summary-bar', id: 'home-storage-bar' }))),
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
    api('GET', '/api/balance').then((b) => {
      if (!document.body.contains(wrap)) return;
      $('#home-balance-tokens').textContent = b.tokens + ' ' + (b.symbol || 'MSC');
      $('#home-balance-usd').textContent = '≈ $' + b.usd;
    }).catch(() => { if (document.body.contains(wrap)) $('#home-balance-tokens').textContent = 'unavailable'; });
    try {
      const r = await api('GET', '/api/allocations');
      const live = (r.allocations || []).filter((a) => a.status === undefined || a.status === 'active');
      const used = live.reduce((s, a) => s + (Number(a.used_size) || 0), 0), size = live.reduce((s, a) => s + (Number(a.size) || 0), 0);
      if (document.body.contains(wrap)) {
        $('#home-storage-text').textContent = live.length ? fmtBytes(used) + ' of ' + fmtBytes(size) + ' used' : 'No allocation yet';
        $('#home-storage-bar').replaceChildren(live.length ? spaceBar(used, size, 'home-space') : '');
      }
      if (!(r.allocations || []).length && document.body.contains(wrap)) {
        const openBtn = h('button', { type: 'button', class: 'btn btn-primary', id: 'create-allocation-open' }, icon('plus'), 'Create allocation');
        openBtn.addEventListener('click', () => openAllocationDialog(M.rerouteHere()));
        $('#home-alloc-slot').replaceChildren(h('div', { class: 'card banner', id: 'no-allocation' },
          h('div', {}, h('strong', { text: 'No storage allocation yet' }),
            h('p', { class: 'muted', text: 'Create one to store files with Vult. The form shows what it costs; if your balance is empty, get test tokens with the Faucet in Bolt first.' })),
          openBtn));
      }
    } catch (e) { if (e.status !== 401) toast(e.message, 'error'); }
  };

})();
