"""The seed journeys end to end: the first run from an empty keystore on a fresh devnet with no
typed-in amounts, the network page, and every page at 390 px wide."""
import json
import re

from selenium.webdriver.common.by import By

from test_wallet import PASS, confirm_words, create_wallet


def test_first_run_one_tap_start_from_an_empty_keystore(devnet, browser):
    b = browser
    b.get(devnet.app)
    b.el("#onboarding")
    b.type("#passphrase", PASS)
    b.type("#passphrase-confirm", PASS)
    b.click("#create-wallet")
    # Creating a wallet runs the passphrase hash: slow on a loaded machine.
    words = b.el("#mnemonic-words", timeout=60).find_elements(By.CSS_SELECTOR, "li.mnemonic-word")
    phrase = " ".join(re.sub(r"^\d+\.?\s*", "", w.text).strip() for w in words)
    assert "Wallet Details" in b.text_of("#mnemonic-again")

    # The phrase screen cannot be left by navigating away: the router brings it back.
    b.get(devnet.app + "/#/bolt")
    b.el("#mnemonic-screen")
    assert not b.js("return !!document.querySelector('#bolt')")
    b.click("#mnemonic-written")
    b.click("#continue")

    # A wrong word is refused, with the word's number.
    b.el("#phrase-check")
    for n in (1, 2, 3):
        b.type(f"#confirm-word-{n}", "wrong")
    b.click("#phrase-check-submit")
    b.wait_text("#phrase-check-error", lambda t: "does not match" in t or "do not match" in t)
    b.shot("phrase-check-wrong")
    confirm_words(b, phrase)

    # One tap: faucet, then the default allocation at the network's price plus a margin.
    b.el("#first-run")
    b.wait_text("#start-cost", lambda t: "locks" in t, timeout=20)
    assert b.js("return document.querySelector('li.step[data-step=wallet]').dataset.state") == "done"
    b.shot("first-run")
    b.click("#start-go")
    b.wait(lambda: b.js("return document.querySelector('li.step[data-step=faucet]').dataset.state") == "done", timeout=60)
    b.wait(lambda: b.js("return document.querySelector('li.step[data-step=allocation]').dataset.state") in ("done", "failed"), timeout=90)
    b.shot("first-run-done")
    assert b.js("return document.querySelector('li.step[data-step=allocation]').dataset.state") == "done", b.text_of("#first-run")
    b.el("#start-done")

    # Home shows the balance and the storage.
    b.get(devnet.app + "/#/")
    b.wait_text("#home-balance-tokens", lambda t: re.match(r"^\d", t.strip()) is not None and float(t.split()[0]) > 0)
    b.wait_text("#home-storage-text", lambda t: "of 1 GiB used" in t)
    assert not b.js("return !!document.querySelector('#no-allocation')")
    b.shot("home-summary")


def test_allocation_form_defaults_to_the_quote(devnet, browser):
    b = browser
    create_wallet(b, devnet.app)
    b.get(devnet.app + "/#/bolt")
    b.click("#faucet")
    b.wait_text("#balance-tokens", lambda t: t.strip() not in ("", "0", "—") and float(t) > 0, timeout=40)
    b.get(devnet.app + "/#/")
    b.click("#create-allocation-open")
    b.wait_text("#alloc-cost", lambda t: "suggested lock" in t, timeout=20)
    lock = b.el("#alloc-lock").get_attribute("value")
    assert 0 < float(lock) < 1, lock
    # A smaller size asks again and the suggested lock follows.
    b.type("#alloc-size", "64MiB")
    b.wait(lambda: b.el("#alloc-lock").get_attribute("value") not in ("", lock), timeout=20)
    b.click("#alloc-submit")
    b.el("#approve-dialog")
    assert "tokens locked" in b.text_of("#approve-dialog [data-field=amount]")
    b.click("#approve-yes")
    b.get(devnet.app + "/#/allocation")
    b.wait_text("#allocation-details [data-field=size]", lambda t: "64" in t, timeout=40)
    assert "tokens" in b.text_of("#allocation-details [data-field=write_pool]")


