/*
 * Mosaic web app, view — storage allocations: the create form (also used by Home, Vult and Locker)
 * and the Allocation Details page.
 * Hooks: form #alloc-form #alloc-name #alloc-data #alloc-parity #alloc-size #alloc-expire #alloc-lock
 *        #alloc-cost #alloc-error #alloc-submit (then the approval, #approve-yes); page #allocation-details #alloc-picker [data-field=…] #alloc-blobbers
 *        #create-allocation-open #open-in-vult
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, dialog, field, errorBox, showError, busy, icon, fmtDate, fmtBytes, shortHash, routes, render, go, pageHead, detailList, spaceBar, blobberList } = M;

  /* ------------------------------------------------------ allocation */

  // The terms' cost from the network (GET /api/allocations/quote): the lock field follows the
  // suggested lock (quote plus a margin) until the user types their own amount.
  async function quoteFor(terms, signal) {
    const q = new URLSearchParams({ size: terms.size, data: String(terms.data), parity: String(terms.parity), expire: terms.expire });
    return api('GET', '/api/allocations/quote?' + q.toString(), undefined, { signal });
  }

  function termsError(t) {
    if (!t.name) return 'Give the allocation a name.';
    // The network's rule (the SDK's AllocationTerms): at least 1 data shard, 64 shards at most in all.
    if (!(t.data >= 1 && t.parity >= 0 && t.data + t.parity <= 64)) return 'Shards must be whole numbers: at least 1 data shard, and 64 data and parity shards at most together.';
    if (!/^\d+(\.\d+)?\s*[KMGT]?i?B?$/i.test(t.size)) return 'The size must look like 1GiB or 500MiB.';
    if (!/^\d+\s*[smhdw]$/i.test(t.expire)) return 'The expiry must look like 30d or 12h.';
    return '';
  }

  function allocationForm(onDone) {
    const err = errorBox('alloc-error');
    const cost = h('p', { class: 'notice', id: 'alloc-cost', role: 'status', text: 'Asking the network what this costs…' });
    const submit = h('button', { type: 'submit', class: 'btn btn-primary', id: 'alloc-submit', text: 'Create allocation' });
    const lockField = field({ id: 'alloc-lock', label: 'Tokens to lock', value: '', inputmode: 'decimal', placeholder: 'the network\u2019s price',
      hint: 'Paid from your wallet into the allocation\u2019s write pool; what is not spent comes back when it ends.' });
    const form = h('form', { id: 'alloc-form', class: 'stack', novalidate: true },
      field({ id: 'alloc-name', label: 'Name', value: 'my-files', autocomplete: 'off', required: true }),
      h('div', { class: 'row2' },
        field({ id: 'alloc-data', label: 'Data shards', type: 'number', min: 1, max: 32, value: '2', inputmode: 'numeric' }),
        field({ id: 'alloc-parity', label: 'Parity shards', type: 'number', min: 0, max: 32, value: '2', inputmode: 'numeric' })),
      h('div', { class: 'row2' },
        field({ id: 'alloc-size', label: 'Size', value: '1GiB', hint: 'e.g. 500MiB, 1GiB' }),
        field({ id: 'alloc-expire', label: 'Expires after', value: '30d', hint: 'e.g. 30d, 12h' })),
      lockField, cost, err, submit);
    const v = (id) => $('#' + id, form).value.trim();
    const terms = () => ({ name: v('alloc-name'), data: parseInt(v('alloc-data'), 10), parity: parseInt(v('alloc-parity'), 10), size: v('alloc-size'), expire: v('alloc-expire') });
    const lockInput = $('#alloc-lock', form);
    let typed = false, last = null, timer = null, ctl = null;
    // Once the user goes to the lock field, the amount is theirs: a late quote no longer overwrites it.
    lockInput.addEventListener('focus', () => { typed = true; });
    async function refreshQuote() {
      const t = terms();
      const bad = termsError(t);
      if (bad) { cost.textContent = bad; last = null; return null; }
      if (ctl) ctl.abort();
      ctl = new AbortController();
      try {
        const q = await quoteFor(t, ctl.signal);
        last = q;
        if (!typed) lockInput.value = q.lock_tokens;
        cost.textContent = 'The network asks ' + q.quote_tokens + ' tokens for these terms; the suggested lock is ' + q.lock_tokens +
          ', plus a fee of ' + q.fee_tokens + '. Your balance: ' + q.balance_tokens + '.' +
          (q.enough ? '' : ' That is not enough: get tokens from the faucet in Bolt, or choose a smaller size or a shorter time.');
        cost.classList.toggle('warn', !q.enough);
        return q;
      } catch (e) {
        if (e && e.name === 'AbortError') return null;
        last = null;
        cost.textContent = e.message;
        return null;
      }
    }
    form.addEventListener('input', (e) => {
      if (e.target === lockInput) return;
      clearTimeout(timer);
      timer = setTimeout(refreshQuote, 350);
    });
    refreshQuote();
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const t = terms();
      const bad = termsError(t);
      if (bad) return showError(err, bad);
      const lock = v('alloc-lock');
      if (lock && !/^\d+(\.\d+)?$/.test(lock)) return showError(err, 'The tokens to lock must be a number such as 0.05 (a dot for decimals, no commas).');
      showError(err, '');
      const q = last || await refreshQuote();
      const ok = await M.approve({
        kind: 'value', action: 'Create allocation ' + t.name + ' (' + t.size + ', ' + t.expire + ', ' + t.data + '+' + t.parity + ' shards)',
        amount: (lock || (q && q.lock_tokens) || '?') + ' tokens locked', fee: q ? q.fee_tokens + ' tokens' : '', to: 'The storage contract'
      });
      if (!ok) return;
      busy(submit, true, 'Creating…');
      const toastHandle = toast('Creating allocation…', 'progress');
      try {
        const body = { name: t.name, data_shards: t.data, parity_shards: t.parity, size: t.size, expire: t.expire };
        if (lock) body.lock = lock;
        const a = await api('POST', '/api/allocations', body);
        toastHandle.update('Allocation ' + (a.name || a.id) + ' created', 'success');
        if (onDone) onDone(a);
      } catch (ex) {
        // The inline error says it; a toast would repeat it.
        toastHandle.close();
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

  /* ------------------------------------------- pages in one allocation */

  // A page that works in one allocation (Vult, Locker): the user's allocations and the one to
  // show, from ?alloc= or else the one Vult last opened. Without any allocation it renders the
  // page's "create one first" card (#<id>-no-allocation) and returns null.
  async function chooseAllocation(r, page) {
    const list = (await api('GET', '/api/allocations')).allocations || [];
    if (!list.length) {
      render(h('section', { id: page.id }, pageHead(page.title, '#/'),
        h('div', { class: 'card', id: page.id + '-no-allocation' },
          h('h2', { text: 'Create an allocation first' }),
          h('p', { class: 'muted', text: page.note }),
          allocationForm(M.rerouteHere()))));
      return null;
    }
    let want = r.params.get('alloc');
    if (!want) { try { want = localStorage.getItem('mosaic.vult.alloc'); } catch (_) { /* ignore */ } }
    return { list, alloc: list.find((a) => a.id === want) || list[0] };
  }

  // The select (#<id>) that switches to another of several allocations; null with only one.
  function allocationPicker(id, list, current, onPick) {
    return list.length > 1 ? field({
      id, tag: 'select', label: 'Allocation',
      options: list.map((a) => h('option', { value: a.id, selected: a.id === current.id, text: (a.name || 'unnamed') + ' · ' + shortHash(a.id, 6) })),
      on: { change: (e) => onPick(e.target.value) }
    }) : null;
  }

  /* ------------------------------------------------------ allocation */

  routes.allocation = async function allocationPage(r) {
    const list = (await api('GET', '/api/allocations')).allocations || [];
    const newBtn = h('button', { type: 'button', class: 'btn', id: 'create-allocation-open' }, icon('plus'), 'New allocation');
    newBtn.addEventListener('click', () => openAllocationDialog((a) => go('#/allocation?id=' + encodeURIComponent(a.id))));
    if (!list.length) {
      return render(h('section', { id: 'allocation-page' }, pageHead('Allocation Details', '#/'),
        h('div', { class: 'card' }, h('p', { id: 'allocation-empty', text: 'You have no allocation yet.' }), allocationForm(M.rerouteHere()))));
    }
    const id = r.params.get('id') || list[0].id;
    const a = list.find((x) => x.id === id) || list[0];
    const picker = allocationPicker('alloc-picker', list, a, (id) => go('#/allocation?id=' + encodeURIComponent(id)));
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
          ['Write pool', 'write_pool', a.tokens_locked + ' tokens'],
          ['Tokens locked', 'tokens_locked', a.tokens_locked]])),
      h('div', { class: 'card' }, h('h2', { text: 'Blobbers (' + (a.blobbers || []).length + ')' }),
        blobberList('alloc-blobbers', a.blobbers)),
      h('p', {}, h('a', { class: 'btn', href: '#/vult?alloc=' + encodeURIComponent(a.id), id: 'open-in-vult' }, icon('vult'), 'Open in Vult'))));
  };

  Object.assign(M, { allocationForm, openAllocationDialog, allocationQuote: quoteFor, chooseAllocation, allocationPicker });
})();
