/*
 * Mosaic web app, framework — page pieces several views share: copy buttons, detail lists
 * (dl.details [data-field]), the space-used bar, the list of blobbers, and markdown(): a safe Markdown
 * subset built as DOM nodes (never innerHTML), so raw HTML in a note or post shows as text.
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, icon, toast, fmtBytes, shortHash, orDash } = M;

  async function copyText(text, what) {
    try {
      if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(text);
      else {
        const ta = h('textarea', { class: 'offscreen', readonly: true });
        ta.value = text;
        document.body.appendChild(ta);
        ta.select();
        document.execCommand('copy');
        ta.remove();
      }
      toast((what || 'Text') + ' copied', 'success', 2500);
    } catch (_) {
      toast('Could not copy; select the text and copy it by hand', 'error');
    }
  }
  function copyButton(id, text, what) {
    return h('button', { type: 'button', class: 'btn btn-small', id, on: { click: () => copyText(text, what) } }, icon('copy'), 'Copy');
  }


  /* ---------------------------------------------------- detail lists */

  // detailList(id, [[label, field, value, {mono, copy}]...]) → <dl>
  function detailList(id, rows) {
    return h('dl', { class: 'details', id }, rows.filter(Boolean).map(([label, key, value, o]) => {
      o = o || {};
      return h('div', { class: 'detail-row' },
        h('dt', { text: label }),
        h('dd', { class: o.mono ? 'mono' : '', data: { field: key } }, o.node || orDash(value),
          o.copy ? h('button', { type: 'button', class: 'btn-icon copy-inline', 'aria-label': 'Copy ' + label, on: { click: () => copyText(String(value), label) } }, icon('copy')) : null));
    }));
  }

  function blobberList(id, blobbers) {
    blobbers = blobbers || [];
    if (!blobbers.length) return h('p', { class: 'muted', id, text: 'None' });
    return h('ul', { class: 'blobbers', id }, blobbers.map((b) =>
      h('li', { class: 'blobber', data: { id: b.id } }, h('span', { class: 'mono small', text: shortHash(b.id, 8), title: b.id }), h('span', { class: 'mono', text: b.url }))));
  }

  function spaceBar(used, total, id) {
    const pct = total > 0 ? Math.min(100, (used / total) * 100) : 0;
    const fill = h('div', { class: 'bar-fill' + (pct > 90 ? ' bar-full' : '') });
    fill.style.width = pct.toFixed(1) + '%';
    return h('div', { class: 'space' },
      h('div', { class: 'bar', id, role: 'progressbar', 'aria-label': 'Space used', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': pct.toFixed(0) }, fill),
      h('p', { class: 'small muted', id: id + '-text', text: fmtBytes(used) + ' of ' + fmtBytes(total) + ' used (' + pct.toFixed(pct < 10 ? 1 : 0) + '%)' }));
  }

  /* -------------------------------------------------------- markdown */

  // Inline: `code`, **bold**, *italic* or _italic_, [text](http(s) link). Anything else is text.
  const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;
  function inline(text, links) {
    const out = [];
    let last = 0, m;
    INLINE.lastIndex = 0;
    while ((m = INLINE.exec(text))) {
      if (m.index > last) out.push(text.slice(last, m.index));
      if (m[1] !== undefined) out.push(h('code', { text: m[1] }));
      else if (m[2] !== undefined) out.push(h('strong', { text: m[2] }));
      else if (m[3] !== undefined || m[4] !== undefined) out.push(h('em', { text: m[3] !== undefined ? m[3] : m[4] }));
      else if (links) out.push(h('a', { href: m[6], target: '_blank', rel: 'noopener noreferrer nofollow', text: m[5] }));
      else out.push(m[5]);
      last = m.index + m[0].length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }

  // markdown(text) → a div.md with paragraphs, # headings, - or 1. lists, ``` code blocks, > quotes.
  // markdown(text, {inline: true}) → a span with inline formatting only (for a one-line preview).
  function markdown(text, opts) {
    opts = opts || {};
    const src = String(text || '');
    if (opts.inline) return h('span', { class: 'md md-inline' }, inline(src.replace(/\s*\n\s*/g, ' '), false));
    const root = h('div', { class: 'md' });
    const lines = src.replace(/\r\n?/g, '\n').split('\n');
    let para = [], list = null;
    const flush = () => {
      if (para.length) root.append(h('p', {}, inline(para.join(' '), true)));
      para = [];
      list = null;
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (/^```/.test(line)) {
        flush();
        const code = [];
        while (++i < lines.length && !/^```/.test(lines[i])) code.push(lines[i]);
        root.append(h('pre', {}, h('code', { text: code.join('\n') })));
        continue;
      }
      let m;
      if (!line.trim()) { flush(); continue; }
      if ((m = /^(#{1,3})\s+(.*)$/.exec(line))) { flush(); root.append(h('h' + (m[1].length + 2), {}, inline(m[2], true))); continue; }
      if ((m = /^>\s?(.*)$/.exec(line))) { flush(); root.append(h('blockquote', {}, inline(m[1], true))); continue; }
      const bullet = /^\s*[-*+]\s+(.*)$/.exec(line), num = /^\s*\d+[.)]\s+(.*)$/.exec(line);
      if (bullet || num) {
        if (para.length) { root.append(h('p', {}, inline(para.join(' '), true))); para = []; }
        const tag = bullet ? 'ul' : 'ol';
        if (!list || list.tagName.toLowerCase() !== tag) { list = h(tag); root.append(list); }
        list.append(h('li', {}, inline((bullet || num)[1], true)));
        continue;
      }
      list = null;
      para.push(line.trim());
    }
    flush();
    return root;
  }

  Object.assign(M, { markdown, copyText, copyButton, detailList, spaceBar, blobberList });
})();
