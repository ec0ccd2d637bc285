"""A cell that runs past the time limit costs it once: when a later cell stops the kernel and the
notebook is graded again without that cell, the cell that timed out is left out too (it would
cost the limit again, and score what it scored), and the report names it once, as a timeout."""

from __future__ import annotations

import json

import nbformat
import pytest

from classgrader import hostile
from classgrader.hostile import add_cell, reference
from grader.kernel_log import SKIPPED

pytestmark = pytest.mark.slow

EXERCISE = "03_no_progress"
LOOP = "while True:\n    pass"
EXIT = "import os\n\nos._exit(0)"


def test_a_timed_out_cell_is_not_run_again_on_the_retry(tmp_path):
    course = hostile.course(tmp_path)
    notebook = reference(EXERCISE, "ada")
    add_cell(notebook, "call_key_tells_calls_apart", EXIT)  # stops the kernel: a retry
    add_cell(notebook, "call_key_tells_calls_apart", LOOP)  # before it: times out first
    hostile.hand_in(course, "ada", EXERCISE, notebook)
    done = hostile.batch(course, EXERCISE, "--timeout", "5", "--report",
                         str(tmp_path / "report.json"))
    assert done.returncode == 0, done.stdout + done.stderr
    graded = nbformat.read(course / "autograded" / "ada" / EXERCISE / f"{EXERCISE}.ipynb",
                           as_version=4)
    outputs = {cell.source: json.dumps(cell.get("outputs", [])) for cell in graded.cells
               if cell.cell_type == "code"}
    assert SKIPPED[:40] in outputs[LOOP] and SKIPPED[:40] in outputs[EXIT]  # the second round
    report = json.loads((tmp_path / "report.json").read_text())
    assert [i["kind"] for i in report if i["kind"] == "timeout"] == ["timeout"], report
    full = hostile.max_points(EXERCISE)
    assert hostile.scores(course)[("ada", EXERCISE)] == full  # only the student's own cells
