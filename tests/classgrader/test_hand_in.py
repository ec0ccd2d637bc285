"""Every way a class hands in, end to end, then graded by the class grader: nbgrader's exchange
from the students' JupyterLab (two students, each with a server of their own on the students'
config, fetching and submitting through the Assignments tab's server API; the instructor releases
and collects), a Canvas download through `nbgrader zip_collect` with the roster's mapping, and
copies by hand. Then the grades go back to Canvas in its gradebook's layout.

On a hub each student's server runs as their own user, and nbgrader names a submission by that
user; here the servers run as one user, so each student's own nbgrader_config.py names them
(`CourseDirectory.student_id`), which is what nbgrader's exchange reads first."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import httpx
import nbformat
import pytest

from classgrader import hostile
from classgrader.hostile import reference

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = "01_message_ordering"
COURSE_ID = "agent-loop-kit"
TOKEN = "hand-in-test"
ROSTER = [("ada", "101", "Ada Byron"), ("bob", "102", "Bob Stone"),
          ("cara", "103", "Cara Diaz"), ("dan", "104", "Dan Egan"), ("eve", "105", "Eve Fox")]


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class StudentServer:
    """One student's JupyterLab on the students' config (etc/jupyter), in a home of their own."""

    def __init__(self, home: Path, student: str, exchange: Path):
        home.mkdir(parents=True)
        (home / "nbgrader_config.py").write_text(
            f"c = get_config()\nc.Exchange.root = {str(exchange)!r}\n"
            f"c.CourseDirectory.course_id = {COURSE_ID!r}\n"
            f"c.CourseDirectory.student_id = {student!r}\n")
        self.home, self.port = home, _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**hostile.environment(), "HOME": str(home),
               "JUPYTER_CONFIG_PATH": str(ROOT / "etc" / "jupyter")}
        self.process = subprocess.Popen(
            [str(Path(sys.executable).parent / "jupyter"), "lab", "--no-browser",
             f"--port={self.port}", "--ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}",
             f"--ServerApp.root_dir={home}", "--allow-root"],
            cwd=home, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def wait(self) -> None:
        import time

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/status", headers=self.auth).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.3)
        raise AssertionError(f"the student's JupyterLab did not start on {self.url}")

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"token {TOKEN}"}

    def get(self, path: str) -> httpx.Response:
        return httpx.get(f"{self.url}{path}", headers=self.auth, timeout=60)

    def action(self, action: str) -> list[dict]:
        """What the Assignments tab's Fetch and Submit buttons post."""
        reply = httpx.post(f"{self.url}/assignments/{action}", headers=self.auth, timeout=60,
                           json={"course_id": COURSE_ID, "assignment_id": EXERCISE})
        assert reply.status_code == 200, reply.text
        return reply.json()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


def _nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    done = hostile.nbgrader(course, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def _canvas_zip(course: Path) -> None:
    """Canvas's "Download Submissions": one zip, files named name_[LATE_]id_fileid_original."""
    folder = course / "downloaded" / EXERCISE / "archive"
    folder.mkdir(parents=True)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(f"diazcara_103_5551_{EXERCISE}.ipynb",
                         nbformat.writes(reference(EXERCISE, "cara")))
        archive.writestr(f"egandan_LATE_104_5552_{EXERCISE}-1.ipynb",  # handed in again
                         nbformat.writes(reference(EXERCISE, "dan")))
    (folder / "submissions.zip").write_bytes(buffer.getvalue())
    with open(course / "roster.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student_id", "canvas_id", "name"])
        writer.writerows(ROSTER)


