"""Drives scripts/testnet from the tests: up/down, faults, and mosaic commands on the client host."""
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "testnet"


class Testnet:
    __test__ = False  # a helper, not a test class, though test modules import it

    def __init__(self, directory=None, instance=None):
        # The testnet folder holds its certificates, server data and the client's MOSAIC_HOME; the
        # files the client uploads and downloads live beside it, in the same folder `down` removes.
        # Its instance id (namespace prefix and subnet) is derived from the folder unless given.
        self.dir = Path(directory or os.environ.get("MOSAIC_TESTNET_DIR", REPO / ".build" / "testnet"))
        self.files = self.dir / "client" / "files"
        self.env = {**os.environ, "MOSAIC_TESTNET_DIR": str(self.dir)}
        if instance is not None:
            self.env["MOSAIC_TESTNET_ID"] = instance

    def script(self, *args, check=True, timeout=600):
        r = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout, env=self.env)
        if check and r.returncode != 0:
            raise AssertionError(f"scripts/testnet {' '.join(args)} exited {r.returncode}:\n{r.stdout}\n{r.stderr}")
        return r

    def up(self):
        self.script("up")
        self.files.mkdir(parents=True, exist_ok=True)

    def state(self):
        """The testnet's state file: its instance id, prefix, subnet, namespaces and processes."""
        return json.loads((self.dir / "state.json").read_text())

    @property
    def subnet(self):
        """The first three bytes of this instance's /24, e.g. "10.213.58"."""
        return self.state()["subnet"]

    def down(self):
        """Keeps the servers' logs in test-artifacts/<testnet folder name>, then removes the testnet."""
        artifacts = REPO / "test-artifacts" / self.dir.name
        shutil.rmtree(artifacts, ignore_errors=True)
        for log in self.dir.glob("*/*.log"):
            (artifacts / log.parent.name).mkdir(parents=True, exist_ok=True)
            shutil.copy(log, artifacts / log.parent.name / log.name)
        self.script("down", check=False)

    def fault(self, host, *fault):
        self.script("fault", host, *fault)

    def mosaic(self, *args, check=True, timeout=600):
        """`mosaic ARGS --json` on the client host; the parsed JSON result."""
        r = self.script("client", *args, "--json", check=False, timeout=timeout)
        if check and r.returncode != 0:
            raise AssertionError(f"mosaic {' '.join(args)} exited {r.returncode}:\n{r.stderr}")
        return json.loads(r.stdout) if r.returncode == 0 and r.stdout.strip() else r

    def start_mosaic(self, *args):
        """`mosaic ARGS --json` on the client host in the background; finish it with `finish`."""
        return subprocess.Popen([str(SCRIPT), "client", *args, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=self.env)

    @staticmethod
    def finish(proc, timeout=600):
        """Waits for a `start_mosaic` command; its parsed JSON result (it must have succeeded)."""
        out, err = proc.communicate(timeout=timeout)
        assert proc.returncode == 0, f"mosaic exited {proc.returncode}:\n{err}"
        return json.loads(out)

    def fragment_bytes(self, host):
        """Bytes in a blobber's fragment store (committed and in-progress uploads)."""
        root = self.dir / host / "data" / "fragments"
        return sum(f.stat().st_size for f in root.rglob("*") if f.is_file())

    def wait_for_growth(self, host, grown, proc):
        """Waits until a blobber's fragments grew by `grown` bytes while `proc` still runs: the
        transfer is under way. Fails if the command ended first."""
        start = self.fragment_bytes(host)
        for _ in range(3000):
            if self.fragment_bytes(host) - start >= grown:
                return
            assert proc.poll() is None, f"the transfer ended before {host} received {grown} bytes: {proc.stderr.read()}"
            time.sleep(0.05)
        raise AssertionError(f"{host} did not receive {grown} bytes")

    def node_get(self, path):
        """GET PATH from the node, from the client host over TLS (the testnet's CA); the parsed JSON."""
        r = self.script("exec", "client", "curl", "-sSf", "--cacert", str(self.dir / "tls" / "ca.pem"),
                        f"https://{self.subnet}.10:7100{path}")
        return json.loads(r.stdout)

    def bytes_sent(self, host):
        """Bytes a host has sent through its throttle (the tbf qdisc on its eth0, `rate` on)."""
        out = self.script("exec", host, "tc", "-s", "qdisc", "show", "dev", "eth0").stdout
        return int(out.split(" Sent ", 1)[1].split()[0])

    def blobber_id(self, host):
        """The ledger id of a blobber host (printed when it started)."""
        return json.loads((self.dir / "state.json").read_text())["blobber_ids"][host]

    @staticmethod
    def host_of(url):
        """The testnet host a blobber URL points at: https://10.213.58.13:5051 -> b3."""
        octet = int(url.split("//")[1].split(":")[0].rsplit(".", 1)[1])
        return f"b{octet - 10}"

    def make_file(self, name, size):
        """A file of SIZE pseudo-random bytes in the client's folder; its path and SHA-256."""
        path = self.files / name
        h = hashlib.sha256()
        with open(path, "wb") as out:
            seed = hashlib.sha256(name.encode()).digest()
            block = b""
            written = 0
            while written < size:
                seed = hashlib.sha256(seed).digest()
                block = hashlib.shake_256(seed).digest(min(1 << 20, size - written))
                out.write(block)
                h.update(block)
                written += len(block)
        return path, h.hexdigest()

    def download_digest(self, remote, *args):
        """Downloads REMOTE on the client host to a fresh file; the SHA-256 of what arrived."""
        return self.download(remote, *args)[0]

    def download(self, remote, *args):
        """Downloads REMOTE on the client host to a fresh file: the SHA-256 of what arrived and the
        command's JSON result (its `dropped` blobbers)."""
        local = Path(tempfile.mktemp(dir=self.files, prefix="down-"))
        done = self.mosaic("download", remote, str(local), *args)
        try:
            return sha256(local), done
        finally:
            local.unlink()


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
