// The shared-file page (/s/TICKET#key=HEX): the content key stays in the URL fragment, which the
// browser never sends to a server or puts in a Referer; this script hands it to the app in the body
// of a JSON POST and saves the answer as a file.
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

  button.addEventListener('click', async () => {
    error.hidden = true;
    button.disabled = true;
    const label = button.textContent;
    button.textContent = 'Downloading…';
    try {
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
        return fail('Cannot reach the Mosaic app. Is it still running?');
      }
      if (!res.ok) {
        let message = 'Download failed (' + res.status + ')';
        try { const j = await res.json(); if (j && j.error && j.error.message) message = j.error.message; } catch (_) { /* not JSON */ }
        return fail(message);
      }
      const url = URL.createObjectURL(await res.blob());
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
