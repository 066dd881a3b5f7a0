/*
 * Mosaic web app, view — Network Details (#network-details [data-field=name|node|app|chain_id|symbol|
 * block_time_ms|confirmations], #network-blobbers) and switching network (#network-select #network-switch).
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, field, errorBox, showError, busy, routes, render, route, go, pageHead, detailList, blobberList, confirmDialog, loadSession } = M;

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
        ['Confirmations', 'confirmations', n.confirmations],
        ['Signature scheme', 'signature_scheme', n.signature_scheme],
        ['Minimum fee', 'minimum_fee', n.minimum_fee_tokens !== undefined ? n.minimum_fee_tokens + ' ' + (n.symbol || '') : ''],
        ['Faucet pour', 'faucet', n.faucet_tokens && n.faucet_tokens !== '0' ? n.faucet_tokens + ' ' + (n.symbol || '') : 'no faucet'],
        ['Explorer', 'explorer', n.explorer, { node: n.explorer ? h('a', { id: 'network-explorer', href: n.explorer, target: '_blank', rel: 'noopener noreferrer', text: n.explorer }) : null }]])),
      h('div', { class: 'card' }, h('h2', { text: 'Blobbers (' + (n.blobbers || []).length + ')' }), blobberList('network-blobbers', n.blobbers)),
      h('div', { class: 'card' }, h('h2', { text: 'Change network' }),
        nets.length > 1 ? [sel, h('p', { class: 'small muted', text: 'This changes the network of this web app only; the command line keeps its own.' }), h('div', { class: 'actions left' }, btn)]
          : h('p', { class: 'muted', id: 'network-only', text: 'Only one network is configured. Add another below.' })),
      addNetworkCard()));
  };

  function addNetworkCard() {
    const err = errorBox('network-add-error');
    const submit = h('button', { type: 'submit', class: 'btn', id: 'network-add-submit', text: 'Add network' });
    const form = h('form', { id: 'network-add', class: 'stack', novalidate: true },
      field({ id: 'network-add-name', label: 'Name', autocomplete: 'off', placeholder: 'staging' }),
      field({ id: 'network-add-node', label: 'Node URL', autocomplete: 'off', inputmode: 'url', placeholder: 'http://10.0.0.5:7100' }),
      field({ id: 'network-add-app', label: 'Web app URL (optional)', autocomplete: 'off', inputmode: 'url' }),
      err, h('div', { class: 'actions left' }, submit));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const v = (id) => $('#' + id, form).value.trim();
      if (!v('network-add-name')) return showError(err, 'Give the network a name.');
      if (!/^https?:\/\/./.test(v('network-add-node'))) return showError(err, 'The node URL must start with http:// or https://.');
      showError(err, '');
      busy(submit, true, 'Adding…');
      try {
        const body = { name: v('network-add-name'), node: v('network-add-node') };
        if (v('network-add-app')) body.app = v('network-add-app');
        await api('POST', '/api/networks', body);
        toast('Network ' + body.name + ' added; switch to it above', 'success');
        route();
      } catch (ex) {
        showError(err, ex.message);
        busy(submit, false);
      }
    });
    return h('div', { class: 'card' }, h('h2', { text: 'Add a network' }), form);
  }

})();
