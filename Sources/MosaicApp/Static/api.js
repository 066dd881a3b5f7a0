/*
 * Mosaic web app, framework — requests to the app's JSON API (api(), ApiError with the server's code),
 * the CSRF token, and the session: loading it, noticing when it is lost, and the header that shows it
 * (#who #sign-out #topnav #app-version).
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { $, shortHash } = M;

  /* -------------------------------------------------------------- API */

  class ApiError extends Error {
    constructor(status, code, message) {
      super(message || 'Request failed (' + status + ')');
      this.status = status;
      this.code = code || 'http_' + status;
    }
  }

  async function parseError(res) {
    let code = '', message = '';
    try {
      const data = await res.json();
      if (data && data.error) { code = data.error.code; message = data.error.message; }
    } catch (_) { /* not JSON */ }
    return new ApiError(res.status, code, message || res.statusText || 'Request failed (' + res.status + ')');
  }

  // api('GET', '/api/balance') → parsed JSON (null for 204). Throws ApiError.
  async function api(method, path, body, opts) {
    opts = opts || {};
    const headers = { Accept: 'application/json' };
    if (method !== 'GET' && method !== 'HEAD') headers['X-CSRF-Token'] = M.state.csrf || '';
    let payload;
    if (body !== undefined) { headers['Content-Type'] = 'application/json'; payload = JSON.stringify(body); }
    let res;
    try {
      res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal: opts.signal, cache: 'no-store' });
    } catch (e) {
      if (e && e.name === 'AbortError') throw e;
      throw new ApiError(0, 'network', 'Cannot reach the Mosaic app. Is it still running?');
    }
    if (!res.ok) {
      const err = await parseError(res);
      // A stale token, or a session the app forgot after long idleness: start afresh once.
      const stale = (res.status === 403 && (err.code === 'csrf_invalid' || err.code === 'csrf_missing')) ||
        (res.status === 401 && err.code === 'no_session');
      if (stale && !opts.retried) {
        await loadSession().catch(() => {});
        return api(method, path, body, Object.assign({}, opts, { retried: true }));
      }
      if (res.status === 401 && (err.code === 'session_expired' || err.code === 'locked') && !opts.noRedirect) {
        sessionLost();
      }
      throw err;
    }
    if (res.status === 204) return null;
    const ct = res.headers.get('content-type') || '';
    if (ct.includes('json')) return res.json();
    return res.text();
  }

  function sessionLost() {
    if (!M.state.session || M.state.session.state !== 'unlocked') return;
    M.state.session.state = 'locked';
    M.state.message = 'Your session expired; unlock again';
    loadSession().catch(() => {}).then(() => M.route());
  }

  async function loadSession() {
    const s = await api('GET', '/api/session', undefined, { noRedirect: true });
    M.state.session = s;
    M.state.csrf = s.csrf || '';
    const v = $('#app-version');
    if (v) v.textContent = s.version ? 'version ' + s.version : '';
    updateHeader();
    return s;
  }

  function updateHeader() {
    const s = M.state.session;
    const on = !!(s && s.state === 'unlocked');
    $('#sign-out').hidden = !on;
    $('#topnav').hidden = !on;
    const who = $('#who');
    who.hidden = !on;
    who.textContent = on && s.wallet ? s.wallet.name || shortHash(s.wallet.client_id, 6) : '';
  }

  Object.assign(M, { api, ApiError, loadSession, sessionLost });
})();
