/*
 * Mosaic web app, view — storage allocations: the create form (also used by Home, Vult and Locker)
 * and the Allocation Details page.
 * Hooks: form #alloc-form #alloc-name #alloc-data #alloc-parity #alloc-size #alloc-expire #alloc-lock
 *        #alloc-error #alloc-submit; page #allocation-details #alloc-picker [data-field=…] #alloc-blobbers
 *        #create-allocation-open #open-in-vult
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, dialog, field, errorBox, showError, busy, icon, fmtDate, fmtBytes, shortHash, routes, render, route, go, pageHead, detailList, spaceBar, blobberList } = M;

  /* ------------------------------------------------------ allocation */

  function allocationForm(onDone) {
    const err = errorBox('alloc-error');
    const submit = h('button', { type: 'submit', class: 'btn btn-primary', id: 'alloc-submit', text: 'Create allocation' });
    const form = h('form', { id: 'alloc-form', class: 'stack', novalidate: true },
      field({ id: 'alloc-name', label: 'Name', value: 'my-files', autocomplete: 'off', required: true }),
      h('div', { class: 'row2' },
        field({ id: 'alloc-data', label: 'Data shards', type: 'number', min: 1, max: 32, value: '2', inputmode: 'numeric' }),
        field({ id: 'alloc-parity', label: 'Parity shards', type: 'number', min: 0, max: 32, value: '2', inputmode: 'numeric' })),
      h('div', { class: 'row2' },
        field({ id: 'alloc-size', label: 'Size', value: '1GiB', hint: 'e.g. 500MiB, 1GiB' }),
        field({ id: 'alloc-expire', label: 'Expires after', value: '30d', hint: 'e.g. 30d, 12h' })),
      field({ id: 'alloc-lock', label: 'Tokens to lock', value: '5', inputmode: 'decimal', hint: 'Paid from your wallet into the allocation\u2019s write pool.' }),
      err, submit);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const v = (id) => $('#' + id, form).value.trim();
      const data = parseInt(v('alloc-data'), 10), parity = parseInt(v('alloc-parity'), 10);
      if (!v('alloc-name')) return showError(err, 'Give the allocation a name');
      if (!(data >= 1) || !(parity >= 0)) return showError(err, 'Shards must be whole numbers (data at least 1)');
      if (!/^\d+(\.\d+)?\s*[KMGT]?i?B?$/i.test(v('alloc-size'))) return showError(err, 'Size must look like 1GiB or 500MiB');
      if (!/^\d+\s*[smhdw]$/i.test(v('alloc-expire'))) return showError(err, 'Expiry must look like 30d or 12h');
      if (!/^\d+(\.\d+)?$/.test(v('alloc-lock'))) return showError(err, 'invalid amount');
      showError(err, '');
      busy(submit, true, 'Creating…');
      const t = toast('Creating allocation…', 'progress');
      try {
        const a = await api('POST', '/api/allocations', {
          name: v('alloc-name'), data_shards: data, parity_shards: parity,
          size: v('alloc-size'), expire: v('alloc-expire'), lock: v('alloc-lock')
        });
        t.update('Allocation ' + (a.name || a.id) + ' created', 'success');
        if (onDone) onDone(a);
      } catch (ex) {
        t.update(ex.message, 'error');
        showError(err, ex.message);
        busy(submit, false);
      }
    });
    return form;
  }
  function openAllocationDialog(onDone) {
    let dlg = null;
    dlg = dialog({ id: 'alloc-dialog', title: 'New allocation', body: allocationForm((a) => { dlg.close(); if (onDone) onDone(a); }) });
  }

  /* ------------------------------------------------------ allocation */

  routes.allocation = async function allocationPage(r) {
    const list = (await api('GET', '/api/allocations')).allocations || [];
    const newBtn = h('button', { type: 'button', class: 'btn', id: 'create-allocation-open' }, icon('plus'), 'New allocation');
    newBtn.addEventListener('click', () => openAllocationDialog((a) => go('#/allocation?id=' + encodeURIComponent(a.id))));
    if (!list.length) {
      return render(h('section', { id: 'allocation-page' }, pageHead('Allocation Details', '#/'),
        h('div', { class: 'card' }, h('p', { id: 'allocation-empty', text: 'You have no allocation yet.' }), allocationForm(() => route()))));
    }
    const id = r.params.get('id') || list[0].id;
    const a = list.find((x) => x.id === id) || list[0];
    const picker = list.length > 1 ? field({
      id: 'alloc-picker', tag: 'select', label: 'Allocation',
      options: list.map((x) => h('option', { value: x.id, selected: x.id === a.id, text: (x.name || 'unnamed') + ' · ' + shortHash(x.id, 6) })),
      on: { change: (e) => go('#/allocation?id=' + encodeURIComponent(e.target.value)) }
    }) : null;
    const used = Number(a.used_size) || 0, size = Number(a.size) || 0;
    render(h('section', { id: 'allocation-page' },
      pageHead('Allocation Details', '#/', newBtn),
      picker,
      h('div', { class: 'card' },
        spaceBar(used, size, 'alloc-space'),
        detailList('allocation-details', [
          ['Allocation ID', 'id', a.id, { mono: true, copy: true }],
          ['Name', 'name', a.name],
          ['Expiration date', 'expiration', fmtDate(a.expiration)],
          ['Size', 'size', fmtBytes(a.size)],
          ['Used size', 'used_size', fmtBytes(a.used_size)],
          ['Data shards', 'data_shards', a.data_shards],
          ['Parity shards', 'parity_shards', a.parity_shards],
          ['Number of writes', 'num_writes', a.num_writes],
          ['Number of reads', 'num_reads', a.num_reads],
          ['Successful challenges', 'successful_challenges', a.successful_challenges],
          ['Failed challenges', 'failed_challenges', a.failed_challenges],
          ['Latest closed challenge', 'latest_closed_challenge', a.latest_closed_challenge ? fmtDate(a.latest_closed_challenge) : 'none yet'],
          ['Write pool', 'write_pool', a.write_pool],
          ['Tokens locked', 'tokens_locked', a.tokens_locked]])),
      h('div', { class: 'card' }, h('h2', { text: 'Blobbers (' + (a.blobbers || []).length + ')' }),
        blobberList('alloc-blobbers', a.blobbers)),
      h('p', {}, h('a', { class: 'btn', href: '#/vult?alloc=' + encodeURIComponent(a.id), id: 'open-in-vult' }, icon('vult'), 'Open in Vult'))));
  };

  Object.assign(M, { allocationForm, openAllocationDialog });
})();