def test_insufficient_balance_is_a_4xx_with_a_sentence(devnet, browser):
    b = browser
    create_wallet(b, devnet.app)
    status, body = b.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/session', {credentials: 'same-origin'}).then(r => r.json()).then(s =>
          fetch('/api/allocations', {method: 'POST', credentials: 'same-origin',
              headers: {'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf},
              body: JSON.stringify({name: 'x'})}).then(r => r.json().then(j => done([r.status, j]))));
    """)
    assert status == 422, body
    assert body["error"]["code"] == "insufficient_balance"
    assert "faucet" in body["error"]["message"] and "mosaic" not in body["error"]["message"]


def test_network_details_and_the_cli_network_stays(devnet, browser):
    b = browser
    create_wallet(b, devnet.app)
    out = devnet.cli("network", "add", "elsewhere", "http://127.0.0.1:9")
    config = devnet.home / "config.json"
    before = json.loads(config.read_text()).get("current")
    b.get(devnet.app + "/#/network")
    assert b.text_of("#network-details [data-field=signature_scheme]").strip() == "ed25519"
    assert b.text_of("#network-details [data-field=confirmations]").strip().isdigit()
    assert b.text_of("#network-details [data-field=chain_id]").strip() not in ("", "—")
    assert b.el("#network-explorer").get_attribute("href").endswith("/explorer")
    b.shot("network")
    b.el("#network-select")
    b.js("document.querySelector('#network-select').value = 'elsewhere'")
    b.click("#network-switch")
    b.click("#confirm-yes")
    b.el("#unlock-screen")
    assert json.loads(config.read_text()).get("current") == before, out


PAGES = ["#/", "#/wallet", "#/allocation", "#/network", "#/bolt", "#/vult", "#/notes", "#/social", "#/locker", "#/start"]


def test_every_page_fits_390_px(devnet, browser):
    b = browser
    create_wallet(b, devnet.app)
    b.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    for page in PAGES:
        b.get(devnet.app + "/" + page)
        b.wait(lambda: b.js("const v = document.querySelector('#view'); return v && !v.querySelector('.loading') && v.children.length > 0"))
        b.wait(lambda: b.js("return document.readyState") == "complete")
        b.shot("390-" + (page.strip("#/") or "home"))
        wide = b.js("return document.documentElement.scrollWidth")
        assert wide <= 390, f"{page} scrolls sideways ({wide} px)"
        right = b.js("const r = document.querySelector('#sign-out').getBoundingClientRect(); return r.width > 0 ? r.right : -1")
        assert 0 < right <= 390, f"{page}: Sign out is off screen ({right})"


# The same table as Tests/MosaicSDKTests/QuantityTests.swift: the server formats share pages with
# Quantity.formatBytes, and the app's pages must read the same.
SIZES = [(0, "0 B"), (1023, "1023 B"), (1024, "1 KiB"), (1056, "1 KiB"), (1126, "1 KiB"), (1127, "1.1 KiB"), (1536, "1.5 KiB"),
         (1048575, "1023.9 KiB"), (1 << 20, "1 MiB"), (64 << 20, "64 MiB"), (1 << 30, "1 GiB"), ((1 << 30) * 3 // 2, "1.5 GiB"),
         (1 << 40, "1 TiB"), (1 << 50, "1 PiB"), (1 << 60, "1024 PiB")]


def test_sizes_read_as_on_share_pages(devnet, browser):
    b = browser
    b.get(devnet.app)
    b.wait(lambda: b.js("return !!(window.Mosaic && Mosaic.fmtBytes)"))
    shown = b.js("return arguments[0].map(n => Mosaic.fmtBytes(n))", [n for n, _ in SIZES])
    assert shown == [text for _, text in SIZES]
