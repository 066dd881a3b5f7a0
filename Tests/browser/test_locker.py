"""Locker in a real browser: lock a file with the PIN entered twice, list, open after the PIN prompt
(a wrong PIN says "incorrect PIN", as the CLI does), a taken name refused, delete."""
import hashlib
import os

from test_wallet import PASS, create_wallet

OPEN_JS = """
const done = arguments[arguments.length - 1];
fetch('/api/locker/download', {method: 'POST', credentials: 'same-origin',
  headers: {'Content-Type': 'application/json', 'X-CSRF-Token': window.Mosaic.state.csrf},
  body: JSON.stringify({name: arguments[0], pin: arguments[1]})})
  .then(r => r.arrayBuffer().then(b => crypto.subtle.digest('SHA-256', b).then(d =>
     done([r.status, Array.from(new Uint8Array(d)).map(x => x.toString(16).padStart(2, '0')).join(''), b.byteLength]))))
  .catch(e => done([0, String(e), 0]));
"""


def make_allocation(b, app):
    b.get(app + "/#/bolt")
    b.click("#faucet")
    b.wait_text("#balance-tokens", lambda t: t.strip() not in ("", "0", "—") and float(t.replace(",", "")) > 0, timeout=40)
    b.get(app + "/#/")
    b.click("#create-allocation-open")
    b.type("#alloc-size", "32MiB")
    b.type("#alloc-lock", "0.5")
    b.click("#alloc-submit")
    b.click("#approve-yes")
    b.get(app + "/#/allocation")
    b.wait_text("#allocation-details [data-field=data_shards]", lambda t: t.strip() == "2", timeout=40)


def lock(b, path, name, pin, repeat=None, replace=False):
    b.driver.find_element("css selector", "#locker-input").send_keys(str(path))
    b.el("#locker-put-dialog")
    b.type("#locker-name", name)
    b.type("#locker-pin", pin)
    b.type("#locker-pin-repeat", repeat if repeat is not None else pin)
    if replace:
        b.click("#locker-replace")


def test_locker_lock_list_open_wrong_pin_replace_delete(devnet, browser, tmp_path):
    b = browser
    create_wallet(b, devnet.app)
    make_allocation(b, devnet.app)

    # Home's Locker tile is live and leads to an empty locker.
    b.get(devnet.app + "/#/")
    b.click("#tile-locker")
    b.el("#locker-empty", timeout=30)
    assert "PIN" in b.text_of("#locker-intro")
    b.shot("locker-empty")

    # Lock a file: the PIN is entered twice; a mismatch is refused before anything is sent.
    local = tmp_path / "passport.bin"
    data = os.urandom(300_000)
    local.write_bytes(data)
    lock(b, local, "passport.bin", "4821", repeat="4822")
    b.shot("lock-dialog")
    b.click("#locker-put-submit")
    assert "the two PINs differ" in b.text_of("#locker-put-error")
    b.shot("pin-mismatch")
    b.type("#locker-pin-repeat", "4821")
    b.click("#locker-put-submit")
    b.el('.locker-row[data-name="passport.bin"]', timeout=60)
    assert "locked" in b.text_of("#toast")
    b.shot("locked")

    # The same name again is refused without "replace", in the page's words (no CLI flag).
    other = tmp_path / "other.bin"
    other.write_bytes(os.urandom(1000))
    lock(b, other, "passport.bin", "1234")
    b.click("#locker-put-submit")
    b.wait_text("#locker-put-error", lambda t: "already exists" in t, timeout=30)
    assert b.text_of("#locker-put-error") == "A locker file named passport.bin already exists. Tick \u201cReplace a locker file with this name\u201d to overwrite it."
    b.shot("exists-refused")
    b.driver.find_element("css selector", "dialog[open] .dialog-close").click()

    # Open: a wrong PIN fails authentication and says so; the right one downloads the file.
    b.el('.locker-row[data-name="passport.bin"]').find_element("css selector", ".locker-open").click()
    b.type("#locker-get-pin", "1111")
    b.shot("pin-prompt")
    b.click("#locker-get-submit")
    b.wait_text("#locker-get-error", lambda t: "incorrect PIN" in t, timeout=30)
    assert b.text_of("#locker-get-error").startswith("incorrect PIN for locker file passport.bin; 4 more wrong PINs allowed")
    b.shot("incorrect-pin")
    b.type("#locker-get-pin", "4821")
    b.click("#locker-get-submit")
    b.wait_text("#toast", lambda t: "opened and downloaded" in t, timeout=30)
    b.shot("opened")
    status, digest, length = b.driver.execute_async_script(OPEN_JS, "passport.bin", "4821")
    assert status == 200 and length == len(data)
    assert digest == hashlib.sha256(data).hexdigest()

    # The CLI, on the same wallet, says the same about a wrong PIN.
    (tmp_path / "wrong.txt").write_text("9999")
    out = devnet.cli("locker", "get", "passport.bin", "--to", str(tmp_path / "x.bin"),
                     "--pin-file", str(tmp_path / "wrong.txt"), passphrase=PASS)
    assert out["error"]["code"] == "incorrect_pin"
    assert out["error"]["message"].startswith("incorrect PIN for locker file passport.bin")
    listed = devnet.cli("locker", "ls", passphrase=PASS)
    assert [e["name"] for e in listed["entries"]] == ["passport.bin"]

    # Replace with the box ticked, then delete with confirmation.
    lock(b, other, "passport.bin", "1234", replace=True)
    b.click("#locker-put-submit")
    b.wait(lambda: b.js("return document.querySelector('#locker-put-dialog') === null"), timeout=60)
    status, digest, length = b.driver.execute_async_script(OPEN_JS, "passport.bin", "1234")
    assert status == 200 and digest == hashlib.sha256(other.read_bytes()).hexdigest()
    b.el('.locker-row[data-name="passport.bin"]').find_element("css selector", ".locker-delete").click()
    b.shot("delete-confirm")
    b.click("#confirm-yes")
    b.el("#locker-empty", timeout=30)
    b.shot("deleted")
