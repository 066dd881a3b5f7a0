"""schemathesis against the /openapi.json of the node, one blobber and the web app of a devnet
with real data in it (a wallet with tokens, an allocation with files, a note, an unlocked app
session). Checks: no answer is a 5xx, and every process is still alive and serving afterwards.

Runs are deterministic enough not to flake: a fixed seed, a bounded number of examples per
operation, one worker (CPython 3.11's AST cache is not thread-safe, and hypothesis trips on it
with several workers)."""
import json
import os
import pathlib
import re
import subprocess
import sys
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMATHESIS = pathlib.Path(sys.executable).parent / "schemathesis"
REPORTS = ROOT / "test-artifacts" / "fuzz"
SEED = int(os.environ.get("MOSAIC_FUZZ_SEED", "20261201"))
EXAMPLES = os.environ.get("MOSAIC_FUZZ_EXAMPLES")


def config(devnet, path):
    """Known ids and paths, mixed in at random so the fuzzer reaches data that exists, not only 404s."""
    ids = [devnet.allocation["id"], devnet.wallet["client_id"], *devnet.blobber_ids, *devnet.hashes]
    paths = ["/", "/hello.txt", "/docs", "/docs/a.bin"]
    quoted = lambda values: "[" + ", ".join(json.dumps(v) for v in values) + "]"
    # The contracts' views, so view calls reach the contracts' own argument checks.
    contracts = ["faucet", "notes", "social", "storage"]
    views = ["status", "notes", "note", "notepad", "stats", "feed", "post", "replies", "votes", "account", "accounts", "account_posts", "account_votes", "grants", "app", "rewards"]
    lines = [f"[dictionaries.ids]\nvalues = {quoted(ids)}", f"[dictionaries.paths]\nvalues = {quoted(paths)}",
             f"[dictionaries.contracts]\nvalues = {quoted(contracts)}", f"[dictionaries.views]\nvalues = {quoted(views)}",
             "[parameters]",
             '"path.contract" = { dictionary = "contracts", probability = 0.7 }',
             '"path.view" = { dictionary = "views", probability = 0.7 }']
    for key in ("path.id", "path.hash", "path.client_id", "query.owner", "query.alloc", "query.allocation",
                "query.blobber", "query.reader", "body.alloc", "body.to"):
        lines.append(f'"{key}" = {{ dictionary = "ids", probability = 0.5 }}')
    for key in ("query.path", "body.path", "body.from"):
        lines.append(f'"{key}" = {{ dictionary = "paths", probability = 0.5 }}')
    path.write_text("\n".join(lines) + "\n")
    return path


def fuzz(devnet, tmp_path, name, base, examples, headers=(), exclude=()):
    """Runs schemathesis on `base`/openapi.json; fails on any 5xx (or a schemathesis error)."""
    REPORTS.mkdir(parents=True, exist_ok=True)
    cmd = [str(SCHEMATHESIS), "--config-file", str(config(devnet, tmp_path / "schemathesis.toml")), "run",
           f"{base}/openapi.json", "--url", base, "--checks", "not_a_server_error",
           "--max-examples", str(EXAMPLES or examples), "--seed", str(SEED), "--workers", "1",
           "--phases", "examples,coverage,fuzzing,stateful", "--request-timeout", "90", "--no-color",
           "--report", "junit", "--report-junit-path", str(REPORTS / f"{name}.xml")]
    for h in headers:
        cmd += ["--header", h]
    for operation in exclude:
        cmd += ["--exclude-operation-id", operation]
    # In the test's own folder: schemathesis keeps a crash cache in .schemathesis/ of its working directory.
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    (REPORTS / f"{name}.log").write_text(out.stdout + out.stderr)
    summary = out.stdout[-3000:]
    assert out.returncode == 0, f"schemathesis found failures on the {name}:\n{out.stdout[-12000:]}\n{out.stderr[-2000:]}"
    assert re.search(r"\d+ generated, \d+ passed", summary), summary
    assert devnet.alive(), f"the devnet died while the {name} was fuzzed:\n{devnet.log_tail()}"


def get(url, headers=None):
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=20) as r:
        return r.status, json.loads(r.read())


def still_serving(devnet):
    """Every server answers, and the app session is still the unlocked one the fuzzer used."""
    assert devnet.alive(), devnet.log_tail()
    assert get(devnet.node + "/health")[0] == 200
    for b in devnet.blobbers:
        assert get(b + "/v1/info")[0] == 200
    status, session = get(devnet.app + "/api/session", {"Cookie": devnet.cookie})
    assert status == 200 and session["state"] == "unlocked", session


def test_node_api_has_no_server_errors_under_fuzzing(devnet, tmp_path):
    # The devnet's time travel moves the ledger clock: the seeded allocation and the session's
    # faucet window would expire under the later runs, and it exists only on devnets.
    fuzz(devnet, tmp_path, "node", devnet.node, 15, exclude=["post_v1_devnet_time"])
    still_serving(devnet)


def test_blobber_api_has_no_server_errors_under_fuzzing(devnet, tmp_path):
    fuzz(devnet, tmp_path, "blobber", devnet.blobbers[0], 15)
    still_serving(devnet)


def test_app_api_has_no_server_errors_under_fuzzing(devnet, tmp_path):
    fuzz(devnet, tmp_path, "app", devnet.app, 8,
         headers=[f"Cookie: {devnet.cookie}", f"X-CSRF-Token: {devnet.csrf}"],
         exclude=[
             # Signing out and switching networks end the session every later request relies on
             # (switching locks every session); both are covered by the Swift app tests.
             "post_api_lock", "post_api_network",
             # Creating or recovering a wallet replaces the session's wallet (and its tokens,
             # allocation and files) with an empty one, and costs an Argon2id hash per call.
             "post_api_wallets", "post_api_wallets_recover",
         ])
    still_serving(devnet)
