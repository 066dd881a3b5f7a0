/*
 * Mosaic consent page (/authorize): unlock when needed, then Approve or Deny. The server
 * renders the page and checks the request; this script only sends the CSRF-protected POSTs and
 * follows the redirect they answer. Test hooks: #consent #consent-approve #consent-deny
 * #consent-error #consent-status #consent-unlock-form #consent-passphrase #consent-unlock
 * #consent-refused #consent-refused-message.
 */
(function () {
  'use strict';

  async function post(path, body, csrf) {
    let res;
    try {
      res = await fetch(path, {
        method: 'POST', credentials: 'same-origin', cache: 'no-store',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': csrf },
        body: JSON.stringify(body)
      });
    } catch (_) {
      throw new Error('Cannot reach the Mosaic app. Is it still running?');
    }
    let data = null;
    try { data = await res.json(); } catch (_) { /* empty */ }
    if (!res.ok) {
      const e = new Error((data && data.error && data.error.message) || 'Request failed (' + res.status + ')');
      e.status = res.status;
      throw e;
    }
    return data;
  }

  function show(el, text) {
    if (!el) return;
    el.textContent = text || '';
    el.hidden = !text;
  }

  function request(root) {
    const d = root.dataset;
    return { app: d.app, scopes: d.scopes, redirect: d.redirect, expires: d.expires, state: d.state };
  }

  function boot() {
    const root = document.getElementById('consent');
    if (!root) return;
    const csrf = root.dataset.csrf || '';
    const err = document.getElementById('consent-error');
    const status = document.getElementById('consent-status');

    const deny = document.getElementById('consent-deny');
    const unlock = document.getElementById('consent-unlock-form');
    if (unlock) {
      if (deny) deny.addEventListener('click', async () => {
        deny.disabled = true;
        try {
          const r = await post('/api/authorize/deny', request(root), csrf);
          location.assign(r.redirect);
        } catch (ex) {
          show(err, ex.message);
          deny.disabled = false;
        }
      });
      const pass = document.getElementById('consent-passphrase');
      const btn = document.getElementById('consent-unlock');
      pass.focus();
      unlock.addEventListener('submit', async (e) => {
        e.preventDefault();
        if (!pass.value) return show(err, 'Enter your passphrase');
        show(err, '');
        btn.disabled = true;
        btn.textContent = 'Unlocking…';
        try {
          const sel = document.getElementById('consent-wallet-select');
          const body = { passphrase: pass.value };
          if (sel) body.name = sel.value;
          await post('/api/unlock', body, csrf);
          location.reload();
        } catch (ex) {
          show(err, ex.message);
          btn.disabled = false;
          btn.textContent = 'Unlock';
        }
      });
      return;
    }

    const approve = document.getElementById('consent-approve');
    if (!approve || !deny) return;

    async function answer(which) {
      show(err, '');
      approve.disabled = true;
      deny.disabled = true;
      const label = which === 'approve' ? approve : deny;
      label.setAttribute('aria-busy', 'true');
      label.textContent = which === 'approve' ? 'Approving…' : 'Denying…';
      if (which === 'approve') show(status, 'Recording the grant on the ledger; waiting for the block to seal…');
      try {
        const r = await post('/api/authorize/' + which, request(root), csrf);
        show(status, 'Returning to ' + root.dataset.app + '…');
        location.assign(r.redirect);
      } catch (ex) {
        // Locked meanwhile (idle timeout): the page reloads into its unlock form.
        if (ex.status === 401) return location.reload();
        show(status, '');
        show(err, ex.message);
        approve.disabled = false;
        deny.disabled = false;
        label.removeAttribute('aria-busy');
        approve.textContent = 'Approve';
        deny.textContent = 'Deny';
      }
    }
    approve.addEventListener('click', () => answer('approve'));
    deny.addEventListener('click', () => answer('deny'));
  }

  document.addEventListener('DOMContentLoaded', boot);
})();
