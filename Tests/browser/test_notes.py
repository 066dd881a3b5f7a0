"""Notes in a real browser against a real devnet: compose, private notes, delete, the menu, the
sealing overlay and the chain's error in an alert."""
import json
import urllib.request

from test_wallet import create_wallet


def fund(b):
    b.get(b.driver.current_url.split("#")[0] + "#/bolt")
    b.el("#bolt")
    b.click("#faucet")
    b.wait_text("#balance-tokens", lambda t: t.strip() not in ("", "0", "0.0", "—") and float(t.replace(",", "")) > 0, timeout=40)


def rows(b):
    return b.js("return Array.from(document.querySelectorAll('#note-list .note-row')).map(r => "
                "({id: r.dataset.id, private: r.dataset.private, title: r.querySelector('.note-title').textContent,"
                " body: r.querySelector('.note-body').textContent}))")


def compose(b, title, body, private=False, shot=None):
    b.click("#note-add-open")
    b.el("#note-sheet")
    save = b.el("#note-save")
    assert not save.is_enabled(), "Save starts disabled"
    b.type("#note-title", title)
    assert not save.is_enabled(), "Save stays disabled without a body"
    b.type("#note-body", body)
    assert save.is_enabled()
    if private:
        b.click("#note-private")
    if shot:
        b.shot(shot)
    save.click()
    approve_notes(b)


def approve_notes(b):
    """The first note write asks for the wallet's approval; this test turns it off for notes."""
    if b.js("return !!document.querySelector('#approve-dialog')") or b.js(
            "return localStorage.getItem('mosaic.approve.skip') === null"):
        b.el("#approve-dialog")
        b.click("#approve-skip")
        b.click("#approve-yes")


def test_notes_page(devnet, browser):
    b = browser
    create_wallet(b, devnet.app)
    fund(b)
    b.get(devnet.app + "/#/")
    b.click("#tile-notes")
    b.el("#notes")
    assert b.el("#nav-notes").get_attribute("aria-current") == "page"
    b.wait_text("#notes-empty", lambda t: "no notepad yet" in t)
    b.shot("notes-empty")

    # Title filled but no body: Save stays disabled; an over-long title says why.
    b.click("#note-add-open")
    b.type("#note-title", "x" * 257)
    b.type("#note-body", "body")
    assert not b.el("#note-save").is_enabled()
    assert "257 bytes" in b.text_of("#note-error")
    b.shot("note-sheet-too-long")
    b.click("#note-sheet .dialog-close")

    compose(b, "Groceries", "milk, eggs, bread", shot="note-sheet")
    # The overlay covers the page until the transaction is sealed.
    b.el("#notes-overlay", timeout=5)
    b.shot("sealing-overlay")
    b.wait(lambda: len(rows(b)) == 1, timeout=40)
    assert not b.js("return !!document.querySelector('#notes-overlay')")
    assert rows(b)[0]["title"] == "Groceries"
    assert "Notepad #1" in b.text_of("#notes-count")

    compose(b, "Diary", "the key is under the mat", private=True)
    b.wait(lambda: len(rows(b)) == 2, timeout=40)
    shown = rows(b)
    secret = [r for r in shown if r["private"] == "true"][0]
    assert secret["title"] == "Diary" and secret["body"] == "the key is under the mat", "the owner reads it in clear"
    b.shot("notes-list")

    # A note opens in the sheet for editing; Save replaces it.
    b.driver.find_element("css selector", '.note-row[data-private="false"] .note-main').click()
    assert b.el("#note-title").get_attribute("value") == "Groceries"
    b.type("#note-body", "milk, eggs, bread, butter")
    b.shot("note-edit")
    b.click("#note-save")
    b.wait(lambda: any(r["body"] == "milk, eggs, bread, butter" for r in rows(b)), timeout=40)

    # A long notepad comes a page at a time: with one note a page, "Show older notes" adds the next
    # (read at the first page's round) and goes away at the end.
    b.js("Mosaic.notes.state.pageSize = 1; return Mosaic.notes.load()")
    more_hidden = lambda: b.js("return document.querySelector('#notes-more').hidden")
    b.wait(lambda: len(rows(b)) == 1 and not more_hidden(), timeout=20)
    first = rows(b)[0]["id"]
    b.shot("notes-show-older")
    b.click("#notes-more")
    b.wait(lambda: len(rows(b)) == 2, timeout=20)
    ids = [r["id"] for r in rows(b)]
    assert ids[0] == first and ids[1] != first and int(ids[0]) > int(ids[1]), ids
    assert more_hidden()
    b.js("Mosaic.notes.state.pageSize = 100; return Mosaic.notes.load()")

    # Through the node's raw API the private note is ciphertext.
    owner = b.js("return Mosaic.state.session.wallet.client_id")
    with urllib.request.urlopen(f"{devnet.node}/v1/contracts/notes/views/notes?owner={owner}") as r:
        raw = r.read().decode()
    assert "Groceries" in raw and '"private":true' in raw
    assert "under the mat" not in raw and "Diary" not in raw

    # A note deleted elsewhere (another tab) then deleted here: the chain's error in the alert.
    stale = [r for r in shown if r["title"] == "Groceries"][0]["id"]
    h = b.js("return Mosaic.api('DELETE', '/api/notes/' + arguments[0]).then(r => r.hash)", stale)
    b.js("return Mosaic.api('GET', '/api/transactions/' + arguments[0] + '/wait?until=sealed&timeout=30')", h)
    b.driver.find_element("css selector", f'.note-row[data-id="{stale}"] .note-delete').click()
    b.click("#confirm-yes")
    msg = b.wait_text("#notes-alert-message", lambda t: len(t) > 0, timeout=40)
    assert f"note {stale} is not in this account's notepad" in msg
    b.shot("error-alert")
    b.click("#notes-alert-ok")
    b.wait(lambda: len(rows(b)) == 1, timeout=20)

    # Delete per note.
    b.driver.find_element("css selector", "#note-list .note-row .note-delete").click()
    b.click("#confirm-yes")
    b.wait(lambda: len(rows(b)) == 0, timeout=40)
    b.wait_text("#notes-empty", lambda t: "notepad is empty" in t)

    # The menu: refresh, delete notepad, sign out.
    compose(b, "Last", "one more")
    b.wait(lambda: len(rows(b)) == 1, timeout=40)
    b.click("#notes-menu-open")
    b.el("#notes-menu")
    b.shot("notes-menu")
    b.click("#notes-refresh")
    b.wait(lambda: len(rows(b)) == 1, timeout=20)
    b.click("#notes-menu-open")
    b.click("#notes-drop")
    b.shot("confirm-delete-notepad")
    b.click("#confirm-yes")
    b.wait_text("#notes-empty", lambda t: "no notepad yet" in t, timeout=40)
    with urllib.request.urlopen(f"{devnet.node}/v1/contracts/notes/views/notepad?owner={owner}") as r:
        assert json.loads(r.read())["result"] is None
    b.shot("notepad-deleted")
    b.click("#notes-menu-open")
    b.click("#notes-sign-out")
    b.el("#unlock-form")
