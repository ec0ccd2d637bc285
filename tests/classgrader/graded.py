"""One class for the whole test run, graded ONCE: the exercise corpus and the hostile corpus.

`graded_class()` hands in, in one course built from the session's release: the reference solution
and the untouched starter of every exercise, every submission of the exercise corpus
(tests/grading/corpus) and one tampered notebook, then every attack of the hostile corpus
(tests/classgrader/hostile, one module per attack) and their honest neighbours. It grades them all
in ONE `python -m grader autograde "*"` run (the real nbgrader in every shard), renders feedback
with `nbgrader generate_feedback` (two processes side by side), and keeps what the tests read:
the course, the command's output, the incidents report, scores and digests. Tests assert
per-submission outcomes from that one run (parametrised); the first test that asks pays for
it, the rest share it. Adding an attack is adding one module to hostile/: it is handed in and
graded here with the rest. `plain_class()` is the attackers under plain `nbgrader autograde`,
graded beside the batch's run.
"""

from __future__ import annotations

import functools
import hashlib
import json
import socket
import subprocess
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from grading import submissions

from classgrader import hostile
from grader import hidden

NEIGHBOURS = {"aa_neighbour": "03_no_progress", "zz_neighbour": "03_no_progress",
              "alice": "04_cost"}
"""Honest students the attacks aim at (their folders, their ids)."""
ATTACKS = {module.__name__.rsplit(".", 1)[1]: module for module in hostile.attacks()}
SECRET = "sk-instructor-3f9a1c"
"""A variable in the instructor's environment (GRADER_TEST_SECRET) no graded code may see."""


class Listener:
    """A TCP server on loopback that counts the connections it accepts."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.accepted = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            self.accepted += 1
            connection.close()

    def close(self) -> None:
        self.server.close()


# The exercise corpus ------------------------------------------------------------------------

def tampered() -> nbformat.NotebookNode:
    """Completion-order bug, the model-order test deleted and another test emptied."""
    module = submissions.load("ordering_completion_order")
    notebook = submissions.submission("01_message_ordering", module, student_id="tampered")
    cells = []
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id == "append_round_keeps_model_order":
            continue
        if grade_id == "append_round_adds_turn_then_results":
            cell.source = "pass"
        cells.append(cell)
    notebook.cells = cells
    return notebook


@functools.cache
def corpus_plan() -> dict[str, dict[str, Any]]:
    """Each corpus student: its exercises, the cells it must fail ("all" for the starter), the
    phrase its first failure must contain, and how to build its notebook."""
    plan: dict[str, dict[str, Any]] = {
        "solution": {"fails": set(), "exercises": submissions.EXERCISES, "module": None},
        "starter": {"fails": "all", "exercises": submissions.EXERCISES, "module": "starter"}}
    for name in submissions.corpus():
        module = submissions.load(name)
        if "05_capstone" in submissions.exercises_of(module) and not getattr(module, "IN_CLASS",
                                                                              False):
            continue  # graded in-process by tests/grading; a few go through nbgrader too
        student = "copycat" if getattr(module, "TYPED_ID", None) else name
        # What the first failure says when graded: the same, but for a cheat, whose graded
        # kernel has no reference to hand the work to (grader.withhold).
        expect = getattr(module, "EXPECT_GRADED", getattr(module, "EXPECT", ""))
        plan[student] = {"fails": set(module.FAILS), "expect": expect,
                         "exercises": submissions.exercises_of(module), "module": name}
    plan["tampered"] = {"fails": {"append_round_keeps_model_order"},
                        "expect": "in the order they finished",
                        "exercises": ["01_message_ordering"], "module": "tampered"}
    return plan


def _corpus_notebook(student: str, exercise: str, module: str | None) -> nbformat.NotebookNode:
    if module == "starter":
        return hostile.starter(exercise)
    if module == "tampered":
        return tampered()
    loaded = submissions.load(module) if module else None
    return submissions.submission(exercise, loaded, student_id=student)


def hand_in_corpus(course: Path) -> None:
    for student, plan in corpus_plan().items():
        for exercise in plan["exercises"]:
            hostile.hand_in(course, student, exercise,
                            _corpus_notebook(student, exercise, plan["module"]))


# The hostile corpus -------------------------------------------------------------------------

def hand_in_hostile(course: Path, listener: Listener, *, plain: bool) -> None:
    """Every attack (those plain nbgrader can survive, with `plain`) and the neighbours."""
    context = {"port": listener.port, "neighbour": "zz_neighbour", "victim": "alice",
               "course": str(course), "students": sorted([*ATTACKS, *NEIGHBOURS]),
               "secret": SECRET}
    for name, module in ATTACKS.items():
        if plain and module.PLAIN is None:
            continue
        hostile.hand_in(course, name, module.EXERCISE, module.build(name, context))
    for student, exercise in NEIGHBOURS.items():
        hostile.hand_in(course, student, exercise, hostile.reference(exercise, student))


def digests(course: Path, folder: str) -> dict[str, str]:
    return {str(p.relative_to(course)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((course / folder).rglob("*.ipynb"))}


def hidden_lines(exercises: tuple[str, ...] | list[str] = submissions.EXERCISES) -> list[str]:
    """Every line between nbgrader's hidden-test markers in the solutions."""
    lines = sorted(hidden.hidden_lines([{"source": cell.source} for name in exercises
                                       for cell in submissions.notebook("solutions", name).cells]))
    assert lines
    return lines


