"""The consent flow with the example third-party app (examples/social-app) as a child process: sign in
with Mosaic, unlock, approve, vote from the app (signed by the app for the user), revoke; a denied
consent; and requests the consent page refuses (bad redirect, unknown app, unknown scope)."""
import time
import urllib.parse

from selenium.webdriver.common.by import By

from test_social import api_json, compose, funded_wallet
from test_wallet import PASS, create_wallet


def test_sign_in_approve_vote_and_revoke(devnet, browser, example_app):
    b = browser
    me = funded_wallet(b, devnet.app)
    b.get(devnet.app + "/#/social?sort=created")
    b.el("#social")
    compose(b, "Vote for me", "A post the example app will upvote.", "demo")
    b.el("#social-post", timeout=40)
    post_id = b.el("#social-post").get_attribute("data-id")

    # Signed out of Mosaic: the consent page asks to unlock first, then comes back to itself.
    b.click("#sign-out")
    b.el("#unlock-form")
    b.get(example_app.url)
    b.shot("example-home")
    b.click("#signin")
    b.el("#consent-unlock-form")
    assert b.text_of("#consent-app-name") == example_app.name
    b.shot("consent-locked")
    b.type("#consent-passphrase", "wrong passphrase")
    b.click("#consent-unlock")
    b.wait_text("#consent-error", lambda t: "wrong passphrase" in t)
    b.type("#consent-passphrase", PASS)
    b.click("#consent-unlock")

    # The consent page: app, its registered redirect, the scopes in words, the expiry.
    b.el("#consent-approve")
    assert b.text_of("#consent-redirect") == example_app.url + "/callback"
    assert [e.get_attribute("data-scope") for e in b.driver.find_elements(By.CSS_SELECTOR, "#consent-scopes li")] == ["vote"]
    assert "Vote for you" in b.text_of("#consent-scopes")
    assert "(7d)" in b.text_of("#consent-expires")
    b.shot("consent")
    b.click("#consent-approve")
    b.wait_text("#consent-status", lambda t: "seal" in t or "Returning" in t, timeout=10)
    b.shot("consent-approving")

    # Back at the app, signed in as this user; it lists the feed with upvote buttons.
    b.wait(lambda: b.driver.current_url.startswith(example_app.url + "/feed"), timeout=40)
    assert b.text_of("#user") == me
    b.click("#tab-created")
    b.el(f"li.post[data-id='{post_id}']")
    b.shot("example-feed")
    b.click(f"li.post[data-id='{post_id}'] .upvote")
    b.wait_text("#notice", lambda t: "Upvoted" in t, timeout=40)
    assert b.text_of(f"li.post[data-id='{post_id}'] .votes") == "1 vote"
    b.shot("example-voted")

    # The vote landed on the chain with the user as voter (the app signed it).
    b.get(devnet.app + "/#/social/post/" + post_id)
    b.wait_text("#my-vote", lambda t: t == "Your vote: +100 %")
    assert b.text_of("#post-meta .post-votes") == "1 vote"
    votes = api_json(b, "/api/social/post?id=" + urllib.parse.quote(post_id, safe=""))["votes"]
    assert [(v["voter"], v["weight"]) for v in votes] == [(me, 10000)]
    b.shot("vote-landed")

    # Revoked in Mosaic, the app's next vote is refused by the ledger, which says why.
    b.get(devnet.app + "/#/social/apps")
    b.click(f"li.grant[data-app='{example_app.name}'] .grant-revoke")
    b.click("#confirm-yes")
    b.el("#social-grants-empty", timeout=40)
    time.sleep(3.2)
    b.get(example_app.url + "/feed?sort=created")
    b.click(f"li.post[data-id='{post_id}'] .upvote")
    b.wait_text("#vote-error", lambda t: "has no grant from user" in t, timeout=40)
    b.shot("example-vote-after-revoke")


def test_denied_consent(devnet, browser, example_app):
    b = browser
    create_wallet(b, devnet.app)
    b.get(example_app.url)
    b.click("#signin")
    b.el("#consent-deny")
    b.click("#consent-deny")
    b.wait_text("#denied", lambda t: "denied" in t, timeout=20)
    assert "error=access_denied" in b.driver.current_url and "state=" in b.driver.current_url
    b.shot("denied")
    b.get(devnet.app + "/#/social/apps")
    b.el("#social-grants-empty")

    # Signed out, the user can deny without unlocking.
    b.click("#sign-out")
    b.el("#unlock-form")
    b.get(example_app.url)
    b.click("#signin")
    b.el("#consent-unlock-form")
    b.click("#consent-deny")
    b.wait_text("#denied", lambda t: "denied" in t, timeout=20)
    b.shot("denied-locked")


def test_refused_requests(devnet, browser, example_app):
    b = browser
    create_wallet(b, devnet.app)
    good = {"app": example_app.name, "scopes": "vote", "redirect": example_app.url + "/callback", "state": "x"}
    cases = [
        ("bad-redirect", dict(good, redirect="http://127.0.0.1:9/steal"), "redirect_mismatch", "is not the one app"),
        ("unknown-app", dict(good, app="no-such-app"), "unknown_app", "no app named"),
        ("unknown-scope", dict(good, scopes="vote,transfer"), "invalid_scope", "unknown scope \"transfer\""),
        ("bad-expiry", dict(good, expires="forever"), "invalid_expires", "invalid expiry"),
    ]
    for name, query, code, message in cases:
        b.get(devnet.app + "/authorize?" + urllib.parse.urlencode(query))
        page = b.el("#consent-refused")
        assert page.get_attribute("data-code") == code
        assert message in b.text_of("#consent-refused-message")
        assert not b.driver.find_elements(By.CSS_SELECTOR, "#consent-approve")
        b.shot(name)
    # An approve POST with a forged redirect is refused too (the server checks again).
    status, body = b.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/session', {credentials: 'same-origin'}).then(r => r.json()).then(s =>
          fetch('/api/authorize/approve', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf},
            body: JSON.stringify({app: arguments[0], scopes: 'vote', redirect: 'http://127.0.0.1:9/steal', state: 'x'})}))
          .then(r => r.json().then(j => done([r.status, j])));
    """, example_app.name)
    assert status == 400 and body["error"]["code"] == "redirect_mismatch"
    # Without the CSRF token: refused before anything else.
    status, body = b.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/authorize/approve', {method: 'POST', credentials: 'same-origin', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({app: arguments[0], scopes: 'vote', redirect: arguments[1], state: 'x'})})
          .then(r => r.json().then(j => done([r.status, j])));
    """, example_app.name, example_app.url + "/callback")
    assert status == 403 and body["error"]["code"] == "csrf_missing"