@pytest.fixture(scope="module")
def handed_in(tmp_path_factory):
    where = tmp_path_factory.mktemp("hand-in")
    exchange = where / "exchange"
    exchange.mkdir(mode=0o777)
    # The students' servers start while the course is built: each takes seconds to start.
    servers = {s: StudentServer(where / "home" / s, s, exchange) for s in ("ada", "bob")}
    try:
        course = hostile.course(where)
        with open(course / "nbgrader_config.py", "a") as config:
            config.write(f"\nc.Exchange.root = {str(exchange)!r}\n")
        _nbgrader(course, "release_assignment", EXERCISE)
        listed = {}
        for student, server in servers.items():
            server.wait()
            listed[student] = server.get(f"/assignments?course_id={COURSE_ID}").json()
            server.action("fetch")
            nbformat.write(reference(EXERCISE, student),
                           server.home / EXERCISE / f"{EXERCISE}.ipynb")  # the student's work
            server.action("submit")
        pages = {path: servers["ada"].get(path).status_code
                 for path in ("/formgrader", "/assignments?course_id=" + COURSE_ID)}
        servers["bob"].stop()
        _nbgrader(course, "collect", EXERCISE)
        _canvas_zip(course)
        collected = _nbgrader(course, "zip_collect", EXERCISE,
                              "--collector=grader.lms.CanvasCollector",
                              "--CanvasCollector.roster=roster.csv")
        hostile.hand_in(course, "eve", EXERCISE, reference(EXERCISE, "eve"))
        graded = hostile.batch(course, EXERCISE, "--jobs", "2")
        _nbgrader(course, "export", "--exporter=grader.lms.CanvasExport",
                  "--CanvasExport.roster=roster.csv", "--to", "canvas.csv",
                  f"--CanvasExport.assignment_ids={{'{EXERCISE}': 777}}")
        yield course, listed, pages, collected, graded, servers
    finally:
        for server in servers.values():
            server.stop()


def test_students_fetch_and_submit_from_the_assignments_tab(handed_in):
    course, listed, pages, _, _, _ = handed_in
    for student in ("ada", "bob"):
        assert [a["assignment_id"] for a in listed[student]["value"]] == [EXERCISE], listed
        folder = course / "submitted" / student / EXERCISE
        assert (folder / f"{EXERCISE}.ipynb").exists() and (folder / "timestamp.txt").exists()
    assert pages == {"/formgrader": 404, f"/assignments?course_id={COURSE_ID}": 200}


def test_a_canvas_download_is_collected_through_the_roster(handed_in):
    course, _, _, collected, _, _ = handed_in
    for student in ("cara", "dan"):  # dan's file was "...-1.ipynb": its own name again
        assert (course / "submitted" / student / EXERCISE / f"{EXERCISE}.ipynb").exists()
    assert "files skipped" not in collected.stdout + collected.stderr


def test_every_path_is_graded(handed_in):
    course, _, _, _, graded, _ = handed_in
    assert graded.returncode == 0, graded.stdout + graded.stderr
    scores = hostile.scores(course)
    full = hostile.max_points(EXERCISE)
    for student, _, _ in ROSTER:
        assert scores[(student, EXERCISE)] == full, (student, scores.get((student, EXERCISE)))
    missing = [line for line in graded.stdout.splitlines() if "never handed in" in line]
    assert not any(f"/{EXERCISE}" in line for line in missing), missing  # only 02 to 05


def test_grades_go_back_to_canvas_in_its_gradebooks_layout(handed_in):
    course = handed_in[0]
    rows = list(csv.reader((course / "canvas.csv").read_text().splitlines()))
    total = f"{sum(hostile.max_points(EXERCISE).values()):g}"
    assert rows[0][:6] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                           f"{EXERCISE} (777)"]
    assert rows[1][0] == "Points Possible" and rows[1][5] == total
    assert {(r[0], r[1], r[5]) for r in rows[2:]} == {(name, canvas, total)
                                                      for _, canvas, name in ROSTER}
    assert {r[6] for r in rows[2:]} == {""}  # 02: never handed in, blank (Canvas: missing)


def test_the_assignments_tab_opens_in_the_students_jupyterlab(handed_in):
    test_browser = pytest.importorskip("test_browser")
    if not test_browser.CHROMIUM.exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium")
    server = handed_in[5]["ada"]
    with test_browser.browser_page() as page:
        page.goto(f"{server.url}/lab?token={TOKEN}", timeout=90_000)
        bar = page.locator("#jp-menu-panel .lm-MenuBar-itemLabel")
        bar.get_by_text("Assignments", exact=True).click()
        page.locator(".lm-Menu-itemLabel").get_by_text("Assignment List", exact=True).click()
        tab = page.locator("#nbgrader-assignment-list")
        tab.get_by_text("Downloaded assignments", exact=True).wait_for()
        tab.get_by_text(EXERCISE, exact=True).first.wait_for()  # fetched, from this tab's API
        page.screenshot(path=str(test_browser.ARTIFACTS / "browser_assignments_tab.png"))
        menus = bar.all_inner_texts()
    assert not any("nbgrader" in m.lower() for m in menus), menus  # no instructor menu
    assert os.path.exists(test_browser.ARTIFACTS / "browser_assignments_tab.png")
