"""Feedback pages as `nbgrader generate_feedback` writes them in a kit course wrap a long check
message: a tiny course (one test whose message is two long lines) graded by plain nbgrader (the
code is the test's own), its feedback opened in headless Chromium. The same page made without the
kit's `WrapLongLines` runs past the window, so the test sees what the setting does."""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from classgrader import hostile

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
HINT = "Reread lessons/03_the_loop.ipynb, section 'What goes back'."
MESSAGE = ("scenario bench_press_capped, call 3: the reference sent 7 messages and yours sent 6; "
           "the results of call 2 never went back to the model. " * 3 + HINT)
WIDTH = 1000


def _cell(kind: str, source: str, **nbgrader: object) -> nbformat.NotebookNode:
    make = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
    cell = make(source)
    cell.metadata["nbgrader"] = {"schema_version": 3, "solution": False, "grade": False,
                                 "locked": False, **nbgrader}
    return cell


def _course(where: Path) -> Path:
    course = where / "course"
    (course / "solutions" / "tiny").mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", course / "nbgrader_config.py")
    with open(course / "nbgrader_config.py", "a") as config:
        config.write("\nc.PlainAutograde.allowed = True  # the test's own code\n"
                     + hostile.SOCKETS)
    notebook = nbformat.v4.new_notebook(cells=[
        _cell("code", "### BEGIN SOLUTION\nanswer = 1\n### END SOLUTION", solution=True,
              grade_id="answer"),
        # The message as the checks make it, from elsewhere: the page's code shows only hex.
        _cell("code", f"assert answer == 2, bytes.fromhex({MESSAGE.encode().hex()!r}).decode()",
              grade=True, locked=True, grade_id="answer_is_two", points=1)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    nbformat.write(notebook, course / "solutions" / "tiny" / "tiny.ipynb")
    return course


def _nbgrader(course: Path, *args: str) -> None:
    done = hostile.nbgrader(course, *args)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    course = _course(tmp_path_factory.mktemp("feedback"))
    _nbgrader(course, "generate_assignment", "tiny")
    folder = course / "submitted" / "ada" / "tiny"
    folder.mkdir(parents=True)
    work = nbformat.read(course / "exercises" / "tiny" / "tiny.ipynb", as_version=4)
    work.cells[0].source = "answer = 1"  # the student's (wrong) answer
    nbformat.write(work, folder / "tiny.ipynb")
    _nbgrader(course, "autograde", "tiny")
    page = course / "feedback" / "ada" / "tiny" / "tiny.html"
    _nbgrader(course, "generate_feedback", "tiny", "--GenerateFeedback.preprocessors="
              "['nbgrader.preprocessors.GetGrades',"
              "'nbconvert.preprocessors.CSSHTMLHeaderPreprocessor']")
    unwrapped = course / "unwrapped.html"
    shutil.copy(page, unwrapped)
    _nbgrader(course, "generate_feedback", "tiny", "--force")  # as nbgrader_config.py says
    return page, unwrapped


def _measure(path: Path) -> tuple[dict, bool]:
    test_browser = pytest.importorskip("test_browser")
    if not test_browser.CHROMIUM.exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium")
    with test_browser.browser_page(width=WIDTH, height=800) as page:
        page.goto(path.as_uri())
        box = page.get_by_text("lessons/03_the_loop.ipynb").first.bounding_box()
        page.screenshot(path=str(test_browser.ARTIFACTS / f"feedback_{path.stem}.png"))
        scrolls = page.evaluate("() => [...document.querySelectorAll('.output_area pre')].some("
                                "p => p.scrollWidth > p.clientWidth + 1)")
    return box, scrolls


def test_nbgraders_feedback_page_wraps_a_long_check_message(pages):
    page, _ = pages
    assert HINT in page.read_text()
    box, scrolls = _measure(page)
    assert box is not None and box["x"] + box["width"] <= WIDTH, box
    assert not scrolls, "an output line still runs past its box"


def test_without_the_kits_setting_the_same_message_runs_off_the_page(pages):
    _, unwrapped = pages
    box, scrolls = _measure(unwrapped)
    assert scrolls or (box is not None and box["x"] + box["width"] > WIDTH), box
