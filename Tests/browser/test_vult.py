"""Vult in a real browser: allocation, upload with progress, list, download, rename, share, delete."""
import hashlib
import os
from urllib.parse import quote

from test_wallet import create_wallet

SHA_JS = """
const done = arguments[arguments.length - 1];
fetch(arguments[0], {credentials: 'same-origin'})
  .then(r => r.arrayBuffer().then(b => crypto.subtle.digest('SHA-256', b).then(d =>
     done([r.status, Array.from(new Uint8Array(d)).map(x => x.toString(16).padStart(2, '0')).join(''), b.byteLength]))))
  .catch(e => done([0, String(e), 0]));
"""


def test_allocation_upload_download_rename_share_delete(devnet, browser, second_browser, tmp_path):
    b = browser
    create_wallet(b, devnet.app)
    b.get(devnet.app + "/#/bolt")
    b.click("#faucet")
    b.wait_text("#balance-tokens", lambda t: t.strip() not in ("", "0", "—") and float(t.replace(",", "")) > 0, timeout=40)

    # Home offers to create an allocation when there is none.
    b.get(devnet.app + "/#/")
    b.click("#create-allocation-open")
    b.type("#alloc-name", "photos")
    b.type("#alloc-size", "64MiB")
    b.type("#alloc-lock", "0.5")
    b.shot("allocation-form")
    b.click("#alloc-submit")
    b.click("#approve-yes")
    b.get(devnet.app + "/#/allocation")
    b.wait_text("#allocation-details [data-field=data_shards]", lambda t: t.strip() == "2", timeout=40)
    assert b.text_of("#allocation-details [data-field=name]").strip() == "photos"
    b.shot("allocation-details")

    # Upload through the file picker; a progress bar per file.
    local = tmp_path / "report.bin"
    data = os.urandom(700_000)
    local.write_bytes(data)
    b.get(devnet.app + "/#/vult")
    b.el("#vult")
    b.driver.find_element("css selector", "#upload-input").send_keys(str(local))
    b.el(".upload-item")
    # Checked now: a finished item leaves the list 15 s after its upload ends.
    assert b.js("return document.querySelector('.upload-item .upload-progress') !== null")
    b.shot("uploading")
    b.el('.file-row[data-path="/report.bin"]', timeout=60)
    b.shot("uploaded")

    # Download: the bytes are equal.
    alloc = devnet_alloc_id(b)
    status, digest, length = b.driver.execute_async_script(SHA_JS, f"/api/files/download?alloc={alloc}&path=/report.bin")
    assert status == 200 and length == len(data)
    assert digest == hashlib.sha256(data).hexdigest()

    # Rename.
    # Found afresh and waited on until usable: the listing re-renders after the upload queue drains.
    b.click('.file-row[data-path="/report.bin"] .file-rename')
    b.click("#move-to")
    b.type("#move-to", "/renamed.bin")
    b.click("#move-submit")
    b.el('.file-row[data-path="/renamed.bin"]', timeout=30)
    b.shot("renamed")

    # Share a public link; it works in a second browser profile with no wallet. The content key is
    # only in the link's fragment (never sent to a server, never in a Referer): the page posts it.
    b.el('.file-row[data-path="/renamed.bin"]').find_element("css selector", ".file-share").click()
    b.click("#share-submit")
    url = b.el("#share-url", timeout=30).get_attribute("value")
    b.shot("share-link")
    path, _, fragment = url.partition("#")
    assert fragment.startswith("key=") and len(fragment) == 4 + 64
    assert fragment[4:] not in path
    s = second_browser
    s.get(url)
    s.el("#shared-file")
    assert "renamed.bin" in s.text_of("#shared-file")
    s.shot("shared-page")
    # The page saves the answer through a blob: URL (which the CSP's connect-src does not let a
    # script fetch back): keep the Blob it makes, to check its bytes.
    s.js("const make = URL.createObjectURL; URL.createObjectURL = (b) => { window.savedBlob = b; return make(b); };")
    s.click("#shared-download")
    s.wait(lambda: s.js("return document.querySelector('#shared-download').dataset.blob || null") is not None, timeout=60)
    length, digest = s.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        window.savedBlob.arrayBuffer().then(b => crypto.subtle.digest('SHA-256', b).then(d =>
          done([b.byteLength, Array.from(new Uint8Array(d)).map(x => x.toString(16).padStart(2, '0')).join('')])));
    """)
    assert length == len(data) and digest == hashlib.sha256(data).hexdigest()
    # Without the fragment the page has no key, and says why instead of downloading.
    s.get(path)
    s.click("#shared-download")
    assert s.text_of("#shared-download-error", timeout=30).strip() != ""
    assert s.js("return document.querySelector('#shared-download').dataset.blob || null") is None
    b.driver.find_element("css selector", "dialog[open] .dialog-close").click()

    # Drag and drop: two files dropped on the zone are uploaded one after the other.
    b.js("""
        const dt = new DataTransfer();
        const bytes = (n, seed) => Uint8Array.from({length: n}, (_, i) => (i * 31 + seed) & 255);
        dt.items.add(new File([bytes(90000, 7)], 'dropped-a.bin', {type: 'application/octet-stream'}));
        dt.items.add(new File([bytes(1234, 9)], 'dropped-b.txt', {type: 'text/plain'}));
        const zone = document.querySelector('#dropzone');
        zone.dispatchEvent(new DragEvent('dragenter', {dataTransfer: dt, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
    """)
    b.el('.file-row[data-path="/dropped-a.bin"]', timeout=60)
    b.el('.file-row[data-path="/dropped-b.txt"]', timeout=60)
    b.shot("dropped")
    expected = bytes((i * 31 + 7) & 255 for i in range(90000))
    status, digest, length = b.driver.execute_async_script(SHA_JS, f"/api/files/download?alloc={alloc}&path=/dropped-a.bin")
    assert status == 200 and length == 90000 and digest == hashlib.sha256(expected).hexdigest()

    # A whole folder through "Upload folder": its tree arrives (nested folders, an empty file, a
    # Unicode name) under one progress item that counts files and bytes.
    tree = {"trip/notes.txt": b"day one\n", "trip/empty.txt": b"", "trip/photos/beach.bin": os.urandom(300_000),
            "trip/photos/2024/été.txt": "soleil ☀".encode()}
    for rel, content in tree.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(content)
    b.driver.find_element("css selector", "#upload-folder-input").send_keys(str(tmp_path / "trip"))
    b.el('.upload-group[data-name="trip"]')
    b.wait(lambda: b.js("return (document.querySelector('.upload-group[data-name=\"trip\"]') || {dataset: {}}).dataset.state") == "done",
           timeout=90)
    shown = b.text_of('.upload-group[data-name="trip"] .upload-status')
    assert shown.startswith("Uploaded · 4 of 4 files"), shown
    b.shot("folder-uploaded")
    b.el('.file-row[data-path="/trip"]', timeout=30)
    for rel, content in tree.items():
        status, digest, length = b.driver.execute_async_script(SHA_JS, f"/api/files/download?alloc={alloc}&path=/" + quote(rel))
        assert (status, length, digest) == (200, len(content), hashlib.sha256(content).hexdigest()), rel
    batches = "return performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/files/batch')).length"
    assert b.js(batches) == 1, "the three small files went up in one batch (one commit), beach.bin alone"

    # A folder of 130 small files: two batches (128 files, then 2), one progress item for all.
    for i in range(130):
        (tmp_path / "many" / f"n{i:03}.txt").parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "many" / f"n{i:03}.txt").write_bytes(f"note {i}\n".encode())
    b.driver.find_element("css selector", "#upload-folder-input").send_keys(str(tmp_path / "many"))
    b.wait(lambda: b.js("return (document.querySelector('.upload-group[data-name=\"many\"]') || {dataset: {}}).dataset.state") == "done",
           timeout=120)
    assert b.text_of('.upload-group[data-name="many"] .upload-status').startswith("Uploaded · 130 of 130 files")
    assert b.js(batches) == 3
    listing = b.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.json()).then(j => done(j.entries.length));
    """, f"/api/files?alloc={alloc}&path=/many")
    assert listing == 130

    # Delete with confirmation.
    b.el('.file-row[data-path="/renamed.bin"]').find_element("css selector", ".file-delete").click()
    b.shot("delete-confirm")
    b.click("#confirm-yes")
    b.wait(lambda: b.js("return document.querySelector('.file-row[data-path=\"/renamed.bin\"]') === null"), timeout=30)
    b.shot("deleted")


def devnet_alloc_id(b):
    return b.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/allocations', {credentials: 'same-origin'}).then(r => r.json()).then(j => done(j.allocations[0].id));
    """)