def outputs_of(path: Path) -> str:
    """Every output of an autograded notebook as one text (streams, errors, data)."""
    cells = json.loads(path.read_text())["cells"]
    return "\n".join("".join(o.get("text", "")) + str(o.get("evalue", "")) + json.dumps(
        o.get("data", {})) for c in cells for o in c.get("outputs", []))


# The one run --------------------------------------------------------------------------------

@dataclass
class GradedClass:
    """What the one batch run left: the course, the command's result, what the tests read."""

    course: Path
    done: subprocess.CompletedProcess
    seconds: float
    listener: Listener
    submitted: dict[str, str]
    report: list[dict[str, Any]]
    feedback: subprocess.CompletedProcess
    scores: dict[tuple[str, str], dict[str, float | None]]


def _feedback(course: Path, parts: int = 2) -> subprocess.CompletedProcess:
    """`nbgrader generate_feedback "*"`, as `parts` processes side by side over disjoint
    students (it renders one notebook at a time; the gradebook is only read)."""
    students = sorted(p.name for p in (course / "autograded").iterdir())
    groups = [students[i::parts] for i in range(parts)]

    def render(group: list[str]) -> subprocess.CompletedProcess:
        others = ",".join(s for s in students if s not in group)
        return hostile.nbgrader(course, "generate_feedback", "*",
                                f"--CourseDirectory.student_id_exclude={others}")

    with ThreadPoolExecutor(parts) as pool:
        done = list(pool.map(render, groups))
    return subprocess.CompletedProcess(done[0].args, max(d.returncode for d in done),
                                       "".join(d.stdout for d in done),
                                       "".join(d.stderr for d in done))


@dataclass
class PlainClass:
    """The attackers (those plain nbgrader survives) and the neighbours under plain nbgrader."""

    course: Path
    listener: Listener
    scores: dict[tuple[str, str], dict[str, float | None]]
    log: str
    """What `nbgrader autograde` printed (its log goes to stderr)."""


def _scratch(prefix: str) -> Path:
    """A temporary folder removed when the test run ends."""
    import atexit
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _grade_plain() -> PlainClass:
    listener = Listener()
    course = hostile.course(_scratch("plain-class-"))
    hand_in_hostile(course, listener, plain=True)
    done = hostile.nbgrader(course, "autograde", "*", env={"GRADER_TEST_SECRET": SECRET})
    listener.close()
    return PlainClass(course, listener, hostile.scores(course), done.stdout + done.stderr)


_BESIDE = ThreadPoolExecutor(1)
"""Plain nbgrader's run beside the batch's: independent, and each leaves the other idle time
(nbgrader's one kernel at a time; the batch's start-up, merge and retries)."""


@functools.cache
def _plain_started() -> Future:
    return _BESIDE.submit(_grade_plain)


def plain_class() -> PlainClass:
    """The hostile class graded by plain `nbgrader autograde`, once per test session."""
    return _plain_started().result()


@functools.cache
def graded_class() -> GradedClass:
    """The class graded by the batch, once per test session (see the module docstring)."""
    hostile.released()  # once, before two threads want it
    _plain_started()  # plain nbgrader grades its copy of the attackers meanwhile
    listener = Listener()
    course = hostile.course(_scratch("graded-class-"))
    hand_in_corpus(course)
    hand_in_hostile(course, listener, plain=False)
    submitted = digests(course, "submitted")
    started = time.perf_counter()
    done = hostile.batch(course, "*", "--jobs", "2", "--report", str(course / "report.json"),
                         env={"GRADER_TEST_SECRET": SECRET})
    seconds = time.perf_counter() - started
    listener.close()
    feedback = _feedback(course)
    report_path = course / "report.json"
    report = json.loads(report_path.read_text()) if report_path.exists() else []
    return GradedClass(course, done, seconds, listener, submitted, report, feedback,
                       hostile.scores(course))
