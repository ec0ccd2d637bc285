"""End to end in a real browser: JupyterLab runs a lesson and the transcript stepper renders.

Starts JupyterLab on a free loopback port with a fixed token, in a temporary root holding a copy
of lesson 2, drives Debian's headless Chromium with Playwright through Run > Run All Cells, and
checks that the stepper (CSS class `alk-transcript`) appears, steps, and that no cell wrote an
error. A screenshot goes to test-artifacts/. Every wait is bounded. Skipped, saying why, when
/usr/bin/chromium is absent (`make test` installs it where it can).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "lessons" / "02_one_tool.ipynb"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
TOKEN = "agent-loop-kit-browser-test"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# No news and no update checks: the page must not wait on the internet, and no popup may cover it.
LAB_SETTINGS = {"@jupyterlab/apputils-extension/notification.jupyterlab-settings":
                {"fetchNews": "false", "checkForUpdates": False}}

# True when every code cell shows an execution count and none is still running ("[*]").
ALL_CELLS_RAN = """() => {
    const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
    return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
}"""

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists(),
                                 reason="needs Debian's chromium at /usr/bin/chromium "
                                        "(apt-get install chromium; `make test` does it as root)")]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(url: str, server: subprocess.Popen, *, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with code {server.returncode}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    raise TimeoutError(f"JupyterLab did not answer {url} within {seconds} s")


@pytest.fixture
def lab(tmp_path):
    """A JupyterLab server on loopback serving a copy of lesson 2; yields its base URL."""
    root, settings = tmp_path / "root", tmp_path / "settings"
    root.mkdir()
    shutil.copy(LESSON, root / LESSON.name)
    for name, value in LAB_SETTINGS.items():
        path = settings / name
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(value))
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.endswith("_API_KEY")}
    env |= {"JUPYTERLAB_SETTINGS_DIR": str(settings),
            "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
            "JUPYTER_PLATFORM_DIRS": "1", "AGENT_LOOP_KIT_PROVIDER": "anthropic"}
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
               "--ip=127.0.0.1", f"--ServerApp.root_dir={root}",
               f"--IdentityProvider.token={TOKEN}", "--ServerApp.open_browser=False",
               "--ServerApp.port_retries=0"]
    if os.geteuid() == 0:
        command.append("--allow-root")  # JupyterLab refuses root without it (containers, CI)
    log = (tmp_path / "lab.log").open("w")
    server = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(f"{base}/api/status?token={TOKEN}", server)
        yield base
    finally:
        # Our server and the kernels it started share its process group.
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)
        log.close()


def test_a_lesson_runs_in_jupyterlab_and_the_stepper_renders(lab):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    screenshot = ARTIFACTS / "browser_02_one_tool.png"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)
            page.goto(f"{lab}/lab/tree/{LESSON.name}?token={TOKEN}", timeout=90_000)
            page.locator(".jp-NotebookPanel .jp-Notebook").wait_for()
            page.locator("#jp-main-statusbar").get_by_text("Idle").wait_for(timeout=90_000)
            page.get_by_role("menuitem", name="Run", exact=True).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()

            stepper = page.locator(".alk-transcript")
            stepper.wait_for(timeout=120_000)
            stepper.scroll_into_view_if_needed()
            assert "call 1, tool_choice=auto" in stepper.inner_text()
            stepper.get_by_role("button", name="next").click()
            page.wait_for_function(
                "() => document.querySelector('.alk-transcript').innerText.includes('call 2,')",
                timeout=10_000)
            page.screenshot(path=str(screenshot))

            # Wait for the last cell to finish, then look for any error output in the page.
            page.wait_for_function(ALL_CELLS_RAN, timeout=120_000)
            errors = page.locator('.jp-OutputArea-output[data-mime-type='
                                  '"application/vnd.jupyter.stderr"]')
            assert errors.count() == 0, errors.first.inner_text()
        finally:
            browser.close()
    assert screenshot.stat().st_size > 10_000
