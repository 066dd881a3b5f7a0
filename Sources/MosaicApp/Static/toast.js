/*
 * Mosaic web app, framework — toasts: short notices in #toast (.toast .toast-info|success|error|progress)
 * that a view can update in place (progress → success or error).
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, icon } = M;

  /* ---------------------------------------------------------- toasts */

  // toast(message, kind) → {update(msg, kind), close()}; kind: info|success|error|progress
  function toast(message, kind, timeoutMs) {
    kind = kind || 'info';
    const area = $('#toast');
    const text = h('span', { class: 'toast-text' });
    const close = h('button', { type: 'button', class: 'toast-close', 'aria-label': 'Dismiss' }, icon('close'));
    const el = h('div', { class: 'toast', role: kind === 'error' ? 'alert' : 'status' }, h('span', { class: 'toast-dot', 'aria-hidden': 'true' }), text, close);
    let timer = null;
    const handle = {
      update(msg, k, ms) {
        kind = k || kind;
        el.className = 'toast toast-' + kind;
        el.dataset.kind = kind;
        text.textContent = msg;
        clearTimeout(timer);
        const t = ms !== undefined ? ms : kind === 'progress' ? 0 : kind === 'error' ? 8000 : 4000;
        if (t > 0) timer = setTimeout(handle.close, t);
        return handle;
      },
      close() { clearTimeout(timer); el.remove(); }
    };
    close.addEventListener('click', handle.close);
    area.appendChild(el);
    while (area.children.length > 4) area.firstElementChild.remove();
    return handle.update(message, kind, timeoutMs);
  }

  Object.assign(M, { toast });
})();
