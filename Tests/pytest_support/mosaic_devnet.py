"""What the Python suites (Tests/browser, Tests/fuzz) share: child processes of this build that
print a JSON line once they serve, and `mosaic devnet` in a temporary home."""
import json
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = ROOT / ".build" / "debug"
MOSAIC = BUILD / "mosaic"


class ReadyProcess:
    """A child whose first line on standard output is a JSON object, printed once it serves; its
    standard error goes to `log`."""

    def __init__(self, args, log, what, env=None):
        self.log = pathlib.Path(log)
        self.proc = subprocess.Popen([str(a) for a in args], stdout=subprocess.PIPE, stderr=open(self.log, "wb"),
                                     env=env, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{what} did not start: " + self.log.read_text(errors="replace")[-2000:])
        self.ready = json.loads(line)

    def alive(self):
        return self.proc.poll() is None

    def stop(self, timeout=15):
        """SIGTERM; SIGKILL when it has not exited after `timeout` seconds."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Devnet:
    """`mosaic devnet --json` with `flags` in a temporary home, without MOSAIC_PASSPHRASE (pages and
    commands give their own); `stop` ends it with SIGTERM and removes the home."""

    def __init__(self, prefix, *flags):
        self.home = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
        self.env = dict(os.environ, MOSAIC_HOME=str(self.home))
        self.env.pop("MOSAIC_PASSPHRASE", None)
        self.log = self.home / "devnet.log"
        self.process = ReadyProcess(
            [MOSAIC, "devnet", "--dir", self.home / "devnet", "--port", "0", *flags, "--json"], self.log, "devnet", self.env)
        info = self.process.ready
        self.node = info["node"]
        self.app = info["app"]
        self.blobbers = info["blobbers"]

    def alive(self):
        return self.process.alive()

    def log_tail(self, n=4000):
        return self.log.read_text(errors="replace")[-n:]

    def stop(self, keep_log_in=None):
        """Stops the devnet; its log is copied into the folder `keep_log_in` first when given."""
        self.process.stop()
        if keep_log_in is not None:
            keep_log_in.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.log, keep_log_in / "devnet.log")
        shutil.rmtree(self.home, ignore_errors=True)
