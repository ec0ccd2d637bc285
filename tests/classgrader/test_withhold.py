"""A graded kernel's kit (grader/withhold.py): each exercise's reference withheld, the rest of the
kit whole, checked by importing the copy in a fresh interpreter as a kernel would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from course.exercises.capstone.scenario_variants import AHEAD
from grader import withhold

TRIES = {
    "01_message_ordering": [
        "from course.exercises.reference import to_anthropic; to_anthropic([])",
        "from course.exercises.reference import append_round; append_round([], {}, [])",
        "from harness.providers.anthropic import to_wire; to_wire([])",
        "from harness.providers import get; get('anthropic', api_key='k').complete([])",
        "import offline.emulator.anthropic as a; a.parse_request({})"],
    "02_early_exit": [
        "from harness.loop import run; run(None, None, [])",
        "from course.exercises.reference import run_loop; run_loop(None, {}, [])",
        "from course.practice.lesson03 import run_agent; run_agent(None, None, [])"],
    "03_no_progress": [
        "from harness.progress import call_key; call_key('f', {})",
        "from harness.progress import NoProgressDetector; NoProgressDetector()",
        "import importlib; m = importlib.import_module('harness.progress'); "
        "getattr(m, 'call_key')('f', {})",
        "import harness.progress, inspect; exec(inspect.getsource(harness.progress)); "
        "call_key('f', {})"],
    "04_cost": [
        "from harness.cost import run_cost; run_cost([], None)",
        "from harness.cost import cumulative_input; cumulative_input(1, 1, 1)",
        "from course.exercises.cost.checks import expected_answers; expected_answers(None)",
        "from harness.providers.anthropic import from_wire; from_wire({'usage': {}})"],
    "05_capstone": [
        "from harness.loop import run; run(None, None, [])",
        "from harness.trace import summarize; summarize([])",
        "from harness.tools import plan_batches; plan_batches([], None)",
        "from course.exercises.reference import summarize_exits; summarize_exits([])"],
}
KEPT = {
    "02_early_exit": "from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED; print('kept')",
    "04_cost": "from harness.providers.catalog import PRICES; print(PRICES['gpt-5'].input)",
    "05_capstone": "from harness.progress import call_key; from harness.tools import execute, "
                   "Toolbox; print(call_key('f', {'b': 1, 'a': 2}))",
}


def _in_kernel(assignment: str, code: str) -> subprocess.CompletedProcess:
    copies = withhold.build(assignment)
    root = str(copies["harness"].parent)
    return subprocess.run([sys.executable, "-P", "-c", code], env={"PYTHONPATH": root},
                          capture_output=True, text=True, cwd="/")


@pytest.mark.parametrize(("assignment", "code"), [(a, c) for a, codes in TRIES.items()
                                                  for c in codes])
def test_the_reference_is_not_in_the_graded_kernel(assignment, code):
    done = _in_kernel(assignment, code)
    assert done.returncode != 0
    assert "is withheld while this notebook is graded" in done.stderr, done.stderr[-800:]


@pytest.mark.parametrize("assignment", sorted(KEPT))
def test_what_the_exercise_may_use_is_still_there(assignment):
    done = _in_kernel(assignment, KEPT[assignment])
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stdout.strip()


def test_the_copy_is_the_kit_read_from_the_copy():
    copies = withhold.build("02_early_exit")
    source = (copies["harness"] / "loop.py").read_text()
    assert "is withheld" in source and "def run(" in source and "CLOSING_INSTRUCTION =" in source
    assert set(withhold.binds("02_early_exit").values()) == {str(p) for p in copies.values()}


KERNEL = r'''
import json, sys
import course.exercises.grader_hook as hook
from classgrader.test_evidence import kernel
hook.recording = True  # as grader.kernel_log sets it in a graded kernel
passed, records = kernel(sys.argv[1], None)
json.dump(records, open(sys.argv[2], "w"))
'''


@pytest.mark.slow
@pytest.mark.parametrize("exercise", sorted(TRIES))
def test_the_reference_solution_recorded_without_the_reference_is_judged_full(
        exercise, tmp_path, monkeypatch):
    """Every check makes all its calls into student code before it asks the reference anything:
    so a kernel with the reference withheld still records everything the grading process needs."""
    from classgrader.test_evidence import _cells
    from course.exercises import exercise_module
    from grader import verdict
    from grader.ahead import seeds

    ahead = tmp_path / "ahead"
    checks = exercise_module(exercise)
    if hasattr(checks, "record_ahead"):
        definition = {"notebooks": {exercise: _cells(exercise)}}
        checks.record_ahead("ada", seeds(definition), ahead)
    copies = withhold.build(exercise)
    root = copies["harness"].parent
    if not (root / "cassettes").exists():  # the sandbox mounts the copy where the kit is
        (root / "cassettes").symlink_to(Path(__file__).resolve().parents[2] / "cassettes")
    folder = tmp_path / "autograded" / "ada" / exercise
    folder.mkdir(parents=True)
    tests = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{tests}", AHEAD: str(ahead)}
    done = subprocess.run([sys.executable, "-P", "-c", KERNEL, exercise, str(tmp_path / "r.json")],
                          env=env, cwd=folder, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    monkeypatch.chdir(folder)
    monkeypatch.setenv(AHEAD, str(ahead))
    records = json.loads((tmp_path / "r.json").read_text())
    scores = verdict.grade(_cells(exercise), records)["scores"]
    assert {name: found["score"] for name, found in scores.items() if found["score"] != 1.0} \
        == {}, {name: found["note"] or found["message"] for name, found in scores.items()}
