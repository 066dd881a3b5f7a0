"""A real devnet (node, blobbers, web app) with data in it, for the API fuzz tests."""
import json
import os
import pathlib
import sys
import urllib.error
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "pytest_support"))
import mosaic_devnet  # noqa: E402

ARTIFACTS = mosaic_devnet.ROOT / "test-artifacts" / "fuzz"
PASSPHRASE = "fuzz passphrase 1"


class Devnet(mosaic_devnet.Devnet):
    """Three blobbers and the web app, sealed after one confirmation; the app's API as a page uses it."""

    def __init__(self):
        super().__init__("mosaic-fuzz-", "--app-port", "0", "--blobbers", "3", "--block-time", "200ms", "--confirmations", "1")
        self.cookie = None
        self.csrf = None

    # The app's API as the page uses it: the session cookie and its CSRF token.
    def app_call(self, method, path, body=None, raw=None, content_type=None, timeout=120):
        headers = {}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if self.csrf and method not in ("GET", "HEAD"):
            headers["X-CSRF-Token"] = self.csrf
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        elif raw is not None:
            data = raw
            headers["Content-Type"] = content_type or "application/octet-stream"
        req = urllib.request.Request(self.app + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                status, text, cookie = r.status, r.read(), r.headers.get("Set-Cookie")
        except urllib.error.HTTPError as e:
            status, text, cookie = e.code, e.read(), None
        if cookie and not self.cookie:
            self.cookie = cookie.split(";", 1)[0]
        try:
            return status, json.loads(text) if text else None
        except ValueError:
            return status, text

    def expect(self, want, method, path, **kw):
        status, body = self.app_call(method, path, **kw)
        if status != want:
            raise RuntimeError(f"{method} {path} answered {status}: {body}")
        return body

    def seed(self):
        """A wallet with tokens, an allocation with files and folders, a note; the session stays unlocked."""
        session = self.expect(200, "GET", "/api/session")
        self.csrf = session["csrf"]
        self.wallet = self.expect(201, "POST", "/api/wallets", body={"passphrase": PASSPHRASE, "passphrase_confirm": PASSPHRASE})
        for _ in range(2):
            pour = self.expect(202, "POST", "/api/faucet")
            self.expect(200, "GET", f"/api/transactions/{pour['hash']}/wait?until=sealed&timeout=30")
        self.allocation = self.expect(201, "POST", "/api/allocations",
                                      body={"name": "fuzz", "data_shards": 2, "parity_shards": 1, "size": "64MiB",
                                            "expire": "30d", "lock": "0.5"})
        alloc = self.allocation["id"]
        self.expect(201, "POST", f"/api/files/upload?alloc={alloc}&path=/hello.txt", raw=b"hello fuzzer\n" * 100,
                    content_type="text/plain")
        self.expect(201, "POST", "/api/files/mkdir", body={"alloc": alloc, "path": "/docs"})
        self.expect(201, "POST", f"/api/files/upload?alloc={alloc}&path=/docs/a.bin", raw=os.urandom(70000))
        note = self.expect(202, "POST", "/api/notes", body={"title": "fuzz", "body": "a note"})
        self.expect(200, "GET", f"/api/transactions/{note['hash']}/wait?until=sealed&timeout=30")
        self.hashes = [pour["hash"], note["hash"]]
        with urllib.request.urlopen(self.node + "/v1/storage/blobbers", timeout=20) as r:
            self.blobber_ids = [b["id"] for b in json.loads(r.read())["blobbers"]]

    def stop(self):
        super().stop(keep_log_in=ARTIFACTS)
