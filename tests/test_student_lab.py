"""The students' lab: their own copies survive an update, and the lab says true things.

`make lab` makes copies in my_work/ (git-ignored) and never overwrites one; `make fresh` sets a
copy aside; the lab opens there with no news pop-up; and nbgrader's Validate, on a lesson, fails
on each piece whose check has not said ok instead of reporting "Success" for an untouched lesson.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from course import copies
from course.practice import with_answers

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def kit(tmp_path: Path) -> Path:
    """A kit's folder with its lessons and exercises, as a student's clone has them."""
    for folder in ("lessons", "exercises"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def test_the_first_make_lab_copies_every_lesson_and_exercise(kit):
    made = copies.make_copies(kit)
    assert sorted(path.relative_to(kit / "my_work") for path in made) == copies.originals(kit)
    assert {p.stem for p in (kit / "my_work" / "lessons").glob("*.ipynb")} >= {
        "01_messages", "13_hooks"}
    # The answers and figures are the kit's own, linked: %load and ![](figures/...) still work.
    assert (kit / "my_work/lessons/answers/03_run_agent.py").read_text() == \
        (ROOT / "lessons/answers/03_run_agent.py").read_text()
    assert (kit / "my_work/lessons/figures/first_loop.svg").exists()


def test_an_update_never_touches_a_students_copy(kit):
    copies.make_copies(kit)
    mine = kit / "my_work" / "lessons" / "03_the_loop.ipynb"
    mine.write_text(mine.read_text().replace("# 3. The loop", "# 3. The loop (my notes)"))
    upstream = kit / "lessons" / "03_the_loop.ipynb"  # what a git pull brings
    upstream.write_text(upstream.read_text().replace("# 3. The loop", "# 3. The loop, new"))
    (kit / "lessons" / "14_new.ipynb").write_text((kit / "lessons/01_messages.ipynb").read_text())
    assert copies.make_copies(kit) == [kit / "my_work" / "lessons" / "14_new.ipynb"]
    assert "(my notes)" in mine.read_text()


def test_fresh_sets_the_old_copy_aside_and_takes_the_current_one(kit):
    copies.make_copies(kit)
    mine = kit / "my_work" / "lessons" / "03_the_loop.ipynb"
    mine.write_text("my work")
    kept, copy = copies.fresh("03_the_loop", kit)
    assert copy == mine and mine.read_text() == (kit / "lessons/03_the_loop.ipynb").read_text()
    assert kept is not None and kept.read_text() == "my work"
    assert re.fullmatch(r"03_the_loop\.before-\d{8}-\d{6}\.ipynb", kept.name)
    with pytest.raises(ValueError, match="no lesson or exercise is called '03_loop'"):
        copies.fresh("03_loop", kit)


def test_the_students_folder_is_ignored_by_git():
    found = subprocess.run(["git", "check-ignore", "my_work/lessons/01_messages.ipynb",
                            "my_work/exercises/02_early_exit/02_early_exit.ipynb"], cwd=ROOT,
                           capture_output=True, text=True)
    assert len(found.stdout.split()) == 2, "add /my_work/ to .gitignore"


def test_make_lab_makes_the_copies_then_opens_jupyterlab_on_them():
    recipe = re.search(r"^lab:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M).group(1)
    assert recipe.index("-m course copies") < recipe.index("jupyter lab")
    assert "--ServerApp.root_dir=$(CURDIR)/my_work" in recipe
    fresh = re.search(r"^fresh:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)
    assert fresh and "copies --fresh $(NOTEBOOK)" in fresh.group(1)


def test_the_students_lab_shows_no_news_and_checks_for_no_updates():
    overrides = json.loads((ROOT / "etc/jupyter/labconfig/default_setting_overrides.json")
                           .read_text())
    notification = overrides["@jupyterlab/apputils-extension:notification"]
    assert notification == {"fetchNews": "false", "checkForUpdates": False}


def _validate(path: Path) -> dict:
    from nbgrader.validator import Validator
    from traitlets.config import Config

    return Validator(config=Config()).validate(str(path))


@pytest.mark.slow
def test_validate_fails_an_untouched_lesson_piece_by_piece_and_passes_a_finished_one(tmp_path):
    lesson = nbformat.read(ROOT / "lessons/01_messages.ipynb", as_version=4)
    blank, done = tmp_path / "blank" / "01_messages.ipynb", tmp_path / "done" / "01_messages.ipynb"
    for path, notebook in ((blank, lesson), (done, with_answers(nbformat.from_dict(lesson)))):
        path.parent.mkdir()
        shutil.copytree(ROOT / "lessons" / "answers", path.parent / "answers")
        nbformat.write(notebook, path)
    failed = _validate(blank).get("failed", [])
    assert [re.search(r"^(\w+) = check", cell["source"], re.M).group(1) for cell in failed] == [
        "read_reply", "ask", "ask_all"]
    assert all("is not written yet" in cell["raw_error"] for cell in failed)
    assert _validate(done) == {}
