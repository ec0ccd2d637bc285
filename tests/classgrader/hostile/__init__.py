"""Hostile and broken submissions, and the courses the batch tests grade them in.

Each module here is one attack: `build(student)` returns the notebook that student hands in,
`EXERCISE` says where, `EXPECT` maps each test the batch must score below full marks to the score
it must get (every other test: full marks, so a crash or a loop costs only what it touches), and
`PLAIN` the same for `nbgrader autograde` alone, where the attack succeeds or fails differently
(None: not run there). `STOPPED_BY` names what stops it in the batch, and `EVIDENCE` (where there
is some) the lines its own outputs must show: the operating system's refusals, not a Python hook's.
The helpers build a course from the repository's release once per test session, hand notebooks
in, run the batch and nbgrader on it, and read scores straight from the gradebook. The attacks are
graded once per test run with the exercise corpus, in `classgrader.graded`: adding an attack is
adding one module here.
"""

from __future__ import annotations

import atexit
import copy
import functools
import importlib
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import nbformat
from grading import submissions

from grader import release

HERE = Path(__file__).resolve().parent
TIMEOUT = 10
"""Seconds per cell in the test courses: loops and sleeps are cut after this (the slowest graded
cell takes a few seconds on a loaded 2-core machine)."""

SOCKETS = """import os

# Plain nbgrader's kernels on unix sockets in each course copy: a TCP port that jupyter_client
# picks free can be taken by another process of the test run before the kernel binds it, and the
# kernel dies (the batch sets its own sockets per shard after this).
c.KernelManager.transport = "ipc"
c.KernelManager.ip = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernel")
"""


def attacks() -> list[ModuleType]:
    return [importlib.import_module(f"classgrader.hostile.{p.stem}")
            for p in sorted(HERE.glob("*.py")) if not p.stem.startswith("_")]


EXERCISES = tuple(submissions.EXERCISES)
"""The exercises of the test courses: all of them (the exercise corpus covers each)."""


@functools.cache
def released() -> Path:
    """A course with the exercises generated (and registered in its gradebook), built once per
    test session and copied for each test."""
    folder = Path(tempfile.mkdtemp(prefix="batch-tests-release-"))
    atexit.register(shutil.rmtree, folder, True)
    release.build(list(EXERCISES), folder)
    with open(folder / "nbgrader_config.py", "a") as config:
        config.write(f"\nc.Execute.timeout = {TIMEOUT}\n{SOCKETS}")
    return folder


def course(where: Path) -> Path:
    """A fresh copy of the released course in `where` (nothing handed in yet)."""
    target = where / "course"
    shutil.copytree(released(), target)
    return target


def hand_in(course_dir: Path, student: str, exercise: str,
            notebook: nbformat.NotebookNode) -> None:
    folder = course_dir / "submitted" / student / exercise
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, folder / f"{exercise}.ipynb")


def environment(**extra: str) -> dict[str, str]:
    return {**release.nbgrader_env(), **extra}


def batch(course_dir: Path, *args: str, timeout: float = 900,
          env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`python -m grader autograde ...` on the course, as an instructor runs it (`env`: more
    variables in the instructor's environment)."""
    return subprocess.run([sys.executable, "-m", "grader", "autograde", *args,
                           "--course", str(course_dir)], env=environment(**env or {}),
                          capture_output=True, text=True, timeout=timeout, cwd=course_dir)


def nbgrader(course_dir: Path, *args: str, env: dict[str, str] | None = None,
             trusted: bool = True) -> subprocess.CompletedProcess:
    """Plain nbgrader in the course (exit status not checked: a dead kernel makes it 1). The
    kit's courses refuse a plain `nbgrader autograde` unless the instructor says the code is
    trusted: the tests say so (`trusted`), to compare the class grader with plain nbgrader."""
    allow = ["--PlainAutograde.allowed=True"] if trusted and args[:1] == ("autograde",) else []
    return subprocess.run([str(Path(sys.executable).parent / "nbgrader"), *args, *allow],
                          cwd=course_dir, env=environment(**env or {}), capture_output=True,
                          text=True)


def scores(course_dir: Path) -> dict[tuple[str, str], dict[str, float | None]]:
    """Each submission's score per test, straight from the gradebook (manual score first)."""
    query = """
        SELECT sa.student_id, a.name, bc.name, g.auto_score, g.manual_score
        FROM grade g JOIN submitted_notebook sn ON g.notebook_id = sn.id
        JOIN submitted_assignment sa ON sn.assignment_id = sa.id
        JOIN assignment a ON sa.assignment_id = a.id JOIN base_cell bc ON g.cell_id = bc.id"""
    found: dict[tuple[str, str], dict[str, float | None]] = {}
    with sqlite3.connect(course_dir / "gradebook.db") as db:
        for student, assignment, cell, auto, manual in db.execute(query):
            found.setdefault((student, assignment), {})[cell] = manual if manual is not None \
                else auto
    return found


def rows(course_dir: Path, table: str, columns: str) -> list[tuple]:
    with sqlite3.connect(course_dir / "gradebook.db") as db:
        return sorted(db.execute(f"SELECT {columns} FROM {table}").fetchall(), key=repr)


def max_points(exercise: str) -> dict[str, float]:
    return {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"]
            for c in submissions.notebook("solutions", exercise).cells
            if c.metadata.get("nbgrader", {}).get("grade")}


# Building blocks for the attacks --------------------------------------------------------

def reference(exercise: str, student: str) -> nbformat.NotebookNode:
    """The released notebook with the reference solution in every solution cell."""
    return submissions.submission(exercise, None, student_id=student)


def with_bug(exercise: str, corpus_name: str, student: str) -> nbformat.NotebookNode:
    """A notebook with one of the exercise corpus's known bugs (tests/grading/corpus)."""
    return submissions.submission(exercise, submissions.load(corpus_name), student_id=student)


def starter(exercise: str) -> nbformat.NotebookNode:
    return copy.deepcopy(submissions.starter(exercise))


def grade_id(cell: nbformat.NotebookNode) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def index(notebook: nbformat.NotebookNode, name: str) -> int:
    return next(i for i, cell in enumerate(notebook.cells) if grade_id(cell) == name)


def add_cell(notebook: nbformat.NotebookNode, after: str, source: str) -> None:
    """A cell of the student's own, right after the cell named `after`."""
    notebook.cells.insert(index(notebook, after) + 1, nbformat.v4.new_code_cell(source))


def append(notebook: nbformat.NotebookNode, name: str, source: str) -> None:
    """More code at the end of the cell named `name` (a solution cell)."""
    cell = notebook.cells[index(notebook, name)]
    cell.source = cell.source.rstrip("\n") + "\n\n" + source

