/*
 * Mosaic web app, view — Network Details (#network-details [data-field=name|node|app|chain_id|symbol|
 * block_time_ms|confirmations], #network-blobbers) and switching network (#network-select #network-switch).
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, field, busy, routes, render, go, pageHead, detailList, blobberList, confirmDialog, loadSession } = M;

  /* --------------------------------------------------------- network */

  routes.network = async function networkPage() {
    const n = await api('GET', '/api/network');
    const nets = n.networks || [];
    const sel = field({ id: 'network-select', tag: 'select', label: 'Network',
      options: nets.map((x) => h('option', { value: x.name, selected: x.name === n.name, text: x.name + ' — ' + x.node })) });
    const btn = h('button', { type: 'button', class: 'btn btn-primary', id: 'network-switch', text: 'Switch network' });
    btn.addEventListener('click', async () => {
      const target = $('#network-select').value;
      if (target === n.name) return toast('Already on ' + target, 'info');
      const ok = await confirmDialog({ title: 'Switch to ' + target + '?', message: 'Are you sure? You will be signed out and must unlock again on the other network.', yes: 'Yes, switch network', no: 'No' });
      if (!ok) return;
      busy(btn, true, 'Switching…');
      try {
        await api('POST', '/api/network', { name: target });
        M.state.message = 'Switched to ' + target + '. Unlock again to continue.';
        await loadSession();
        go('#/');
      } catch (e) {
        toast(e.message, 'error');
        busy(btn, false);
      }
    });
    render(h('section', { id: 'network-page' },
      pageHead('Network Details', '#/'),
      h('div', { class: 'card' }, detailList('network-details', [
        ['Name', 'name', n.name],
        ['Node URL', 'node', n.node, { mono: true }],
        ['App URL', 'app', n.app, { mono: true }],
        ['Chain ID', 'chain_id', n.chain_id, { mono: true }],
        ['Token symbol', 'symbol', n.symbol],
        ['Block time', 'block_time_ms', n.block_time_ms !== undefined ? n.block_time_ms + ' ms' : ''],
        ['Confirmations', 'confirmations', n.confirmations]])),
      h('div', { class: 'card' }, h('h2', { text: 'Blobbers (' + (n.blobbers || []).length + ')' }), blobberList('network-blobbers', n.blobbers)),
      h('div', { class: 'card' }, h('h2', { text: 'Change network' }),
        nets.length > 1 ? [sel, h('div', { class: 'actions left' }, btn)] : h('p', { class: 'muted', id: 'network-only', text: 'Only one network is configured. Add more with `mosaic network add`.' }))));
  };

})();
