"""Home and Bolt in a real browser against a real devnet."""
import re
from selenium.webdriver.common.by import By

PASS = "correct horse battery"


def create_wallet(b, app, one_tap=False, name=None):
    """Creates a wallet in the page; `name` makes another one beside the keystore's first."""
    b.get(app)
    if name:
        b.click("#add-wallet-open")
        b.type("#wallet-name", name)
    b.el("#onboarding")
    b.shot("onboarding")
    b.type("#passphrase", PASS)
    b.type("#passphrase-confirm", PASS)
    b.click("#create-wallet")
    # Creating a wallet runs the passphrase hash: slow on a loaded machine.
    words = b.el("#mnemonic-words", timeout=60).find_elements(By.CSS_SELECTOR, "li.mnemonic-word")
    assert len(words) == 24
    phrase = " ".join(re.sub(r"^\d+\.?\s*", "", w.text).strip() for w in words)
    b.shot("mnemonic")
    assert not b.el("#continue").is_enabled()
    b.click("#mnemonic-written")
    b.click("#continue")
    confirm_words(b, phrase)
    # A devnet has a faucet: the one-tap start is offered; most tests go Home and do it by hand.
    if one_tap:
        b.click("#start-go")
        b.el("#start-done", timeout=120)
        b.get(app + "/#/")
    else:
        b.click("#start-skip")
    b.el("#home")
    b.shot("home")
    return phrase


def confirm_words(b, phrase):
    """Types back the words the phrase check asks for (by their number)."""
    words = phrase.split()
    b.el("#phrase-check")
    for n in (1, 2, 3):
        i = int(b.el(f"#confirm-word-{n}").get_attribute("data-index"))
        b.type(f"#confirm-word-{n}", words[i - 1])
    b.click("#phrase-check-submit")


def test_create_wallet_faucet_send_and_explorer(devnet, browser):
    b = browser
    create_wallet(b, devnet.app)
    assert b.text_of("#app-version").strip() != ""
    for tile in ("#tile-wallet", "#tile-allocation", "#tile-network", "#tile-bolt", "#tile-vult"):
        b.el(tile)
    b.click("#tile-wallet")
    me = b.text_of("#wallet-details [data-field=client_id]").strip()
    assert re.fullmatch(r"[0-9a-f]{64}", me)
    b.shot("wallet-details")

    # A second wallet made with the CLI receives the tokens.
    other = devnet.cli("wallet", "create", "--name", "friend", passphrase="friend passphrase")["client_id"]

    b.get(devnet.app + "/#/bolt")
    b.el("#bolt")
    b.shot("bolt-empty")
    b.click("#faucet")
    b.wait_text("#balance-tokens", lambda t: t.strip() not in ("", "0", "0.0", "—") and float(t.replace(",", "")) > 0, timeout=40)
    b.shot("bolt-after-faucet")
    before = b.text_of("#balance-tokens")

    b.click("#send-open")
    b.type("#send-to", other)
    b.type("#send-amount", "0.5")
    # The fee shows before sending, and the wallet asks to approve what it signs.
    assert "network fee" in b.text_of("#send-amount-hint")
    b.click("#send-submit")
    b.el("#approve-dialog")
    assert b.text_of("#approve-dialog [data-field=amount]").startswith("0.5 ")
    assert b.text_of("#approve-dialog [data-field=to]").strip() == other
    assert b.text_of("#approve-dialog [data-field=fee]").strip() != ""
    b.shot("approve-send")
    b.click("#approve-yes")
    # The list refreshes by itself (no reload) until the send is sealed.
    b.wait(lambda: b.js("return document.querySelectorAll('.tx-row').length") >= 2, timeout=40)
    b.wait(lambda: b.js("const r = document.querySelector('.tx-row'); return r && r.dataset.status") == "sealed", timeout=40)
    b.shot("bolt-after-send")
    assert b.text_of("#balance-tokens") != before

    # The newest transaction is the send, with every field of the seed's details screen.
    b.click(".tx-row")
    b.el("#tx-detail")
    b.shot("tx-detail")
    fields = {f: b.text_of(f"#tx-detail [data-field={f}]") for f in
              ("hash", "block_hash", "output_hash", "client_id", "to_client_id", "signature", "status", "value", "fee", "nonce")}
    assert re.fullmatch(r"[0-9a-f]{128}", fields["signature"].strip())
    assert fields["nonce"].strip().isdigit()
    assert fields["client_id"].strip() == me
    assert fields["to_client_id"].strip() == other
    assert fields["status"].strip().lower() == "sealed"
    href = b.el("#explorer-link").get_attribute("href")
    assert fields["hash"].strip() in href
    b.get(href)
    assert fields["hash"].strip() in b.driver.page_source
    b.shot("explorer")

    # The friend's balance is exact: 0.5 tokens.
    friend = devnet.cli("wallet", "balance", "--wallet", "friend", passphrase="friend passphrase")
    assert friend["balance"] == 5_000_000_000


