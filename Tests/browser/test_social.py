"""The Social page in a real browser: post, reply (threaded), vote with the weight slider, the feed tabs,
the tag filter, the chain's refusal shown as an alert, and the user's app grants with revoke."""
import time
import urllib.parse

from selenium.webdriver.common.by import By

from test_wallet import confirm_words, create_wallet


def faucet(b, app):
    b.get(app + "/#/bolt")
    b.click("#faucet")
    b.wait_text("#balance-tokens", lambda t: t.strip() not in ("", "0", "0.0", "—") and float(t.replace(",", "")) > 0, timeout=40)


def funded_wallet(b, app):
    """A new wallet in the page with faucet tokens; its client id."""
    create_wallet(b, app)
    faucet(b, app)
    return b.js("return Mosaic.state.session.wallet.client_id")


def set_slider(b, css, percent):
    b.js("const r = document.querySelector(arguments[0]); r.value = String(arguments[1]);"
         "r.dispatchEvent(new Event('input', {bubbles: true}));", css, percent)


def approve_social(b):
    """The first social write in a browser asks for the wallet's approval; the test turns it off for
    social actions ("Do not ask again"), as a user may."""
    if not b.js("try { return !!JSON.parse(localStorage.getItem('mosaic.approve.skip') || '{}').social } catch (e) { return false }"):
        b.el("#approve-dialog")
        assert b.text_of("#approve-dialog [data-field=to]") == "The social contract"
        assert "MSC" in b.text_of("#approve-dialog [data-field=fee]")
        b.click("#approve-skip")
        b.click("#approve-yes")


def approve_value(b):
    """Staking, and a vote that counts locked stake, move value: they ask every time, whatever was
    turned off. Returns the amount the dialog says will be signed."""
    b.el("#approve-dialog")
    assert not b.driver.find_elements(By.CSS_SELECTOR, "#approve-skip")
    amount = b.text_of("#approve-dialog [data-field=amount]")
    b.click("#approve-yes")
    return amount


def compose(b, title, body, tags):
    b.click("#compose-open")
    b.type("#compose-title", title)
    b.type("#compose-body", body)
    b.type("#compose-tags", tags)
    b.click("#compose-submit")
    approve_social(b)


def feed_ids(b):
    return b.js("return Array.from(document.querySelectorAll('#social-feed .post-card')).map(e => e.dataset.id)")


def wait_feed_loaded(b):
    b.wait(lambda: b.js("const f = document.querySelector('#social-feed'); return !!f && f.getAttribute('aria-busy') === 'false'"))


def last_alert(b):
    return b.js("const a = document.querySelectorAll('.toast-error[role=alert]'); return a.length ? a[a.length - 1].textContent : ''")


