/* Mosaic web app, view — Vult: file browser, uploads, sharing, gallery. Needs the framework files.
 *
 * Test hooks:
 *  Vult       #vult #vult-alloc (select, if several) #space-bar #space-text #breadcrumb
 *             #upload-input #upload-button #upload-folder-input #upload-folder-button #mkdir-open
 *             #view-table #view-grid #view-gallery
 *             #dropzone #uploads (.upload-item[data-name][data-state] .upload-progress .upload-status
 *             .upload-cancel, and for a taken name .upload-replace .upload-keep)
 *             a folder: .upload-group[data-name][data-state] .upload-progress .upload-status
 *             .upload-cancel, its failed files as .upload-item inside it
 *             #file-list (.file-row[data-path][data-type]) #files-empty
 *             row actions: .file-open .file-download .file-rename .file-share .file-delete
 *             mkdir dialog: #mkdir-name #mkdir-error #mkdir-submit
 *             move dialog: #move-to #move-error #move-submit
 *             share dialog: #share-public #share-client #share-client-id #share-expire
 *                           #share-error #share-submit #share-url #share-copy
 *             gallery: #gallery (.gallery-item[data-path]) lightbox: #lightbox #lightbox-img
 *                      #lightbox-caption #lightbox-prev #lightbox-next
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, $$, api, toast, dialog, confirmDialog, field, errorBox, showError, busy, copyText, fmtDate, fmtBytes, shortHash, routes, render, pageHead, onLeave, icon, go, spaceBar, chooseAllocation, allocationPicker } = M;

  const vult = { alloc: null, allocs: [], path: '/', entries: [], mode: 'table', mounted: false, queue: [], uploading: false };
  try { vult.mode = localStorage.getItem('mosaic.vult.mode') || 'table'; } catch (_) { /* storage off */ }

  /* ------------------------------------------------------------ paths */

  function normPath(p) {
    const parts = String(p || '/').split('/').filter((x) => x && x !== '.');
    const out = [];
    for (const x of parts) { if (x === '..') out.pop(); else out.push(x); }
    return '/' + out.join('/');
  }
  function join(dir, name) { return normPath(dir + '/' + name); }
  function baseName(p) { const s = normPath(p).split('/'); return s[s.length - 1] || '/'; }
  function q(params) { return new URLSearchParams(params).toString(); }
  function fileUrl(kind, path) { return '/api/files/' + kind + '?' + q({ alloc: vult.alloc.id, path }); }
  function dirHash(path, alloc) { return '#/vult?' + q({ alloc: (alloc || vult.alloc).id, path }); }
  const IMG_EXT = /\.(png|jpe?g|gif|webp|bmp|svg|avif)$/i;
  function isImage(e) { return e.type === 'file' && ((e.mime || '').startsWith('image/') || IMG_EXT.test(e.name)); }

  /* ------------------------------------------------------------- page */

  routes.vult = async function vultPage(r) {
    const chosen = await chooseAllocation(r, { id: 'vult', title: 'Vult',
      note: 'Vult stores your files in an allocation: space reserved on the network\u2019s blobbers, paid with locked tokens.' });
    if (!chosen) return;
    vult.allocs = chosen.list;
    vult.alloc = chosen.alloc;
    try { localStorage.setItem('mosaic.vult.alloc', vult.alloc.id); } catch (_) { /* ignore */ }
    vult.path = normPath(r.params.get('path') || '/');
    vult.mounted = true;
    renderShell();
    installDrop();
    onLeave(() => { vult.mounted = false; });
    await loadDir();
  };

  function renderShell() {
    const picker = allocationPicker('vult-alloc', vult.allocs, vult.alloc, (id) => go(dirHash('/', vult.allocs.find((a) => a.id === id))));
    const input = h('input', { type: 'file', id: 'upload-input', class: 'visually-hidden', multiple: true });
    input.addEventListener('change', () => { enqueue(Array.from(input.files).map((f) => ({ file: f, rel: f.name }))); input.value = ''; });
    const uploadLabel = h('label', { for: 'upload-input', class: 'btn btn-primary', id: 'upload-button', tabindex: '-1' }, icon('upload'), 'Upload');
    // A whole folder with its tree: the browser gives each file its path inside the chosen folder.
    const folderInput = h('input', { type: 'file', id: 'upload-folder-input', class: 'visually-hidden', multiple: true, webkitdirectory: '' });
    folderInput.addEventListener('change', () => {
      const files = Array.from(folderInput.files);
      folderInput.value = '';
      if (!files.length) return toast('That folder has no files to upload', 'error');
      const top = (files[0].webkitRelativePath || files[0].name).split('/')[0];
      enqueue(files.map((f) => ({ file: f, rel: f.webkitRelativePath || f.name })), { name: top, dirs: [] });
    });
    const folderLabel = h('label', { for: 'upload-folder-input', class: 'btn', id: 'upload-folder-button', tabindex: '-1' }, icon('upload'), 'Upload folder');
    const toolbar = h('div', { class: 'toolbar' },
      h('div', { class: 'toolbar-left' }, input, uploadLabel, folderInput, folderLabel,
        h('button', { type: 'button', class: 'btn', id: 'mkdir-open', on: { click: openMkdir } }, icon('plus'), 'New folder')),
      h('div', { class: 'segmented', role: 'group', 'aria-label': 'View' },
        modeButton('table', 'list', 'Table'), modeButton('grid', 'grid', 'Grid'), modeButton('gallery', 'photo', 'Gallery')));
    render(h('section', { id: 'vult' },
      pageHead('Vult', '#/', h('span', { class: 'head-links' },
        h('a', { class: 'btn btn-ghost', href: '#/shares', id: 'shares-open', text: 'Shared' }),
        h('a', { class: 'btn btn-ghost', href: '#/allocation?id=' + encodeURIComponent(vult.alloc.id), text: 'Allocation' }))),
      picker,
      h('div', { id: 'space-slot' }, space()),
      toolbar,
      h('nav', { class: 'breadcrumb', id: 'breadcrumb', 'aria-label': 'Folder' }, crumbs()),
      h('div', { class: 'dropzone', id: 'dropzone' },
        h('ul', { class: 'uploads', id: 'uploads', 'aria-label': 'Uploads' }),
        h('div', { id: 'files' }, h('p', { class: 'muted', text: 'Loading…' })),
        h('p', { class: 'drop-hint small muted', text: 'Drop files or folders here to upload them to ' + vult.path }))));
    // the file inputs are visually hidden; make the labels keyboard-usable through the inputs themselves
    for (const [i, l] of [[input, uploadLabel], [folderInput, folderLabel]]) {
      i.addEventListener('focus', () => l.classList.add('focus'));
      i.addEventListener('blur', () => l.classList.remove('focus'));
    }
  }

  function space() {
    const bar = spaceBar(Number(vult.alloc.used_size) || 0, Number(vult.alloc.size) || 0, 'space-bar');
    const txt = bar.querySelector('#space-bar-text');
    if (txt) txt.id = 'space-text';
    return bar;
  }
  async function refreshAlloc() {
    try {
      vult.alloc = await api('GET', '/api/allocations/' + encodeURIComponent(vult.alloc.id));
      if (vult.mounted) $('#space-slot').replaceChildren(space());
    } catch (_) { /* keep the old numbers */ }
  }

  function crumbs() {
    const parts = vult.path.split('/').filter(Boolean);
    const out = [h('a', { href: dirHash('/'), 'data-path': '/', text: vult.alloc.name || 'Home' })];
    let acc = '';
    parts.forEach((p, i) => {
      acc += '/' + p;
      out.push(h('span', { class: 'sep', 'aria-hidden': 'true', text: '/' }));
      out.push(i === parts.length - 1
        ? h('span', { 'aria-current': 'page', 'data-path': acc, text: p })
        : h('a', { href: dirHash(acc), 'data-path': acc, text: p }));
    });
    return out;
  }

  function modeButton(mode, iconName, label) {
    return h('button', { type: 'button', class: 'btn btn-small seg', id: 'view-' + mode, 'aria-label': label + ' view', 'aria-pressed': String(vult.mode === mode),
      on: { click: () => setMode(mode) } }, icon(iconName), h('span', { text: label }));
  }
  function setMode(mode) {
    vult.mode = mode;
    try { localStorage.setItem('mosaic.vult.mode', mode); } catch (_) { /* ignore */ }
    ['table', 'grid', 'gallery'].forEach((m) => $('#view-' + m).setAttribute('aria-pressed', String(m === mode)));
    showEntries();
  }

  async function loadDir() {
    try {
      const r = await api('GET', '/api/files?' + q({ alloc: vult.alloc.id, path: vult.path }));
      // The Locker's own folder is kept by the Locker page; Vult neither shows nor edits it.
      vult.entries = (r.entries || []).filter((e) => !(e.path === '/locker' && e.type === 'dir')).sort((a, b) =>
        (a.type === b.type ? 0 : a.type === 'dir' ? -1 : 1) || a.name.localeCompare(b.name));
    } catch (e) {
      if (e.status === 401) return;
      vult.entries = [];
      if (vult.mounted) $('#files').replaceChildren(h('p', { class: 'form-error', id: 'files-error', text: e.message }));
      return;
    }
    if (vult.mounted) showEntries();
  }

  /* ---------------------------------------------------------- listing */

  function showEntries() {
    const box = $('#files');
    if (!box) return;
    const es = vult.entries;
    if (!es.length) {
      return box.replaceChildren(h('p', { class: 'empty', id: 'files-empty' }, 'This folder is empty. Upload files with the button above or drop them here.'));
    }
    if (vult.mode === 'gallery') return box.replaceChildren(gallery());
    if (vult.mode === 'grid') return box.replaceChildren(h('div', { class: 'file-grid', id: 'file-list' }, es.map(gridCard)));
    box.replaceChildren(h('div', { class: 'table-wrap' }, h('table', { class: 'file-table', id: 'file-list' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Name' }), h('th', { scope: 'col', class: 'col-size', text: 'Size' }),
        h('th', { scope: 'col', class: 'col-date', text: 'Modified' }), h('th', { scope: 'col', class: 'col-actions' }, h('span', { class: 'visually-hidden', text: 'Actions' })))),
      h('tbody', {}, es.map(tableRow)))));
  }

  function thumb(e, cls) {
    if (isImage(e)) {
      const img = h('img', { class: cls || 'thumb', src: fileUrl('thumbnail', e.path), alt: '', loading: 'lazy', decoding: 'async' });
      img.addEventListener('error', () => img.replaceWith(icon('image', 'file-icon')), { once: true });
      return img;
    }
    return icon(e.type === 'dir' ? 'folder' : 'file', 'file-icon' + (e.type === 'dir' ? ' dir' : ''));
  }

  function nameLink(e) {
    if (e.type === 'dir') return h('a', { class: 'file-open file-name', href: dirHash(e.path), text: e.name });
    if (isImage(e)) return h('button', { type: 'button', class: 'link file-open file-name', text: e.name, on: { click: () => openLightbox(e) } });
    return h('a', { class: 'file-open file-name', href: fileUrl('download', e.path), download: e.name, text: e.name });
  }

  function actions(e) {
    const a = (cls, iconName, label, fn) => h('button', { type: 'button', class: 'btn-icon ' + cls, 'aria-label': label + ' ' + e.name, title: label, on: { click: () => fn(e) } }, icon(iconName));
    return h('div', { class: 'row-actions' },
      e.type === 'file' ? h('a', { class: 'btn-icon file-download', href: fileUrl('download', e.path), download: e.name, 'aria-label': 'Download ' + e.name, title: 'Download' }, icon('download')) : null,
      a('file-rename', 'edit', 'Rename or move', openMove),
      e.type === 'file' ? a('file-share', 'share', 'Share', openShare) : null,
      a('file-delete', 'trash', 'Delete', askDelete));
  }

  // Folder entries carry no time of their own (the SDK signs them with 0 so every blobber holds
  // the same entry): a folder shows the newest date of what it holds, looked up after the listing.
  const dirDates = new Map();
  function dirDate(e) {
    const key = vult.alloc.id + ':' + e.path;
    if (dirDates.has(key)) return dirDates.get(key);
    dirDates.set(key, '…');
    api('GET', '/api/files?' + q({ alloc: vult.alloc.id, path: e.path })).then((r) => {
      const newest = (r.entries || []).reduce((m, x) => Math.max(m, Number(x.modified) || 0), 0);
      dirDates.set(key, newest > 0 ? fmtDate(newest) : '—');
    }).catch(() => dirDates.set(key, '—')).then(() => {
      const row = document.querySelector('.file-row[data-path="' + CSS.escape(e.path) + '"] .col-date');
      if (row) row.textContent = dirDates.get(key);
    });
    return '…';
  }

  function rowData(e) { return { path: e.path, type: e.type, name: e.name }; }

  function tableRow(e) {
    return h('tr', { class: 'file-row', data: rowData(e) },
      h('td', { class: 'col-name' }, h('span', { class: 'name-cell' }, thumb(e), h('span', { class: 'name-text' }, nameLink(e),
        h('span', { class: 'small muted mobile-meta', text: e.type === 'dir' ? 'Folder' : fmtBytes(e.size) + ' · ' + fmtDate(e.modified) })))),
      h('td', { class: 'col-size', text: e.type === 'dir' ? '—' : fmtBytes(e.size) }),
      h('td', { class: 'col-date', text: e.type === 'dir' ? dirDate(e) : fmtDate(e.modified) }),
      h('td', { class: 'col-actions' }, actions(e)));
  }

  function gridCard(e) {
    return h('div', { class: 'file-row file-card', data: rowData(e) },
      h('div', { class: 'card-thumb' }, thumb(e, 'thumb-large')),
      nameLink(e),
      h('span', { class: 'small muted', text: e.type === 'dir' ? 'Folder' : fmtBytes(e.size) }),
      actions(e));
  }

  function gallery() {
    const imgs = vult.entries.filter(isImage);
    if (!imgs.length) return h('p', { class: 'empty', id: 'gallery-empty', text: 'No photos in this folder.' });
    return h('div', { class: 'gallery', id: 'gallery' }, imgs.map((e) =>
      h('button', { type: 'button', class: 'gallery-item', data: { path: e.path }, 'aria-label': 'Open ' + e.name, on: { click: () => openLightbox(e) } },
        h('img', { src: fileUrl('thumbnail', e.path), alt: e.name, loading: 'lazy', decoding: 'async' }))));
  }

  /* --------------------------------------------------------- lightbox */

  function openLightbox(entry) {
    const imgs = vult.entries.filter(isImage);
    let i = Math.max(0, imgs.findIndex((x) => x.path === entry.path));
    const img = h('img', { id: 'lightbox-img', alt: '' });
    const cap = h('p', { id: 'lightbox-caption', class: 'small' });
    const dl = h('a', { class: 'btn btn-small', id: 'lightbox-download' }, icon('download'), 'Download');
    const prev = h('button', { type: 'button', class: 'btn-icon', id: 'lightbox-prev', 'aria-label': 'Previous photo' }, icon('left'));
    const next = h('button', { type: 'button', class: 'btn-icon', id: 'lightbox-next', 'aria-label': 'Next photo' }, icon('right'));
    function show() {
      const e = imgs[i];
      img.src = fileUrl('download', e.path);
      img.alt = e.name;
      cap.textContent = e.name + ' · ' + (i + 1) + ' of ' + imgs.length;
      dl.href = fileUrl('download', e.path);
      dl.setAttribute('download', e.name);
      prev.disabled = imgs.length < 2;
      next.disabled = imgs.length < 2;
    }
    const step = (d) => { i = (i + d + imgs.length) % imgs.length; show(); };
    prev.addEventListener('click', () => step(-1));
    next.addEventListener('click', () => step(1));
    const dlg = dialog({ id: 'lightbox', class: 'lightbox', title: 'Photos', body: [
      h('div', { class: 'lightbox-stage' }, prev, img, next), h('div', { class: 'lightbox-foot' }, cap, dl)] });
    dlg.addEventListener('keydown', (ev) => {
      if (ev.key === 'ArrowLeft') { ev.preventDefault(); step(-1); }
      if (ev.key === 'ArrowRight') { ev.preventDefault(); step(1); }
    });
    show();
    next.focus();
  }

  /* ----------------------------------------------------------- upload */

  function installDrop() {
    const zone = $('#dropzone');
    let depth = 0;
    const has = (ev) => ev.dataTransfer && Array.from(ev.dataTransfer.types || []).includes('Files');
    zone.addEventListener('dragenter', (ev) => { if (!has(ev)) return; ev.preventDefault(); depth++; zone.classList.add('dragging'); });
    zone.addEventListener('dragover', (ev) => { if (!has(ev)) return; ev.preventDefault(); ev.dataTransfer.dropEffect = 'copy'; });
    zone.addEventListener('dragleave', () => { depth = Math.max(0, depth - 1); if (!depth) zone.classList.remove('dragging'); });
    zone.addEventListener('drop', (ev) => {
      ev.preventDefault();
      depth = 0;
      zone.classList.remove('dragging');
      // Entries tell folders from files (a folder arrives as an empty File otherwise); taken
      // now, as the list is gone once this handler returns.
      const entries = Array.from(ev.dataTransfer.items || []).map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
      if (!entries.length) {
        const files = Array.from(ev.dataTransfer.files || []);
        if (files.length) enqueue(files.map((f) => ({ file: f, rel: f.name })));
        return;
      }
      const loose = [];
      for (const e of entries) {
        if (e.isDirectory) {
          readTree(e).then((t) => {
            if (!t.files.length && !t.dirs.length) return toast('The folder ' + e.name + ' is empty', 'error');
            enqueue(t.files, { name: e.name, dirs: t.dirs });
          }).catch(() => toast('The folder ' + e.name + ' could not be read', 'error'));
        } else if (e.isFile) loose.push(new Promise((res) => e.file((f) => res({ file: f, rel: f.name }), () => res(null))));
      }
      Promise.all(loose).then((l) => { const ok = l.filter(Boolean); if (ok.length) enqueue(ok); });
    });
    // do not let a drop outside the zone navigate away from the app
    const block = (ev) => { if (has(ev)) ev.preventDefault(); };
    window.addEventListener('dragover', block);
    window.addEventListener('drop', block);
    onLeave(() => { window.removeEventListener('dragover', block); window.removeEventListener('drop', block); });
  }

  // Every file and folder below a dropped folder: { files: [{ file, rel }], dirs: [rel…] } with
  // paths relative to the folder's parent ("photos/2024/a.jpg"). A reader gives at most 100
  // entries a call, so each folder is read until it gives none.
  function readTree(root) {
    const files = [], dirs = [];
    const walk = (dir) => new Promise((resolve, reject) => {
      const reader = dir.createReader(), children = [];
      const more = () => reader.readEntries((batch) => {
        if (batch.length) { children.push(...batch); return more(); }
        if (!children.some((c) => c.isFile || c.isDirectory)) dirs.push(dir.fullPath.replace(/^\//, ''));
        Promise.all(children.map((c) => c.isDirectory ? walk(c)
          : new Promise((res, rej) => c.file((f) => { files.push({ file: f, rel: c.fullPath.replace(/^\//, '') }); res(); }, rej))))
          .then(resolve, reject);
      }, reject);
      more();
    });
    return walk(root).then(() => ({ files, dirs }));
  }

  // One list item for a dropped or chosen folder: one bar for all its bytes, files done of all,
  // and one Cancel for what is left. Its files stay out of sight unless one fails.
  function folderGroup(g, entries) {
    const total = entries.reduce((n, e) => n + e.file.size, 0);
    const bar = h('progress', { class: 'upload-progress', max: '100', value: '0', 'aria-label': 'Upload of the folder ' + g.name });
    const status = h('span', { class: 'upload-status small muted', text: 'Waiting…' });
    const cancel = h('button', { type: 'button', class: 'btn btn-small upload-cancel', text: 'Cancel', 'aria-label': 'Cancel the upload of the folder ' + g.name });
    const list = h('ul', { class: 'uploads upload-failures', 'aria-label': 'Files of ' + g.name + ' that failed' });
    const item = h('li', { class: 'upload-item upload-group', data: { name: g.name, state: 'queued' } },
      h('span', { class: 'upload-name', text: g.name + '/', title: g.name }), bar, status, cancel, list);
    $('#uploads').appendChild(item);
    const group = { name: g.name, item, bar, status, cancel, list, jobs: [], batches: [], total, loaded: new Map(), done: 0, failed: 0, cancelled: false, ready: false };
    group.update = () => {
      const sent = Array.from(group.loaded.values()).reduce((a, b) => a + b, 0);
      bar.value = total ? Math.round((sent / total) * 100) : Math.round(((group.done + group.failed) / Math.max(1, group.jobs.length)) * 100);
      const left = group.jobs.length - group.done - group.failed;
      let text = group.done + ' of ' + group.jobs.length + ' files · ' + fmtBytes(sent) + ' of ' + fmtBytes(total);
      if (group.failed) text += ' · ' + group.failed + ' failed';
      if (group.ready && !left) {
        const state = group.cancelled ? 'cancelled' : group.failed ? 'failed' : 'done';
        item.dataset.state = state;
        item.classList.toggle('done', state === 'done');
        item.classList.toggle('failed', state !== 'done');
        cancel.hidden = true;
        text = (state === 'done' ? 'Uploaded · ' : state === 'cancelled' ? 'Cancelled · ' : '') + text;
        if (state === 'done') setTimeout(() => item.remove(), 15000);
      } else if (group.done + group.failed || sent) item.dataset.state = 'uploading';
      status.textContent = text;
    };
    cancel.addEventListener('click', () => {
      group.cancelled = true;
      // A batch in flight is aborted whole (its files end as Cancelled); one still queued leaves the queue.
      for (const b of group.batches) {
        if (b.xhr) b.xhr.abort();
        else if (vult.queue.includes(b)) { vult.queue = vult.queue.filter((j) => j !== b); for (const j of b.jobs) finish(j, 'failed', 'Cancelled'); }
      }
      for (const job of group.jobs) {
        if (job.batch) continue;
        if (job.item.dataset.state === 'done' || job.item.dataset.state === 'failed') continue;
        job.cancelled = true;
        if (job.xhr) job.xhr.abort();
        else { vult.queue = vult.queue.filter((j) => j !== job); finish(job, 'failed', 'Cancelled'); }
      }
    });
    return group;
  }

  // Uploads run three at a time; each has its bar, its status and a Cancel. A name that is taken
  // offers Replace or Keep both (the new file gets " (1)" before its extension). `entries` are
  // { file, rel } with rel the path below the current folder; `folder` ({ name, dirs }) groups
  // them under one item, and its empty folders are created first.
  const PARALLEL = 3;
  async function enqueue(entries, folder) {
    const dir = vult.path, alloc = vult.alloc;
    const group = folder ? folderGroup(folder, entries) : null;
    const small = [];
    if (group) {
      group.update();
      for (const d of folder.dirs) {
        try { await api('POST', '/api/files/mkdir', { alloc: alloc.id, path: join(dir, d) }); } catch (_) { /* exists already: fine */ }
      }
    }
    for (const { file: f, rel } of entries) {
      const bar = h('progress', { class: 'upload-progress', max: '100', value: '0', 'aria-label': 'Upload of ' + rel });
      const status = h('span', { class: 'upload-status small muted', text: 'Waiting…' });
      const cancel = h('button', { type: 'button', class: 'btn btn-small upload-cancel', text: 'Cancel', 'aria-label': 'Cancel the upload of ' + rel });
      const choices = h('span', { class: 'upload-choices', hidden: true });
      const item = h('li', { class: 'upload-item', hidden: !!group, data: { name: rel, state: 'queued' } },
        h('span', { class: 'upload-name', text: rel, title: rel }), bar, status, choices, cancel);
      (group ? group.list : $('#uploads')).appendChild(item);
      const job = { file: f, name: rel, dir, alloc, item, bar, status, cancel, choices, replace: false, xhr: null, cancelled: false, group };
      cancel.addEventListener('click', () => {
        job.cancelled = true;
        if (job.xhr) job.xhr.abort();
        else { vult.queue = vult.queue.filter((j) => j !== job); finish(job, 'failed', 'Cancelled'); }
      });
      if (group) group.jobs.push(job);
      if (group && f.size <= BATCH.fileBytes) small.push(job);
      else vult.queue.push(job);
    }
    // A folder's small files go in batches, each one commit for all its files (as `mosaic upload -r`).
    for (let i = 0; i < small.length;) {
      const jobs = [];
      let bytes = 0;
      while (i < small.length && jobs.length < BATCH.files && (!jobs.length || bytes + small[i].file.size <= BATCH.bytes)) {
        bytes += small[i].file.size;
        jobs.push(small[i++]);
      }
      const b = { batch: true, jobs, dir, alloc, group, xhr: null };
      for (const j of jobs) j.batch = b;
      group.batches.push(b);
      vult.queue.push(b);
    }
    if (group) { group.ready = true; group.update(); }
    pump();
  }

  // What the app's /api/files/batch takes (the SDK's batch limits): files up to 256 KiB, 128 or 8 MiB a batch.
  const BATCH = { fileBytes: 256 * 1024, files: 128, bytes: 8 * 1024 * 1024 };

  function pump() {
    vult.active = vult.active || 0;
    while (vult.active < PARALLEL && vult.queue.length) {
      const job = vult.queue.shift();
      vult.active++;
      (job.batch === true ? uploadBatch(job) : uploadOne(job)).then(() => {
        vult.active--;
        if (vult.mounted) refreshAlloc();
        if (!vult.queue.length && vult.active === 0) { vult.uploading = false; if (vult.mounted) loadDir(); }
        pump();
      });
    }
    vult.uploading = vult.active > 0;
  }

  function finish(job, state, text) {
    const was = job.item.dataset.state;
    job.item.dataset.state = state;
    job.item.classList.toggle('failed', state === 'failed');
    job.item.classList.toggle('done', state === 'done');
    job.status.textContent = text;
    job.cancel.hidden = true;
    const g = job.group;
    if (!g) return;
    // A file tried again (Replace, Keep both) leaves the failed count before it counts anew.
    if (was === 'failed') g.failed--;
    if (state === 'done') { g.done++; g.loaded.set(job, job.file.size); job.item.hidden = true; }
    if (state === 'failed') { g.failed++; g.loaded.delete(job); job.item.hidden = g.cancelled; }
    g.update();
  }

  function keepBothName(name, n) {
    const dot = name.lastIndexOf('.');
    return dot > 0 ? name.slice(0, dot) + ' (' + n + ')' + name.slice(dot) : name + ' (' + n + ')';
  }

  function offerChoices(job) {
    const replace = h('button', { type: 'button', class: 'btn btn-small upload-replace', text: 'Replace' });
    const keep = h('button', { type: 'button', class: 'btn btn-small upload-keep', text: 'Keep both' });
    const again = (how) => {
      job.choices.hidden = true;
      job.choices.replaceChildren();
      if (how === 'replace') job.replace = true;
      else {
        // A file of a dropped folder keeps its folder: photos/a.jpg becomes photos/a (1).jpg.
        const folder = job.name.slice(0, job.name.lastIndexOf('/') + 1);
        // Names below the current folder are not listed here: a second Keep both takes the next number.
        const taken = new Set(folder ? [] : vult.entries.map((e) => e.name));
        let n = (job.kept || 0) + 1;
        while (taken.has(keepBothName(job.file.name, n))) n++;
        job.kept = n;
        job.name = folder + keepBothName(job.file.name, n);
      }
      job.batch = null;
      job.cancel.hidden = false;
      job.item.classList.remove('failed');
      job.status.textContent = 'Waiting…';
      vult.queue.push(job);
      pump();
    };
    replace.addEventListener('click', () => again('replace'));
    keep.addEventListener('click', () => again('keep'));
    job.choices.replaceChildren(replace, keep);
    job.choices.hidden = false;
  }

  function uploadOne(job) {
    return new Promise((resolve) => {
      const { file, item, bar, status } = job;
      const path = join(job.dir, job.name);
      const xhr = new XMLHttpRequest();
      job.xhr = xhr;
      const params = { alloc: job.alloc.id, path };
      if (job.replace) params.replace = 'true';
      xhr.open('POST', '/api/files/upload?' + q(params));
      xhr.setRequestHeader('X-CSRF-Token', M.state.csrf || '');
      // The file's own type (text/plain, image/png…) is kept as its metadata: share pages preview by it.
      xhr.setRequestHeader('Content-Type', file.type && /^[\w.+-]+\/[\w.+-]+$/.test(file.type) ? file.type : 'application/octet-stream');
      item.dataset.state = 'uploading';
      status.textContent = '0%';
      xhr.upload.addEventListener('progress', (ev) => {
        if (!ev.lengthComputable) return;
        const pct = Math.round((ev.loaded / ev.total) * 100);
        bar.value = pct;
        status.textContent = pct + '% of ' + fmtBytes(ev.total);
        if (job.group) { job.group.loaded.set(job, Math.min(ev.loaded, file.size)); job.group.update(); }
      });
      xhr.addEventListener('load', () => {
        job.xhr = null;
        if (xhr.status >= 200 && xhr.status < 300) {
          bar.value = 100;
          finish(job, 'done', 'Uploaded · ' + fmtBytes(file.size) + (job.name !== file.name && !job.group ? ' as ' + job.name : ''));
          if (!job.group) setTimeout(() => item.remove(), 15000);
        } else {
          let msg = 'The upload failed (' + xhr.status + ').', code = '';
          try { const j = JSON.parse(xhr.responseText); if (j.error) { msg = j.error.message || msg; code = j.error.code; } } catch (_) { /* not JSON */ }
          if (code === 'exists') {
            finish(job, 'failed', msg);
            offerChoices(job);
          } else {
            fail(msg);
          }
          if (xhr.status === 401 && (code === 'session_expired' || code === 'locked')) M.sessionLost();
        }
        resolve();
      });
      xhr.addEventListener('error', () => { job.xhr = null; fail('The connection to the app was lost during the upload. Try again.'); resolve(); });
      xhr.addEventListener('abort', () => { job.xhr = null; finish(job, 'failed', 'Cancelled'); resolve(); });
      // The item shows the reason; a toast repeats it only when the list is not on screen.
      function fail(msg) {
        finish(job, 'failed', msg);
        if (!vult.mounted) toast(file.name + ': ' + msg, 'error');
      }
      xhr.send(file);
    });
  }

  // One request for a batch of a folder's small files: a 4-byte manifest length, the manifest
  // ({files: [{path, size, modified}]}, paths below the folder) and the files' bytes, which the
  // browser streams from disk. The answer names what was uploaded and what failed, file by file.
  function uploadBatch(b) {
    return new Promise((resolve) => {
      const jobs = b.jobs, g = b.group;
      const manifest = new TextEncoder().encode(JSON.stringify({
        files: jobs.map((j) => ({ path: j.name, size: j.file.size, modified: Math.max(0, Math.floor((j.file.lastModified || Date.now()) / 1000)) }))
      }));
      const head = new Uint8Array(4);
      new DataView(head.buffer).setUint32(0, manifest.length);
      const xhr = new XMLHttpRequest();
      b.xhr = xhr;
      xhr.open('POST', '/api/files/batch?' + q({ alloc: b.alloc.id, path: b.dir }));
      xhr.setRequestHeader('X-CSRF-Token', M.state.csrf || '');
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      for (const j of jobs) { j.item.dataset.state = 'uploading'; j.status.textContent = 'Sending…'; }
      xhr.upload.addEventListener('progress', (ev) => {
        // Bytes past the manifest belong to the files in order.
        let rest = ev.loaded - head.length - manifest.length;
        for (const j of jobs) { g.loaded.set(j, Math.max(0, Math.min(rest, j.file.size))); rest -= j.file.size; }
        g.update();
      });
      const failAll = (msg) => { for (const j of jobs) finish(j, 'failed', msg); if (!vult.mounted) toast(g.name + ': ' + msg, 'error'); };
      xhr.addEventListener('load', () => {
        b.xhr = null;
        let body = null;
        try { body = JSON.parse(xhr.responseText); } catch (_) { /* not JSON */ }
        if (xhr.status >= 200 && xhr.status < 300 && body && Array.isArray(body.failed)) {
          const failed = new Map(body.failed.map((f) => [f.path, f]));
          for (const j of jobs) {
            const f = failed.get(j.name);
            if (!f) { j.bar.value = 100; finish(j, 'done', 'Uploaded · ' + fmtBytes(j.file.size)); continue; }
            finish(j, 'failed', f.message);
            if (f.code === 'exists') offerChoices(j);
          }
        } else {
          const e = body && body.error;
          failAll((e && e.message) || 'The upload failed (' + xhr.status + ').');
          if (xhr.status === 401 && e && (e.code === 'session_expired' || e.code === 'locked')) M.sessionLost();
        }
        resolve();
      });
      xhr.addEventListener('error', () => { b.xhr = null; failAll('The connection to the app was lost during the upload. Try again.'); resolve(); });
      xhr.addEventListener('abort', () => { b.xhr = null; for (const j of jobs) finish(j, 'failed', 'Cancelled'); resolve(); });
      xhr.send(new Blob([head, manifest, ...jobs.map((j) => j.file)]));
    });
  }

  /* ---------------------------------------------------------- dialogs */

  function formDialog(o) {
    const err = errorBox(o.errorId);
    const submit = h('button', { type: 'submit', class: 'btn ' + (o.danger ? 'btn-danger' : 'btn-primary'), id: o.submitId, text: o.submitLabel });
    const form = h('form', { class: 'stack', novalidate: true }, o.fields, err, h('div', { class: 'actions' }, submit));
    let dlg = null;
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      showError(err, '');
      busy(submit, true);
      try {
        const keep = await o.onSubmit(form, (m) => showError(err, m));
        if (keep !== true) dlg.close();
      } catch (ex) {
        showError(err, ex.message);
      }
      busy(submit, false);
    });
    dlg = dialog({ id: o.id, title: o.title, body: form });
    return dlg;
  }

  function openMkdir() {
    formDialog({
      id: 'mkdir-dialog', title: 'New folder', errorId: 'mkdir-error', submitId: 'mkdir-submit', submitLabel: 'Create folder',
      fields: field({ id: 'mkdir-name', label: 'Folder name', autocomplete: 'off', required: true, hint: 'Created in ' + vult.path }),
      onSubmit: async (form, err) => {
        const name = $('#mkdir-name', form).value.trim();
        if (!name || name.includes('/') || name === '.' || name === '..') { err('Enter a folder name without "/"'); return true; }
        await api('POST', '/api/files/mkdir', { alloc: vult.alloc.id, path: join(vult.path, name) });
        toast('Folder ' + name + ' created', 'success');
        loadDir();
      }
    });
  }

  function openMove(e) {
    const dlg = formDialog({
      id: 'move-dialog', title: 'Rename or move', errorId: 'move-error', submitId: 'move-submit', submitLabel: 'Save',
      fields: field({ id: 'move-to', label: 'New path', value: e.path, autocomplete: 'off', required: true, hint: 'Change the name to rename; change the folder to move, e.g. /photos/' + e.name }),
      onSubmit: async (form, err) => {
        let to = $('#move-to', form).value.trim();
        if (!to) { err('Enter the new path'); return true; }
        if (to.endsWith('/')) to += e.name;
        to = to.startsWith('/') ? normPath(to) : join(vult.path, to);
        if (to === e.path) { err('That is the current path'); return true; }
        await api('POST', '/api/files/move', { alloc: vult.alloc.id, from: e.path, to });
        toast(e.name + ' → ' + to, 'success');
        loadDir();
      }
    });
    const input = $('#move-to', dlg);
    const dot = e.type === 'file' ? e.name.lastIndexOf('.') : -1;
    const start = e.path.length - e.name.length;
    input.setSelectionRange(start, dot > 0 ? start + dot : e.path.length);
  }

  async function askDelete(e) {
    const ok = await confirmDialog({ title: 'Delete ' + e.name + '?', message: 'Delete ' + e.path + (e.type === 'dir' ? ' and everything in it' : '') + '? This cannot be undone.', yes: 'Delete', danger: true });
    if (!ok) return;
    try {
      await api('POST', '/api/files/delete', { alloc: vult.alloc.id, path: e.path });
      toast(e.name + ' deleted', 'success');
      loadDir();
      refreshAlloc();
    } catch (ex) {
      toast(ex.message, 'error');
    }
  }

  function openShare(e) {
    const pub = h('input', { type: 'radio', name: 'share-kind', id: 'share-public', value: 'public', checked: true });
    const cli = h('input', { type: 'radio', name: 'share-kind', id: 'share-client', value: 'client' });
    const who = field({ id: 'share-client-id', label: 'Recipient client ID', autocomplete: 'off', spellcheck: 'false', placeholder: '64 hex characters' });
    who.hidden = true;
    const sync = () => { who.hidden = !cli.checked; };
    pub.addEventListener('change', sync);
    cli.addEventListener('change', sync);
    const out = h('div', { id: 'share-result' });
    const dlg = formDialog({
      id: 'share-dialog', title: 'Share ' + e.name, errorId: 'share-error', submitId: 'share-submit', submitLabel: 'Create link',
      fields: [
        h('fieldset', { class: 'radios' }, h('legend', { text: 'Who can open the link' }),
          h('div', { class: 'checkline' }, pub, h('label', { for: 'share-public', text: 'Anyone with the link' })),
          h('div', { class: 'checkline' }, cli, h('label', { for: 'share-client', text: 'Only one wallet' }))),
        who,
        field({ id: 'share-expire', tag: 'select', label: 'Link expires after', options: [
          h('option', { value: '1h', text: '1 hour' }), h('option', { value: '1d', text: '1 day' }),
          h('option', { value: '7d', text: '7 days', selected: true }), h('option', { value: '30d', text: '30 days' })] }),
        out],
      onSubmit: async (form, err) => {
        let to = null;
        if (cli.checked) {
          to = $('#share-client-id', form).value.trim();
          if (!/^[0-9a-f]{64}$/.test(to)) { err('That is an invalid address: a client ID is 64 characters, 0-9 and a-f.'); return true; }
        }
        const r = await api('POST', '/api/files/share', { alloc: vult.alloc.id, path: e.path, to_client_id: to, expire: $('#share-expire', form).value });
        const url = new URL(r.url, location.href).href;
        const input = h('input', { id: 'share-url', class: 'mono', readonly: true, value: url });
        out.replaceChildren(h('div', { class: 'field' }, h('label', { for: 'share-url', text: 'Share link' }), input),
          h('div', { class: 'actions left' },
            h('button', { type: 'button', class: 'btn btn-primary', id: 'share-copy', on: { click: () => copyText(url, 'Link') } }, icon('copy'), 'Copy link'),
            h('a', { class: 'btn', href: url, target: '_blank', rel: 'noopener', id: 'share-open', text: 'Open' })));
        input.select();
        $('#share-submit', form).hidden = true;
        return true;
      }
    });
    return dlg;
  }

  M.vult = { normPath, join, baseName };
})();
