"""Sharing with two wallets: a file shared with one wallet opens in the web app for that wallet
(signed in), not for another; the public page shows name, size, type, expiry and a preview; the
owner lists and revokes shares."""
import hashlib

from test_wallet import create_wallet

TEXT = "hello from the owner\n" * 50


def upload_text(b, app, tmp_path, name):
    local = tmp_path / name
    local.write_text(TEXT)
    b.get(app + "/#/vult")
    b.el("#vult")
    b.driver.find_element("css selector", "#upload-input").send_keys(str(local))
    b.el(f'.file-row[data-path="/{name}"]', timeout=60)


def test_share_with_one_wallet_public_page_and_revoke(devnet, browser, second_browser, tmp_path):
    b, s = browser, second_browser
    create_wallet(b, devnet.app, one_tap=True)
    # The recipient needs a transaction on the ledger (its public key), so it uses the faucet once.
    create_wallet(s, devnet.app, name="friend")
    s.get(devnet.app + "/#/bolt")
    s.click("#faucet")
    s.wait_text("#balance-tokens", lambda t: t.strip() not in ("", "0", "—") and float(t) > 0, timeout=40)
    s.get(devnet.app + "/#/wallet")
    friend = s.text_of("#wallet-details [data-field=client_id]").strip()

    upload_text(b, devnet.app, tmp_path, "note.txt")
    b.el('.file-row[data-path="/note.txt"]').find_element("css selector", ".file-share").click()
    b.click("#share-client")
    b.type("#share-client-id", friend)
    b.click("#share-submit")
    url = b.el("#share-url", timeout=30).get_attribute("value")
    b.driver.find_element("css selector", "dialog[open] .dialog-close").click()

    # The recipient, signed in, opens the link: the page sends it into the app with its wallet.
    s.get(url)
    s.el("#shared-for-wallet")
    assert friend[:12] in s.text_of("#shared-for-wallet")
    s.click("#shared-open-in-app")
    s.el("#shared-in-app", timeout=30)
    s.wait_text("#shared-in-app-details [data-field=name]", lambda t: t.strip() == "note.txt", timeout=30)
    s.wait_text("#shared-preview", lambda t: "hello from the owner" in t, timeout=60)
    assert "text/plain" in s.text_of("#shared-in-app-details [data-field=mime]")
    s.shot("shared-with-me")
    s.js("const make = URL.createObjectURL; URL.createObjectURL = (b) => { window.savedBlob = b; return make(b); };")
    s.click("#shared-in-app-download")
    s.wait(lambda: s.js("return !!window.savedBlob"), timeout=30)
    length, digest = s.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        window.savedBlob.arrayBuffer().then(b => crypto.subtle.digest('SHA-256', b).then(d =>
          done([b.byteLength, Array.from(new Uint8Array(d)).map(x => x.toString(16).padStart(2, '0')).join('')])));
    """)
    assert length == len(TEXT) and digest == hashlib.sha256(TEXT.encode()).hexdigest()

    # Another wallet (the owner's own session) is told whose the share is, in a sentence.
    b.get(devnet.app + "/#/shared?t=" + url.split("/s/", 1)[1].split("#", 1)[0])
    msg = b.text_of("#shared-in-app-error", timeout=30)
    assert "shared with another wallet" in msg and "mosaic" not in msg.lower().replace("mosaic app", "")

    # A public link: the page shows name, size, type, expiry and a preview, with no wallet.
    b.get(devnet.app + "/#/vult")
    b.el('.file-row[data-path="/note.txt"]').find_element("css selector", ".file-share").click()
    b.click("#share-submit")
    public = b.el("#share-url", timeout=30).get_attribute("value")
    b.driver.find_element("css selector", "dialog[open] .dialog-close").click()
    s.get(public)
    s.el("#shared-file")
    assert "text/plain" in s.text_of("#shared-file [data-field=mime]")
    assert s.text_of("#shared-file [data-field=expiration]").strip() not in ("", "never")
    s.wait_text("#shared-preview", lambda t: "hello from the owner" in t, timeout=60)
    s.shot("public-share-page")

    # The owner lists both shares and revokes the one for the friend; the link stops working.
    b.get(devnet.app + "/#/shares")
    rows = b.driver.find_elements("css selector", "#shares-list li.share-row")
    assert len(rows) == 2
    b.shot("shares")
    ticket = url.split("/s/", 1)[1].split("#", 1)[0]
    b.js("return 1")
    target = [r for r in rows if "Only wallet" in r.text][0]
    target.find_element("css selector", ".share-revoke").click()
    b.click("#confirm-yes")
    b.wait(lambda: b.js("return document.querySelector('li.share-row[data-revoked=true]') !== null"), timeout=40)
    s.get(devnet.app + "/#/shared?t=" + ticket)
    assert s.text_of("#shared-in-app-error", timeout=60).strip() != ""