def api_json(b, path):
    return b.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.json()).then(done).catch(e => done({error: String(e)}));
    """, path)


def test_post_reply_vote_tabs_and_tags(devnet, browser, second_browser):
    b = browser
    me = funded_wallet(b, devnet.app)

    # The Home tile is live and opens the Social page; trending is empty before any vote.
    b.get(devnet.app + "/#/")
    b.click("#tile-social")
    b.el("#social")
    assert b.el("#social-tab-trending").get_attribute("aria-selected") == "true"
    b.el("#social-empty")

    # Votes count a locked voting stake: stake half a token (a bad amount is refused first).
    b.type("#stake-amount", "lots")
    b.click("#stake-submit")
    b.wait_text("#stake-error", lambda t: "give the amount to stake in tokens" in t, timeout=20)
    b.type("#stake-amount", "0.5")
    b.click("#stake-submit")
    assert approve_value(b) == "0.5 MSC locked as your voting stake"
    b.wait(lambda: b.el("#social-account").get_attribute("data-stake") == "5000000000", timeout=40)
    assert "stake 0.5 tokens" in b.text_of("#social-account")
    b.shot("social-empty")

    # Compose: the button shows the sealing state, then the new post opens.
    compose(b, "Hello Mosaic", "My first post on the network.\nSecond line.", "intro, swift")
    b.wait(lambda: b.js("const s = document.querySelector('#compose-submit'); return !s || s.getAttribute('aria-busy') === 'true'"), timeout=5)
    b.shot("compose-sealing")
    b.el("#social-post", timeout=40)
    post_id = b.el("#social-post").get_attribute("data-id")
    assert post_id.startswith(me + "/hello-mosaic")
    assert "Second line." in b.text_of("#post-body")
    assert [t.text for t in b.driver.find_elements(By.CSS_SELECTOR, "#social-post .post-tag")] == ["#intro", "#swift"]
    assert b.text_of("#post-meta .post-author") == "you"
    assert "0 votes" in b.text_of("#post-meta .post-votes")
    b.shot("post")

    # The author edits the post (same dialog, prefilled).
    b.click("#post-edit-open")
    assert b.el("#compose-title").get_attribute("value") == "Hello Mosaic"
    b.type("#compose-body", "My first post on the network.\nSecond line, **edited**.\n\n- one <img src=x onerror=alert(1)>")
    b.click("#compose-submit")
    b.wait_text("#post-body", lambda t: "Second line, edited." in t, timeout=40)
    # The body renders a safe Markdown subset: bold and a list, and raw HTML stays text.
    assert b.text_of("#post-body .md strong") == "edited"
    assert b.text_of("#post-body .md ul li").startswith("one <img")
    assert not b.driver.find_elements(By.CSS_SELECTOR, "#post-body img")
    b.shot("post-edited")

    # Reply, then a reply to the reply (replies are at least 3 s apart on the chain).
    b.type("#reply-body", "First reply, from the author.")
    b.click("#reply-submit")
    b.wait(lambda: len(b.driver.find_elements(By.CSS_SELECTOR, "#replies > li.reply")) == 1, timeout=40)
    assert b.text_of("#replies-title") == "Replies (1)"
    time.sleep(3.2)
    b.click("#replies > li.reply .reply-open")
    b.type("#replies > li.reply .reply-text", "A nested reply.")
    b.click("#replies > li.reply .reply-send")
    b.wait(lambda: len(b.driver.find_elements(By.CSS_SELECTOR, "#replies > li.reply ul.replies > li.reply[data-depth='2']")) == 1, timeout=40)
    assert "A nested reply." in b.text_of("#replies li.reply[data-depth='2'] .reply-body")
    b.shot("threaded-replies")

    # Reloaded, the thread shows the direct reply with "Show 1 reply"; its child loads on expand.
    b.driver.refresh()
    b.el("#replies > li.reply")
    toggle = b.el("#replies > li.reply .replies-toggle")
    assert toggle.text == "Show 1 reply"
    assert not b.driver.find_elements(By.CSS_SELECTOR, "#replies li.reply[data-depth='2']")
    toggle.click()
    b.el("#replies li.reply[data-depth='2']")
    assert b.el("#replies > li.reply .replies-toggle").text == "Hide 1 reply"

    # Vote at 50 % with the slider: the vote count and the net rshares change once sealed.
    set_slider(b, "#vote-weight", 50)
    assert b.text_of("#vote-weight-label") == "+50 %"
    b.click("#vote-submit")
    assert "voting stake of 0.5 MSC" in approve_value(b)
    b.wait_text("#my-vote", lambda t: t == "Your vote: +50 %", timeout=40)
    assert b.text_of("#post-meta .post-votes") == "1 vote"
    rshares = int(b.text_of("#post-meta .post-rshares").split()[0].replace(",", "").replace("−", "-"))
    assert rshares > 0
    b.shot("voted-50")

    # The same vote again is refused by the chain: its message is shown as an alert.
    time.sleep(3.2)
    b.click("#vote-submit")
    approve_value(b)
    b.wait_text("#vote-error", lambda t: "already has weight 5000" in t, timeout=40)
    assert "already has weight 5000" in last_alert(b)
    b.shot("vote-refused")

    # A downvote on the reply; reloaded, the reply's slider starts at that vote.
    reply = "#replies > li.reply > .vote-control"
    set_slider(b, reply + " .vote-range", -30)
    assert b.text_of(reply + " .vote-btn") == "Downvote"
    b.click(reply + " .vote-btn")
    approve_value(b)
    b.wait_text(reply + " .vote-current", lambda t: t == "Your vote: −30 %", timeout=40)
    assert "−" in b.text_of("#replies > li.reply > .post-meta .post-rshares")
    b.shot("reply-downvoted")
    b.driver.refresh()
    b.wait_text(reply + " .vote-current", lambda t: t == "Your vote: −30 %")
    assert b.js("return document.querySelector(arguments[0]).value", reply + " .vote-range") == "-30"

    # With a positive vote the post is trending and hot; New lists every post.
    for tab in ("trending", "hot", "created"):
        b.get(devnet.app + "/#/social?sort=" + tab)
        b.el(f"#social-tab-{tab}[aria-selected=true]")
        wait_feed_loaded(b)
        assert feed_ids(b) == [post_id], tab
        card = b.el(f"#social-feed .post-card[data-id='{post_id}']")
        assert card.find_element(By.CSS_SELECTOR, ".post-votes").text == "1 vote"
        assert card.find_element(By.CSS_SELECTOR, ".post-replies").text == "1 reply"
        b.shot("tab-" + tab)

    # A second root post within 5 minutes is refused: the chain's reason, as an alert.
    compose(b, "Too soon", "Another one", "intro")
    b.wait_text("#compose-error", lambda t: "one root post per 5 minutes" in t, timeout=40)
    assert "one root post per 5 minutes" in last_alert(b)
    b.shot("post-refused")
    b.js("document.querySelector('#compose-dialog').close()")

    # Another wallet (second browser) posts under another tag.
    s = second_browser
    s.get(devnet.app)
    s.click("#add-wallet-open")
    s.type("#wallet-name", "bob")
    s.type("#passphrase", "bob passphrase")
    s.type("#passphrase-confirm", "bob passphrase")
    s.click("#create-wallet")
    words = s.el("#mnemonic-words").find_elements(By.CSS_SELECTOR, "li.mnemonic-word .w")
    phrase = " ".join(w.text.strip() for w in words)
    s.click("#mnemonic-written")
    s.click("#continue")
    confirm_words(s, phrase)
    s.click("#start-skip")
    s.el("#home")
    faucet(s, devnet.app)
    s.get(devnet.app + "/#/social?sort=created")
    s.el("#social")
    compose(s, "Notes on Rust", "Ownership and borrowing.", "rust")
    s.el("#social-post", timeout=40)
    bob_post = s.el("#social-post").get_attribute("data-id")

    # The tag filter: typed, and by clicking a tag chip.
    b.get(devnet.app + "/#/social?sort=created")
    b.driver.refresh()
    wait_feed_loaded(b)
    assert feed_ids(b) == [bob_post, post_id]
    b.type("#social-tag", "rust")
    b.click("#social-tag-apply")
    b.el("#social-tag-active")
    wait_feed_loaded(b)
    assert feed_ids(b) == [bob_post]
    b.shot("tag-rust")
    b.click("#social-tag-clear")
    wait_feed_loaded(b)
    assert len(feed_ids(b)) == 2
    b.click(f"#social-feed .post-card[data-id='{post_id}'] .post-tag[data-tag=swift]")
    b.wait(lambda: "tag=swift" in b.driver.current_url)
    wait_feed_loaded(b)
    assert feed_ids(b) == [post_id]
    b.shot("tag-swift")
    # A tag that cannot exist is explained in place of the list.
    b.type("#social-tag", "c++")
    b.click("#social-tag-apply")
    b.wait_text("#social-empty", lambda t: "must be 1–24 characters of a-z, 0-9 and -" in t)
    # Bob's post has no votes: not trending.
    b.get(devnet.app + "/#/social?sort=trending&tag=rust")
    b.el("#social-empty")


def test_grants_list_and_revoke(devnet, browser, example_app):
    b = browser
    funded_wallet(b, devnet.app)
    b.get(devnet.app + "/#/social/apps")
    b.el("#social-grants-empty")
    b.shot("no-grants")

    # Grant the example app vote, comment for 30 days through the consent page.
    q = urllib.parse.urlencode({"app": example_app.name, "scopes": "vote,comment", "redirect": example_app.url + "/callback",
                                "expires": "30d", "state": "s1"})
    b.get(devnet.app + "/authorize?" + q)
    b.el("#consent")
    b.click("#consent-approve")
    b.wait(lambda: b.driver.current_url.startswith(example_app.url), timeout=40)

    b.get(devnet.app + "/#/social/apps")
    row = b.el(f"#social-grants li.grant[data-app='{example_app.name}']")
    scopes = [e.get_attribute("data-scope") for e in row.find_elements(By.CSS_SELECTOR, ".grant-scope")]
    assert scopes == ["comment", "vote"]
    assert row.get_attribute("data-expired") == "false"
    b.shot("grants")
    grants = api_json(b, "/api/social/grants")["grants"]
    assert grants[0]["app"] == example_app.client_id
    assert abs(grants[0]["expires_at"] - grants[0]["granted"] - 30 * 86400) < 120

    b.click(f"li.grant[data-app='{example_app.name}'] .grant-revoke")
    b.click("#confirm-yes")
    b.el("#social-grants-empty", timeout=40)
    b.shot("revoked")
    assert api_json(b, "/api/social/grants")["grants"] == []


def test_long_titles_and_social_pages_fit_390_px(devnet, browser):
    """A post title of one 200-character word wraps instead of running off the screen, on every
    social page at a phone's 390 px width."""
    b = browser
    me = funded_wallet(b, devnet.app)
    b.get(devnet.app + "/#/social?sort=created")
    b.el("#social")
    title = "Unbreakable" + "x" * 189
    compose(b, title, "A body with a " + "y" * 150 + " long word.", "long")
    b.el("#social-post", timeout=40)
    post = b.el("#social-post").get_attribute("data-id")
    b.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    for page in ["#/social/post/" + post, "#/social?sort=created", "#/social/u/" + me, "#/social/apps"]:
        b.get(devnet.app + "/" + page)
        b.wait(lambda: b.js("const v = document.querySelector('#view'); return v && !v.querySelector('.loading') && v.children.length > 0"))
        if "sort=created" in page:
            wait_feed_loaded(b)
            assert post in feed_ids(b)
        b.shot("390-" + page.strip("#/").split("?")[0].replace("/", "-")[:40])
        wide = b.js("return document.documentElement.scrollWidth")
        assert wide <= 390, f"{page} scrolls sideways ({wide} px)"
        right = b.js("const r = document.querySelector('#sign-out').getBoundingClientRect(); return r.width > 0 ? r.right : -1")
        assert 0 < right <= 390, f"{page}: Sign out is off screen ({right})"
