"""End to end in a real browser: the students' JupyterLab, as `make lab` starts it.

Starts JupyterLab once, on a free loopback port with a fixed token and the options of the
Makefile's `lab` recipe (read from the Makefile, so the test follows it), in a temporary kit
holding copies of lessons/, exercises/ and solutions/, after `python -m course copies` has made
the student's copies in its my_work/, where the lab opens; each test opens its page in a
workspace of its own. Drives Debian's headless Chromium with Playwright: the
file browser shows the lessons and the exercises, an exercise opens from it, no instructor tool
is on screen, lesson 2 runs through Run > Run All Cells with its transcript stepper (CSS class
`alk-transcript`) rendering and stepping, and no cell writing an error, a lesson whose
your-turn cell holds a wrong piece shows the check's first divergence, and the feedback page of
a notebook whose outputs carry scripts (the hostile corpus's scripts_in_outputs) runs none of
them, where the same page unsanitised runs each. Screenshots go to
test-artifacts/. Every wait is bounded. Skipped, saying why, when /usr/bin/chromium is absent
(`make test` installs it where it can).
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
LESSON = Path("lessons") / "02_one_tool.ipynb"
EXERCISE = "02_early_exit"
COPIED = ("lessons", "exercises", "solutions")  # solutions/ is there to be hidden
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
TOKEN = "agent-loop-kit-browser-test"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# No user settings at all: the students' config (etc/jupyter) must itself turn off the news.
LAB_SETTINGS: dict[str, dict[str, object]] = {}

# True when every code cell shows an execution count and none is still running ("[*]").
ALL_CELLS_RAN = """() => {
    const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
    return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
}"""

in_browser = [pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists(),
                                 reason="needs Debian's chromium at /usr/bin/chromium "
                                        "(apt-get install chromium; `make test` does it as root)")]


def browser_test(test):
    for mark in in_browser:
        test = mark(test)
    return test


@contextlib.contextmanager
def browser_page(*, width: int = 1400, height: int = 1000) -> Iterator[Any]:
    """A page of Debian's headless Chromium, driven by Playwright; waits bounded to 60 s."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.set_default_timeout(60_000)
            yield page
        finally:
            browser.close()


def run_all(page: Any, url: str) -> None:
    """Open a notebook in JupyterLab, wait for its kernel, then Run > Run All Cells."""
    page.goto(url, timeout=90_000)
    page.locator(".jp-NotebookPanel .jp-Notebook").wait_for()
    page.locator("#jp-main-statusbar").get_by_text("Idle").wait_for(timeout=90_000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


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


def lab_recipe() -> tuple[dict[str, str], list[str]]:
    """The environment and the options that the Makefile's `lab` recipe gives `jupyter lab`."""
    recipe = re.search(r"^lab:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)
    assert recipe, "the Makefile has no lab recipe"
    text = recipe.group(1).replace("\\\n", " ").replace("$(CURDIR)", "{root}")
    env = dict(re.findall(r"\b([A-Z_]+)=(\S+)", text.split("jupyter lab")[0]))
    return env, re.findall(r"(--\S+=\S+)", text)


def test_make_lab_uses_the_students_config_and_opens_on_the_lessons():
    env, options = lab_recipe()
    assert env == {"JUPYTER_CONFIG_PATH": "{root}/etc/jupyter"}
    assert "--ServerApp.root_dir={root}/my_work" in options
    assert "--LabApp.default_url=/lab/tree/lessons" in options


class Lab(NamedTuple):
    url: str
    root: Path
    """The server's root: the student's copies (my_work/ of a copied kit), which a test may
    change."""

    def tree(self, path: str, workspace: str) -> str:
        """The page of `path` in a workspace of its own: the server is shared, and JupyterLab
        would otherwise reopen what an earlier test left open."""
        return f"{self.url}/lab/workspaces/{workspace}/tree/{path}?token={TOKEN}"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on loopback as `make lab` starts it, over copies of the course folders; one
    server for the module's tests (each opens its own notebook)."""
    tmp_path = tmp_path_factory.mktemp("lab")
    root, settings = tmp_path / "root", tmp_path / "settings"
    for folder in COPIED:
        shutil.copytree(ROOT / folder, root / folder)
    subprocess.run([sys.executable, "-m", "course", "copies", "--root", str(root)], check=True,
                   capture_output=True)
    settings.mkdir()
    for name, value in LAB_SETTINGS.items():
        path = settings / name
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(value))
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.endswith("_API_KEY")}
    recipe_env, options = lab_recipe()
    env |= {name: value.format(root=ROOT) for name, value in recipe_env.items()}
    env |= {"JUPYTERLAB_SETTINGS_DIR": str(settings),
            "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
            "JUPYTER_PLATFORM_DIRS": "1", "AGENT_LOOP_KIT_PROVIDER": "anthropic"}
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
               "--ip=127.0.0.1", *(option.format(root=root) for option in options),
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
        yield Lab(base, root / "my_work")
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


