/*
 * Mosaic web app, view — Home (#home): the tiles to every page and app, and the banner
 * (#no-allocation #create-allocation-open) when there is no allocation yet.
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, icon, routes, render, route, pageHead, openAllocationDialog } = M;

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

})();
