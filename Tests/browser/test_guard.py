"""The web app against a hostile browser: a DNS-rebinding page, a cross-site form post, and a
user's file that pretends to be an image but carries script."""
import http.server
import json
import threading

from test_locker import make_allocation
from test_wallet import create_wallet

FETCH_JS = """
const done = arguments[arguments.length - 1];
const [method, path, type, body] = [arguments[0], arguments[1], arguments[2], arguments[3]];
const headers = {'X-CSRF-Token': window.Mosaic.state.csrf};
if (type) headers['Content-Type'] = type;
fetch(path, {method, headers, body: body === null ? undefined : body, credentials: 'same-origin'})
  .then(r => r.text().then(t => done([r.status, r.headers.get('content-type'), r.headers.get('content-disposition'), t])))
  .catch(e => done([0, '', '', String(e)]));
"""


def port_of(url):
    return int(url.rsplit(":", 1)[1].split("/")[0])


def test_a_rebinding_page_gets_nothing_from_the_app(devnet, browser, rebinding_browser):
    # The user's own app, signed in.
    create_wallet(browser, devnet.app)
    port = port_of(devnet.app)
    # The attacker's page lives at rebind.test, whose DNS now answers 127.0.0.1: same port, but
    # the Host header names rebind.test, so every answer is 421 and no page or data comes back.
    r = rebinding_browser
    r.get(f"http://rebind.test:{port}/")
    r.shot("rebinding-page")
    assert "wrong_host" in r.driver.page_source
    assert "Mosaic" not in r.driver.title
    status, body = r.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/session').then(x => x.text().then(t => done([x.status, t]))).catch(e => done([0, String(e)]));
    """)
    assert status == 421 and "csrf" not in body
    assert r.driver.get_cookies() == []


class AttackerPage(http.server.BaseHTTPRequestHandler):
    """Another site on this computer (another port is the same site for cookies) whose page posts
    a plain HTML form to the app: JSON-looking text, as enctype=text/plain allows."""
    target = ""

    def do_GET(self):
        page = f"""<!doctype html><form id="f" method="POST" enctype="text/plain" action="{self.target}/api/faucet">
            <input type="hidden" name='{{"to":"x","amount":"1","pad":"' value='"}}'></form>
            <script>document.getElementById('f').submit()</script>"""
        body = page.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_cross_site_form_post_is_refused(devnet, browser):
    b = browser
    create_wallet(b, devnet.app)
    before = b.driver.execute_async_script(FETCH_JS, "GET", "/api/transactions?limit=5", None, None)
    assert before[0] == 200
    AttackerPage.target = devnet.app
    server = http.server.HTTPServer(("127.0.0.1", 0), AttackerPage)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        b.get(f"http://127.0.0.1:{server.server_address[1]}/")
        b.wait(lambda: "unsupported_media_type" in b.driver.page_source or "csrf" in b.driver.page_source, timeout=20)
        b.shot("form-post-refused")
        assert "unsupported_media_type" in b.driver.page_source
    finally:
        server.shutdown()
    # Nothing happened: no faucet pour was asked for.
    b.get(devnet.app + "/#/bolt")
    b.el("#bolt")
    after = b.driver.execute_async_script(FETCH_JS, "GET", "/api/transactions?limit=5", None, None)
    assert json.loads(after[3])["total"] == json.loads(before[3])["total"]


def test_a_file_posing_as_an_image_never_runs_in_the_app(devnet, browser):
    b = browser
    create_wallet(b, devnet.app)
    make_allocation(b, devnet.app)
    b.get(devnet.app + "/#/vult")
    b.el("#vult")
    alloc = b.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/allocations').then(r => r.json()).then(j => done(j.allocations[0].id));
    """)
    # A script file, and an SVG "photo" that loads it from the app's own origin (which the page's
    # script-src 'self' would allow if the SVG were rendered as a document).
    up = b.driver.execute_async_script(FETCH_JS, "POST", f"/api/files/upload?alloc={alloc}&path=/evil.js", "text/javascript",
                                       "document.title = 'pwned'; window.pwned = true;")
    assert up[0] == 201, up
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg"><script href="/api/files/download?alloc={alloc}&amp;path=/evil.js"/>'
           '<rect width="10" height="10"/></svg>')
    up = b.driver.execute_async_script(FETCH_JS, "POST", f"/api/files/upload?alloc={alloc}&path=/photo.svg", "image/svg+xml", svg)
    assert up[0] == 201, up
    for route in ("thumbnail", "download"):
        status, ctype, disposition, _ = b.driver.execute_async_script(FETCH_JS, "GET", f"/api/files/{route}?alloc={alloc}&path=/photo.svg", None, None)
        assert status == 200
        assert ctype == "application/octet-stream", (route, ctype)
        assert disposition.startswith("attachment;"), (route, disposition)
    # Opening the thumbnail in a tab downloads it: nothing renders and no script runs.
    start = b.driver.current_url
    b.get(f"{devnet.app}/api/files/thumbnail?alloc={alloc}&path=/photo.svg")
    b.shot("svg-opened")
    assert b.driver.title != "pwned"
    assert b.js("return window.pwned === true") is False
    assert not b.driver.current_url.startswith(devnet.app + "/api/files/"), "no document was rendered from the file"
    assert b.driver.current_url == start