@browser_test
def test_the_file_browser_holds_lessons_and_exercises_and_no_instructor_tools(lab):
    listing = httpx.get(f"{lab.url}/api/contents?token={TOKEN}").json()
    names = {item["name"] for item in listing["content"]}
    assert {"lessons", "exercises"} <= names and "solutions" not in names, names
    assert httpx.get(f"{lab.url}/formgrader?token={TOKEN}").status_code == 404
    # No news pop-up: the students' config turns the news and update checks off.
    news = httpx.get(f"{lab.url}/lab/api/settings/@jupyterlab/apputils-extension:notification"
                     f"?token={TOKEN}").json()
    defaults = {key: value.get("default") for key, value in news["schema"]["properties"].items()}
    assert (defaults["fetchNews"], defaults["checkForUpdates"]) == ("false", False), defaults

    with browser_page() as page:
        page.goto(lab.tree("lessons", "file-browser"), timeout=90_000)
        files = page.locator(".jp-DirListing-content")
        files.get_by_text("01_messages.ipynb").wait_for()  # opens on lessons/
        page.locator(".jp-BreadCrumbs-home").click()
        files.get_by_text("exercises", exact=True).dblclick()
        files.get_by_text(EXERCISE, exact=True).dblclick()
        files.get_by_text(f"{EXERCISE}.ipynb", exact=True).dblclick()
        page.locator(".jp-NotebookPanel .jp-Notebook").wait_for()
        page.locator(".jp-NotebookPanel").get_by_text("def run_loop").first.wait_for()
        page.screenshot(path=str(ARTIFACTS / "browser_file_browser.png"))
        menus = page.locator("#jp-menu-panel .lm-MenuBar-itemLabel").all_inner_texts()
        assert "File" in menus and not any("nbgrader" in m.lower() for m in menus), menus
        palette = page.locator("body").inner_text().lower()
        for instructor_tool in ("formgrader", "create assignment", "course list"):
            assert instructor_tool not in palette, instructor_tool


@browser_test
def test_a_lesson_runs_in_jupyterlab_and_the_stepper_renders(lab):
    screenshot = ARTIFACTS / "browser_02_one_tool.png"
    with browser_page() as page:
        run_all(page, lab.tree(LESSON.as_posix(), "stepper"))

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
    assert screenshot.stat().st_size > 10_000


def feedback_page(path: Path, message: str) -> Path:
    """A feedback page as `nbgrader generate_feedback` writes it (its template and CSS, and the
    preprocessors nbgrader_config.py names) for one failed graded cell showing `message`."""
    from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor

    from grader.nbgrader_plugins import WrapLongLines

    cell = nbformat.v4.new_code_cell("check.run_loop_exits(run_loop)")
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": "run_loop_exits", "points": 2,
                                 "score": 0, "solution": False, "locked": True}
    cell.outputs = [nbformat.v4.new_output("error", ename="CheckFailed", evalue=message,
                                           traceback=[message])]
    notebook = nbformat.v4.new_notebook(cells=[cell])
    assert "grader.nbgrader_plugins.WrapLongLines" in (ROOT / "nbgrader_config.py").read_text()
    return render_feedback(notebook, path, [CSSHTMLHeaderPreprocessor(), WrapLongLines()])


def render_feedback(notebook: Any, path: Path, steps: list[Any]) -> Path:
    """`notebook` as nbgrader's feedback page (its template and CSS), after the preprocessors
    `steps` (as nbgrader registers them), written to `path`."""
    import nbgrader
    from nbconvert.exporters import HTMLExporter

    templates = Path(nbgrader.__file__).parent / "server_extensions" / "formgrader"
    exporter = HTMLExporter(template_name="feedback",
                            extra_template_basedirs=[str(templates / "templates")],
                            extra_template_paths=[str(templates / "static" / "node_modules" /
                                                      "bootstrap" / "dist" / "css")])
    resources = {"nbgrader": {"notebook": "02_early_exit", "score": 0, "max_score": 2,
                              "late_penalty": 0}, "config_dir": str(path.parent)}
    for step in steps:
        exporter.register_preprocessor(step, enabled=True)
    body, _ = exporter.from_notebook_node(notebook, resources=resources)
    path.write_text(body)
    return path


