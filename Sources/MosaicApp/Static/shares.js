/*
 * Mosaic web app, view — sharing as the owner and as the recipient.
 *  #/shared?t=TICKET  a file shared with the signed-in wallet: name, size, type, expiry, preview,
 *                     download (#shared-in-app [data-field=name|size|mime|expiration|owner]
 *                     #shared-in-app-download #shared-preview #shared-in-app-error)
 *  #/shares           the shares this wallet made here, each with Revoke
 *                     (#shares-list li.share-row[data-ticket][data-revoked] .share-revoke #shares-empty)
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, routes, render, pageHead, detailList, errorBox, showError, busy, fmtBytes, fmtDate, shortHash, confirmDialog, copyButton } = M;

  const PREVIEW_LIMIT = 8 << 20;

  // POSTs with the session's CSRF token and returns the file as a Blob (the API answers JSON errors).
  async function fetchBlob(path, body) {
    const res = await fetch(path, {
      method: 'POST', credentials: 'same-origin', cache: 'no-store',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': M.state.csrf || '', Accept: 'application/octet-stream, application/json' },
      body: JSON.stringify(body)
    });
    if (!res.ok) {
      let message = 'The download failed (' + res.status + ').';
      try { const j = await res.json(); if (j && j.error && j.error.message) message = j.error.message; } catch (_) { /* not JSON */ }
      throw new Error(message);
    }
    return res.blob();
  }

  function saveBlob(blob, name) {
    const url = URL.createObjectURL(blob);
    const a = h('a', { href: url, download: name || 'shared-file' });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  // An image or the start of a text file, from bytes already in the page (never as HTML).
  function preview(blob, mime, box) {
    if (/^image\//.test(mime)) {
      const img = h('img', { class: 'share-preview-img', alt: 'Preview', src: URL.createObjectURL(blob) });
      box.replaceChildren(img);
    } else if (/^text\//.test(mime) || mime === 'application/json') {
      blob.slice(0, 64 << 10).text().then((t) => box.replaceChildren(h('pre', { class: 'share-preview-text', text: t })));
    }
  }

  routes.shared = async function sharedPage(r) {
    const ticket = r.params.get('t') || '';
    const err = errorBox('shared-in-app-error');
    render(h('section', { id: 'shared-in-app-page' }, pageHead('Shared with you', '#/'), h('div', { class: 'card', id: 'shared-in-app' }, h('p', { class: 'muted', text: 'Opening…' }))));
    let info;
    try {
      info = await api('POST', '/api/shared/info', { ticket });
    } catch (e) {
      if (e.status === 401) return;
      return $('#shared-in-app').replaceChildren(h('p', { class: 'form-error', id: 'shared-in-app-error', text: e.message }));
    }
    const dl = h('button', { type: 'button', class: 'btn btn-primary', id: 'shared-in-app-download', text: 'Download' });
    const box = h('div', { class: 'share-preview', id: 'shared-preview' });
    $('#shared-in-app').replaceChildren(
      h('h2', { class: 'wrap', text: info.name }),
      detailList('shared-in-app-details', [
        ['Name', 'name', info.name],
        ['Size', 'size', fmtBytes(info.size)],
        ['Type', 'mime', info.mime || 'unknown'],
        ['Expires', 'expiration', info.expiration ? fmtDate(info.expiration) : 'never'],
        ['Shared by', 'owner', info.owner_id, { mono: true }]]),
      box, err, h('div', { class: 'actions left' }, dl));
    let blob = null;
    const get = async () => { if (!blob) blob = await fetchBlob('/api/shared/download', { ticket }); return blob; };
    if (info.size <= PREVIEW_LIMIT && /^(image|text)\/|^application\/json$/.test(info.mime || '')) {
      get().then((b) => preview(b, info.mime, box)).catch((e) => showError(err, e.message));
    }
    dl.addEventListener('click', async () => {
      busy(dl, true, 'Downloading…');
      try { saveBlob(await get(), info.name); } catch (e) { showError(err, e.message); }
      busy(dl, false);
    });
  };

  routes.shares = async function sharesPage() {
    const r = await api('GET', '/api/shares');
    const list = r.shares || [];
    const row = (s) => {
      const revoke = h('button', { type: 'button', class: 'btn btn-small btn-danger share-revoke', text: 'Revoke', disabled: s.revoked, 'aria-label': 'Revoke the share of ' + s.name });
      revoke.addEventListener('click', async () => {
        const ok = await confirmDialog({ title: 'Revoke this share?', message: 'Whoever has the link to ' + s.name + ' can no longer open it. This cannot be undone.', yes: 'Revoke', danger: true });
        if (!ok) return;
        busy(revoke, true, 'Revoking…');
        try {
          await api('POST', '/api/shares/revoke', { ticket_id: s.ticket_id });
          toast('The share of ' + s.name + ' is revoked', 'success');
          routes.shares();
        } catch (e) { toast(e.message, 'error'); busy(revoke, false); }
      });
      return h('li', { class: 'share-row card', data: { ticket: s.ticket_id, revoked: String(!!s.revoked) } },
        h('div', { class: 'share-main' },
          h('strong', { class: 'share-name', text: s.name, title: s.path }),
          h('span', { class: 'small muted', text: (s.public ? 'Anyone with the link' : 'Only wallet ' + shortHash(s.recipient_id, 6)) +
            ' · shared ' + fmtDate(s.created) + ' · ' + (s.expiration ? 'expires ' + fmtDate(s.expiration) : 'no expiry') + (s.revoked ? ' · revoked' : '') })),
        h('div', { class: 'actions left' }, s.revoked ? null : copyButton('share-copy-' + s.ticket_id.slice(0, 8), s.url, 'Link'), revoke));
    };
    render(h('section', { id: 'shares-page' }, pageHead('Shared files', '#/vult'),
      list.length ? h('ul', { class: 'shares', id: 'shares-list' }, list.map(row))
        : h('p', { class: 'muted', id: 'shares-empty', text: 'You have not shared any file from this app yet. Share one from Vult.' })));
  };
})();
