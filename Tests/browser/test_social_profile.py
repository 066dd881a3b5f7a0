"""Social identity and rewards with two wallets in two browsers: profiles with names that posts and
votes link to, reading without a wallet, the 5-minute rule shown before writing, a vote paid from
the reward pool once the payout window closes, the claim, and the claim in the wallet's history."""
import time

from selenium.webdriver.common.by import By

from conftest import Browser
from test_social import approve_social, approve_value, compose, faucet, set_slider, wait_feed_loaded
from test_wallet import create_wallet


def second_wallet(s, app, name):
    """Another wallet beside the keystore's first, through the whole onboarding (phrase confirmed)."""
    create_wallet(s, app, name=name)
    faucet(s, app)


def set_profile(b, app, name, about):
    b.get(app + "/#/social")
    b.click("#social-my-profile")
    b.click("#profile-edit-open")
    b.type("#profile-name-input", name)
    b.type("#profile-about-input", about)
    b.click("#profile-submit")
    approve_social(b)
    b.wait_text("#profile-name", lambda t: t == name, timeout=40)


def test_profiles_votes_and_rewards_with_two_wallets(devnet, browser, second_browser, tmp_path, request):
    a, s = browser, second_browser
    create_wallet(a, devnet.app)
    faucet(a, devnet.app)
    alice = a.js("return Mosaic.state.session.wallet.client_id")

    # Alice names herself; a taken name is refused later with the chain's reason.
    set_profile(a, devnet.app, "alice", "Writes about boats.\nAnd tides.")
    assert "And tides." in a.text_of("#profile-about")
    assert a.text_of("#profile-reputation") == "Reputation 25"

    # She posts; the compose dialog then shows the 5-minute rule with the time left, before writing.
    a.get(devnet.app + "/#/social?sort=created")
    compose(a, "Tides of Mosaic", "A post worth a vote.", "boats")
    a.el("#social-post", timeout=40)
    post_id = a.el("#social-post").get_attribute("data-id")
    assert a.text_of("#post-meta .post-author") == "you"
    a.get(devnet.app + "/#/social?sort=created")
    a.click("#compose-open")
    a.wait_text("#compose-form #post-limit", lambda t: "you can post again in 4:" in t, timeout=20)
    a.shot("post-limit")
    a.js("document.querySelector('#compose-dialog').close()")
    assert "you can post again in" in a.text_of("#social > #post-limit")

    # Bob, in another browser, takes a name, stakes, and upvotes Alice's post by her name's link.
    second_wallet(s, devnet.app, "bob")
    set_profile(s, devnet.app, "bob", "Votes on good posts.")
    s.click("#profile-edit-open")
    s.type("#profile-name-input", "alice")
    s.click("#profile-submit")
    s.wait_text("#profile-error", lambda t: "the name alice is taken" in t, timeout=40)
    s.js("document.querySelector('#profile-dialog').close()")
    s.get(devnet.app + "/#/social?sort=created")
    wait_feed_loaded(s)
    s.type("#stake-amount", "0.5")
    s.click("#stake-submit")
    approve_value(s)
    s.wait(lambda: s.el("#social-account").get_attribute("data-stake") == "5000000000", timeout=40)
    card = s.el(f"#social-feed .post-card[data-id='{post_id}']")
    assert card.find_element(By.CSS_SELECTOR, ".post-author").text == "alice"
    card.find_element(By.CSS_SELECTOR, ".post-author").click()
    s.el("#social-profile[data-name=alice]")
    assert s.text_of("#profile-id") == alice
    assert "Writes about boats." in s.text_of("#profile-about")
    s.click(f"#profile-posts li[data-id='{post_id}'] .post-title")
    s.el(f"#social-post[data-id='{post_id}']")
    set_slider(s, "#vote-weight", 100)
    s.click("#vote-submit")
    assert "stays locked until the post pays out" in approve_value(s)
    s.wait_text("#my-vote", lambda t: t == "Your vote: +100 %", timeout=40)
    s.driver.refresh()
    s.wait_text("#post-reward", lambda t: "Pending reward ≈" in t, timeout=20)

    # A compact vote on a reply, and the reply count current right after replying.
    s.type("#reply-body", "Agreed, well written.")
    s.click("#reply-submit")
    s.wait_text("#replies-title", lambda t: t == "Replies (1)", timeout=40)
    assert s.text_of("#post-meta .post-replies") == "1 reply"
    assert s.el("#replies > li.reply > .vote-compact .vote-range")
    a.get(devnet.app + "/#/social/post/" + post_id)
    a.wait_text("#post-meta .post-replies", lambda t: t == "1 reply")
    assert a.text_of("#post-votes .post-voter .post-author") == "bob"
    assert [e.text for e in a.driver.find_elements(By.CSS_SELECTOR, "#replies > li.reply .post-author")] == ["bob"]

    # Bob's profile lists his vote and his reply; Alice's reputation grew with the vote.
    s.get(devnet.app + "/#/social/u/bob")
    s.el(f"#profile-votes li[data-id='{post_id}']")
    assert len(s.driver.find_elements(By.CSS_SELECTOR, "#profile-replies li.post-card")) == 1
    s.get(devnet.app + "/#/social/u/alice")
    s.wait_text("#profile-reputation", lambda t: t.startswith("Reputation "))

    # Past the payout window: the pool pays Alice (author) and Bob (curator) by vote shares.
    assert devnet.cli("devnet", "time", "advance", "7d").get("stderr") is None
    assert devnet.cli("devnet", "time", "advance", "1h").get("stderr") is None
    # The payout runs in the next block, which a devnet makes when there is a transaction: Bob edits his profile.
    s.get(devnet.app + "/#/social/u/bob")
    s.click("#profile-edit-open")
    s.type("#profile-about-input", "Votes on good posts, and curates.")
    s.click("#profile-submit")
    s.wait_text("#profile-about", lambda t: "curates" in t, timeout=40)
    a.get(devnet.app + "/#/social/post/" + post_id)
    a.driver.refresh()
    a.wait_text("#post-reward", lambda t: t.startswith("Paid "), timeout=40)
    assert "to the author" in a.text_of("#post-reward") and "to its curators" in a.text_of("#post-reward")
    a.get(devnet.app + "/#/social/u/alice")
    pending = int(a.el("#profile-reward-pending").get_attribute("data-units"))
    assert pending > 0
    assert a.text_of("#profile-reward-author").startswith(a.text_of("#profile-reward-pending").split(" unclaimed")[0])
    a.shot("profile")
    a.driver.save_screenshot(str(a.dir / "profile-readme.png"))
    a.click("#profile-claim")
    a.wait(lambda: a.el("#profile-reward-pending").get_attribute("data-units") == "0", timeout=40)
    s.get(devnet.app + "/#/social/u/bob")
    assert int(s.el("#profile-reward-pending").get_attribute("data-units")) > 0
    s.el("#profile-claim")

    # The claim is in Alice's wallet history, as tokens received.
    a.get(devnet.app + "/#/bolt")
    a.wait(lambda: any("Social rewards" in e.text for e in a.driver.find_elements(By.CSS_SELECTOR, ".tx-row")), timeout=40)
    row = [e for e in a.driver.find_elements(By.CSS_SELECTOR, ".tx-row") if "Social rewards" in e.text][0]
    assert row.find_element(By.CSS_SELECTOR, ".tx-amount").text.startswith("+")
    a.shot("bolt-rewards")

    # A third browser with no unlocked wallet reads the feed, the post and the profile; writing asks to unlock.
    r = Browser(request.node.name + "-reader", tmp_path / "profile-reader")
    try:
        r.get(devnet.app + "/#/social?sort=created")
        r.el("#social-unlock")
        wait_feed_loaded(r)
        assert post_id in r.js("return Array.from(document.querySelectorAll('#social-feed .post-card')).map(e => e.dataset.id)")
        r.get(devnet.app + "/#/social/post/" + post_id)
        r.wait_text("#post-body", lambda t: "A post worth a vote." in t)
        r.get(devnet.app + "/#/social/u/alice")
        r.wait_text("#profile-name", lambda t: t == "alice")
        assert not r.driver.find_elements(By.CSS_SELECTOR, "#profile-claim")
        r.shot("reader-profile")
        r.get(devnet.app + "/#/social/post/" + post_id)
        r.el("#vote-submit")
        r.click("#vote-submit")
        r.el("#unlock-form, #onboarding, #passphrase", timeout=20)
    finally:
        r.quit()