@browser_test
def test_feedback_wraps_a_long_check_message_so_the_lesson_is_on_screen(tmp_path):
    message = ("scenario bench_press_capped, call 3: the reference sent 7 messages and yours "
               "sent 6; the results of call 2 never went back to the model. " * 2
               + "Reread lessons/03_the_loop.ipynb, section 'What goes back'.")
    page_path = feedback_page(tmp_path / "feedback.html", message)
    with browser_page(width=1000, height=800) as page:
        page.goto(page_path.as_uri())
        hint = page.get_by_text("lessons/03_the_loop.ipynb").first
        box = hint.bounding_box()
        page.screenshot(path=str(ARTIFACTS / "browser_feedback.png"))
        scrolls = page.evaluate("() => [...document.querySelectorAll('pre')].some("
                                "p => p.scrollWidth > p.clientWidth + 1)")
    assert box is not None and box["x"] + box["width"] <= 1000, box
    assert not scrolls, "an output line still runs past its box"


@browser_test
def test_a_wrong_piece_shows_its_first_divergence_in_the_lesson(lab):
    # The learner's copy of lesson 01 with a typical wrong `ask` written into its your-turn cell.
    path = lab.root / "lessons" / "01_messages.ipynb"
    notebook = nbformat.read(path, as_version=4)
    wrong = (ROOT / "tests" / "practice_wrong" / "ask__sends_only_the_question.py").read_text()
    cells = [c for c in notebook.cells
             if "your-turn" in c.metadata.get("tags", []) and "def ask(" in c.source]
    assert len(cells) == 1, "lesson 01 has one your-turn cell for ask"
    cells[0].source = wrong
    nbformat.write(notebook, path)
    with browser_page() as page:
        run_all(page, lab.tree("lessons/01_messages.ipynb", "wrong-piece"))
        page.wait_for_function(ALL_CELLS_RAN, timeout=120_000)
        # The check cell's output, read once it holds the whole message.
        text = page.wait_for_function("""() => {
            const out = [...document.querySelectorAll('.jp-OutputArea-output')]
                .find(o => o.textContent.includes('[differs] ask'));
            return out && out.textContent.includes('yours:') ? out.textContent : null;
        }""", timeout=60_000).json_value()
        page.screenshot(path=str(ARTIFACTS / "browser_wrong_piece.png"))
    assert "reference:" in text and "yours:" in text and "Reread" in text, text
    assert "message 0" in text, text  # the first divergence: what the model was sent first


def scripts_that_ran(page: Any, url: str) -> set[str]:
    """The payloads of tests/classgrader/hostile/scripts_in_outputs.py that ran in the page at
    `url` (each pushes its name onto `window.pwned`): on load, and on a click of each link, one
    link per visit (a link may leave the page, and what ran with it)."""
    page.goto(url)
    page.wait_for_timeout(500)  # onload and onerror handlers, the iframe
    ran = set(page.evaluate("() => window.pwned || []"))
    for link in range(page.locator("a[href]").count()):
        page.goto(url)
        page.evaluate(f"() => document.querySelectorAll('a[href]')[{link}].click()")
        page.wait_for_timeout(300)
        with contextlib.suppress(Exception):  # the link left the page: nothing ran there
            ran |= set(page.evaluate("() => window.pwned || []"))
    return ran


@browser_test
def test_no_script_in_a_students_outputs_runs_in_the_feedback_page(tmp_path):
    from classgrader.hostile import scripts_in_outputs as attack
    from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor

    from grader.nbgrader_plugins import SanitizeOutputs

    cell = nbformat.v4.new_code_cell("show_everything()")
    cell.outputs = [nbformat.v4.new_output("display_data", data=data, metadata=metadata)
                    for _, data, metadata in attack.PAYLOADS]
    notebook = nbformat.v4.new_notebook(cells=[cell, nbformat.v4.new_markdown_cell(
        attack.MARKDOWN)])
    raw = render_feedback(copy.deepcopy(notebook), tmp_path / "raw.html",
                          [CSSHTMLHeaderPreprocessor()])
    safe = render_feedback(notebook, tmp_path / "feedback.html",
                           [SanitizeOutputs(), CSSHTMLHeaderPreprocessor()])
    assert "grader.nbgrader_plugins.SanitizeOutputs" in (ROOT / "nbgrader_config.py").read_text()
    with browser_page() as page:
        live, ran = scripts_that_ran(page, raw.as_uri()), scripts_that_ran(page, safe.as_uri())
    # The page is nbconvert's classic one, offline: an SVG shows as an image there (no script of
    # its runs) and a JavaScript output needs jQuery from a CDN. JupyterLab runs both.
    offline = {name for name, _, _ in attack.PAYLOADS} - {"svg-script", "application-javascript"}
    assert live == offline | {"markdown-cell", "markdown-cell-link"}  # unsanitised, they run
    assert ran == set()
