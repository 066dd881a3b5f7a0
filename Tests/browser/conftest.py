"""Browser tests: a real devnet (node, blobbers, web app) on loopback, driven by headless Chromium."""
import json
import pathlib
import re
import subprocess
import sys

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "pytest_support"))
import mosaic_devnet  # noqa: E402

MOSAIC = mosaic_devnet.MOSAIC
EXAMPLE_APP = mosaic_devnet.BUILD / "example-social-app"
ARTIFACTS = mosaic_devnet.ROOT / "test-artifacts" / "browser"


class Devnet(mosaic_devnet.Devnet):
    """The devnet's defaults (blobbers, web app), a block every 300 ms; `cli` runs mosaic commands in its home."""

    def __init__(self):
        super().__init__("mosaic-browser-", "--block-time", "300ms")

    def cli(self, *args, passphrase=None):
        env = dict(self.env)
        if passphrase:
            env["MOSAIC_PASSPHRASE"] = passphrase
        out = subprocess.run([str(MOSAIC), *args, "--json"], env=env, capture_output=True, text=True, timeout=60)
        return json.loads(out.stdout) if out.stdout.strip() else {"stderr": out.stderr}


@pytest.fixture
def devnet():
    d = Devnet()
    yield d
    d.stop()


class ExampleApp:
    """examples/social-app as a child process against the devnet: registers itself, then serves."""

    def __init__(self, devnet, name="example-social-app"):
        folder = devnet.home / name
        self.process = mosaic_devnet.ReadyProcess(
            [EXAMPLE_APP, "--dir", folder, "--node", devnet.node, "--mosaic", devnet.app, "--name", name, "--scopes", "vote",
             "--json"], devnet.home / f"{name}.log", "example app")
        info = self.process.ready
        self.url, self.name, self.client_id = info["url"], info["app"], info["client_id"]

    def stop(self):
        self.process.stop(timeout=10)


@pytest.fixture
def example_app(devnet):
    a = ExampleApp(devnet)
    yield a
    a.stop()


class Browser:
    """A headless Chromium with helpers that wait for elements and save a screenshot of every page."""

    def __init__(self, test_name, profile_dir, extra_flags=()):
        opts = webdriver.ChromeOptions()
        opts.binary_location = "/usr/bin/chromium"
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                     f"--user-data-dir={profile_dir}", *extra_flags):
            opts.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
        self.driver.set_page_load_timeout(30)
        self.dir = ARTIFACTS / re.sub(r"[^A-Za-z0-9_.-]", "_", test_name)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.shots = 0

    def get(self, url):
        self.driver.get(url)

    def el(self, css, timeout=20):
        return WebDriverWait(self.driver, timeout).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))

    def click(self, css, timeout=20):
        e = WebDriverWait(self.driver, timeout).until(EC.element_to_be_clickable((By.CSS_SELECTOR, css)))
        e.click()
        return e

    def type(self, css, text, clear=True):
        e = self.el(css)
        if clear:
            e.clear()
        e.send_keys(text)
        return e

    def text_of(self, css, timeout=20):
        return self.el(css, timeout).text

    def wait_text(self, css, predicate, timeout=30):
        def check(_):
            try:
                t = self.driver.find_element(By.CSS_SELECTOR, css).text
                return t if predicate(t) else False
            except Exception:
                return False
        return WebDriverWait(self.driver, timeout, poll_frequency=0.2).until(check)

    def wait(self, predicate, timeout=30):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.2).until(lambda d: predicate())

    def shot(self, name):
        self.shots += 1
        self.driver.save_screenshot(str(self.dir / f"{self.shots:02d}-{name}.png"))

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def quit(self):
        self.driver.quit()


@pytest.fixture
def browser(request, tmp_path):
    b = Browser(request.node.name, tmp_path / "profile")
    yield b
    try:
        b.shot("end")
    finally:
        b.quit()


@pytest.fixture
def second_browser(request, tmp_path):
    b = Browser(request.node.name + "-second", tmp_path / "profile2")
    yield b
    b.quit()


@pytest.fixture
def rebinding_browser(request, tmp_path):
    """A browser whose DNS sends rebind.test to 127.0.0.1, as an attacker's rebinding name would."""
    b = Browser(request.node.name + "-rebinding", tmp_path / "profile-rebinding",
                extra_flags=("--host-resolver-rules=MAP rebind.test 127.0.0.1",))
    yield b
    try:
        b.shot("end")
    finally:
        b.quit()