def test_send_errors_are_shown_inline(devnet, browser):
    b = browser
    create_wallet(b, devnet.app)
    b.get(devnet.app + "/#/bolt")
    me = devnet.cli("wallet", "list")["wallets"][0]["client_id"]
    b.click("#faucet")
    b.wait_text("#balance-tokens", lambda t: t.strip() not in ("", "0", "0.0", "—") and float(t.replace(",", "")) > 0, timeout=40)
    b.click("#send-open")
    for to, amount, expected in [
        ("a" * 64, "1.2.3", "invalid amount"),
        ("a" * 64, "-1", "cannot be negative"),
        ("a" * 64, "1,5", "no commas"),
        ("a" * 64, "0.00000000001", "at most 10 decimals"),
        ("not-an-address", "1", "invalid address"),
        ("a" * 64, "0", "amount cannot be zero"),
        ("a" * 64, "1000000", "amount cannot be greater than balance"),
        (me, "0.0000000001", "cannot send to own wallet"),
    ]:
        b.type("#send-to", to)
        b.type("#send-amount", amount)
        b.click("#send-submit")
        b.wait_text("#send-error", lambda t, e=expected: e in t)
        b.shot("send-error")


def test_wrong_passphrase_then_recover_from_mnemonic(devnet, browser, second_browser):
    b = browser
    phrase = create_wallet(b, devnet.app)
    b.click("#sign-out")
    b.type("#unlock-passphrase", "not the passphrase")
    b.click("#unlock")
    b.wait_text("#unlock-error", lambda t: "wrong passphrase for wallet" in t)
    b.shot("wrong-passphrase")
    b.type("#unlock-passphrase", PASS)
    b.click("#unlock")
    b.el("#home")
    me = devnet.cli("wallet", "list")["wallets"][0]["client_id"]

    # Recover the same wallet under another name in a second browser profile.
    s = second_browser
    s.get(devnet.app)
    s.click("#add-wallet-open")
    s.click("#recover-open")
    s.type("#recover-name", "restored")
    s.type("#recover-mnemonic", phrase)
    s.type("#recover-passphrase", "another passphrase")
    s.type("#recover-passphrase-confirm", "another passphrase")
    s.click("#recover-submit")
    s.el("#home")
    s.shot("recovered-home")
    s.get(devnet.app + "/#/wallet")
    assert s.text_of("#wallet-details [data-field=client_id]").strip() == me


def test_request_without_csrf_token_is_rejected(devnet, browser):
    b = browser
    b.get(devnet.app)
    b.el("#onboarding")
    status, body = b.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/wallets', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({passphrase: 'long enough', passphrase_confirm: 'long enough'})})
          .then(r => r.json().then(j => done([r.status, j])));
    """)
    assert status == 403
    assert body["error"]["code"] == "csrf_missing"
    b.shot("csrf-rejected")
