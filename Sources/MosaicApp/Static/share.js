// The shared-file page (/s/TICKET#key=HEX): the content key stays in the URL fragment, which the
// browser never sends to a server or puts in a Referer; this script hands it to the app in the body
// of a JSON POST and saves the answer as a file. Images and text files (up to 8 MiB) are fetched at
// once for a preview (an <img> from a blob: URL, or the text as text, never as HTML).
(function () {
  'use strict';
  const card = document.getElementById('shared-file');
  const button = document.getElementById('shared-download');
  if (!card || !button) return;
  const error = document.getElementById('shared-download-error');

  function keyFromFragment() {
    for (const part of location.hash.replace(/^#/, '').split('&')) {
      if (part.startsWith('key=')) return decodeURIComponent(part.slice(4));
    }
    return null;
  }

  function fail(message) {
    error.textContent = message;
    error.hidden = false;
  }

  async function fetchFile() {
    const body = {};
    const key = keyFromFragment();
    if (key) body.key = key;
    let res;
    try {
      res = await fetch(location.pathname.replace(/\/+$/, '') + '/download', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/octet-stream, application/json' },
        body: JSON.stringify(body), credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer',
      });
    } catch (_) {
      throw new Error('Cannot reach the Mosaic app. Is it still running?');
    }
    if (!res.ok) {
      let message = 'Download failed (' + res.status + ')';
      try { const j = await res.json(); if (j && j.error && j.error.message) message = j.error.message; } catch (_) { /* not JSON */ }
      throw new Error(message);
    }
    return res.blob();
  }

  let fetched = null;
  const mime = card.dataset.mime || '';
  const previewBox = document.getElementById('shared-preview');
  if (previewBox && keyFromFragment() && Number(card.dataset.size) <= (8 << 20) && /^(image|text)\/|^application\/json$/.test(mime)) {
    fetched = fetchFile();
    fetched.then(async (blob) => {
      if (/^image\//.test(mime)) {
        const img = document.createElement('img');
        img.className = 'share-preview-img';
        img.alt = 'Preview';
        img.src = URL.createObjectURL(blob);
        previewBox.replaceChildren(img);
      } else {
        const pre = document.createElement('pre');
        pre.className = 'share-preview-text';
        pre.textContent = await blob.slice(0, 64 << 10).text();
        previewBox.replaceChildren(pre);
      }
    }).catch(() => { fetched = null; });
  }

  button.addEventListener('click', async () => {
    error.hidden = true;
    button.disabled = true;
    const label = button.textContent;
    button.textContent = 'Downloading…';
    try {
      let blob;
      try {
        blob = await (fetched || fetchFile());
      } catch (e) {
        fetched = null;
        return fail(e.message);
      }
      const url = URL.createObjectURL(blob);
      button.dataset.blob = url;
      const a = document.createElement('a');
      a.href = url;
      a.download = card.dataset.name || 'shared-file';
      document.body.appendChild(a);
      a.click();
      a.remove();
    } finally {
      button.disabled = false;
      button.textContent = label;
    }
  });
})();
