"""`python -m course check`: a student's whole-notebook check before handing in lists each graded
cell as it fares on the notebook's public cases, run from the top in a fresh kernel, without the
grader and without changing the student's file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from course import handin_check

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
EXERCISE = "01_message_ordering"


def _solved(path: Path) -> Path:
    """The release with the reference in every solution cell: a student's finished work."""
    from grading import submissions

    nbformat.write(submissions.submission(EXERCISE, None, student_id="ada"), path)
    return path


def _check(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "course", "check", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_finished_work_passes_every_graded_cell(tmp_path):
    path = _solved(tmp_path / f"{EXERCISE}.ipynb")
    before = path.read_bytes()
    done = _check(path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "7 of 7 points on the public cases" in done.stdout
    assert path.read_bytes() == before  # the student's file is not touched
    assert done.stderr == ""


def test_a_starter_lists_each_failing_cell_with_what_it_said(tmp_path):
    path = tmp_path / f"{EXERCISE}.ipynb"
    path.write_bytes((ROOT / "exercises" / EXERCISE / f"{EXERCISE}.ipynb").read_bytes())
    done = _check(path)
    assert done.returncode == 1
    fails = [line for line in done.stdout.splitlines() if line.startswith("  FAIL")]
    assert len(fails) == 7 and all("differs from the reference" in f or "Error" in f
                                   for f in fails), done.stdout


def test_a_solution_cell_that_does_not_compile_is_named_before_the_graded_cells(tmp_path):
    path = _solved(tmp_path / f"{EXERCISE}.ipynb")
    notebook = nbformat.read(path, as_version=4)
    cell = next(c for c in notebook.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == "append_round_solution")
    cell.source = cell.source.replace("\n    results = ", "\n        results = ", 1)
    nbformat.write(notebook, path)
    done = _check(path)
    lines = done.stdout.splitlines()
    assert lines[1].startswith("  error in append_round_solution: IndentationError"), done.stdout
    assert any("NameError: name 'append_round'" in line for line in lines[2:]), done.stdout


def test_names_resolve_to_the_exercise_and_bad_input_is_one_clear_line(tmp_path):
    assert handin_check.resolve(EXERCISE).name == f"{EXERCISE}.ipynb"
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{ not json")
    done = _check(broken)
    assert done.returncode == 2 and "not a notebook Jupyter can read" in done.stderr
