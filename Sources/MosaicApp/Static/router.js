/*
 * Mosaic web app, framework — hash routing (#/page?params): the routes table that views fill in,
 * render() into #view, page headings, and clean-ups (onLeave) that run when the route changes. A route
 * shows onboarding when there is no wallet and the unlock screen when the session is locked.
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, $$, icon, closeDialogs } = M;

  /* ---------------------------------------------------------- router */

  function parseHash() {
    const raw = location.hash.replace(/^#/, '') || '/';
    const q = raw.indexOf('?');
    const path = q >= 0 ? raw.slice(0, q) : raw;
    const params = new URLSearchParams(q >= 0 ? raw.slice(q + 1) : '');
    return { path: path.replace(/\/+$/, '') || '/', parts: path.split('/').filter(Boolean), params };
  }
  function go(hash) {
    if (location.hash === hash) route(); else location.hash = hash;
  }
  // Views register cleanups (timers, aborts) that run when the route changes.
  function onLeave(fn) { M.state.leave.push(fn); }
  function leave() {
    const fns = M.state.leave;
    M.state.leave = [];
    for (const fn of fns) { try { fn(); } catch (_) { /* ignore */ } }
  }

  const routes = {};
  function view() { return $('#view'); }
  function render(...nodes) {
    const v = view();
    v.replaceChildren(...nodes.flat());
    return v;
  }
  function pageHead(title, backHref, extra) {
    return h('div', { class: 'page-head' },
      backHref ? h('a', { class: 'btn-icon back', href: backHref, 'aria-label': 'Back' }, icon('back')) : null,
      h('h1', { text: title }), extra || null);
  }

  async function route() {
    leave();
    closeDialogs();
    const s = M.state.session;
    const r = parseHash();
    if (!s) return render(h('p', { class: 'muted', text: 'Loading…' }));
    document.body.dataset.state = s.state;
    const key = r.parts[0] || '';
    // Pages a view marks public (Social's feeds, posts and profiles) read without a wallet.
    const open = M.publicRoutes && M.publicRoutes[key];
    if (!open && s.state === 'no_wallet') return M.renderOnboarding();
    if (!open && s.state !== 'unlocked') return M.renderUnlock();
    // A new wallet's phrase is confirmed before anything else opens.
    if (M.state.phrase) return M.renderMnemonic(M.state.phrase);
    if (M.state.lastKey !== r.path) window.scrollTo(0, 0);
    M.state.lastKey = r.path;
    $$('#topnav a').forEach((a) => { if (a.getAttribute('href') === '#/' + key) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current'); });
    const fn = routes[key] || routes[''];
    try {
      await fn(r);
    } catch (e) {
      if (e && e.name === 'AbortError') return;
      if (e && e.status === 401) return;
      render(pageHead('Something went wrong', '#/'), h('p', { class: 'form-error', id: 'page-error', text: e.message }));
    }
    const main = $('#main');
    if (document.activeElement === document.body && main) main.focus({ preventScroll: true });
  }

  // The re-render for when something started on this page finishes (a sealed transaction takes
  // seconds), so the page the user is on shows it (a new allocation on the allocation page). When
  // the user has gone to another page and is in the middle of something there (a dialog open, a
  // field being typed in), it is skipped: re-rendering would close that dialog (a PIN, a file
  // name) and throw their input away.
  function rerouteHere() {
    const here = location.hash;
    return () => {
      const a = document.activeElement;
      const typing = a && (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA' || a.tagName === 'SELECT' || a.isContentEditable);
      if (location.hash === here || (!$$('dialog[open]').length && !typing)) route();
    };
  }

  Object.assign(M, { routes, route, rerouteHere, go, onLeave, leave, render, pageHead, parseHash });
})();
