/*
 * Mosaic web app — start-up, loaded last: wires the header and hash changes, loads the session and
 * shows the first route. The framework is dom.js, format.js, toast.js, dialog.js, api.js, router.js and
 * widgets.js; each page or app is a view file (onboarding, allocation, home, wallet, network, bolt,
 * vult, notes, locker, social) that adds its routes to M.routes. index.html loads them in that order.
 *
 * Layout hooks: #topbar #brand #topnav #nav-bolt #nav-vult … #who #sign-out #main #view #app-version #toast
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, render, route, loadSession, signOut } = M;

  /* ------------------------------------------------------------ boot */

  async function boot() {
    $('#sign-out').addEventListener('click', signOut);
    window.addEventListener('hashchange', route);
    try {
      await loadSession();
    } catch (e) {
      render(h('div', { class: 'card narrow' }, h('h1', { text: 'Cannot reach Mosaic' }), h('p', { class: 'form-error', id: 'page-error', text: e.message }),
        h('button', { type: 'button', class: 'btn', id: 'retry', text: 'Try again', on: { click: boot } })));
      return;
    }
    route();
  }

  document.addEventListener('DOMContentLoaded', boot);
})();
