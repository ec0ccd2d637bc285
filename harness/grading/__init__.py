"""Grading the exercises: each check runs the student's function and the reference side by side.

One module per exercise holds its checks; each public check is one graded behaviour, named like
the grade id of the test cell that calls it, and raises `CheckFailed` (an AssertionError) whose
message names the first divergence and the lesson to reread. Checks print nothing, silence
warnings, never reach the network, and score 0 for a submission that hands the work to the
reference. `reference` holds the dict-form reference functions, `variants` the per-student numbers
of the cost exercise, `scenario_variants` the capstone's per-student scenarios. The class grader
and the release tool live in the `grader` package, for instructors only. Importing this package
under
`nbgrader autograde` switches IPython to minimal tracebacks (see
`report.hide_sources_when_autograding`): no feedback can quote a hidden test.
"""

import importlib
from types import ModuleType

from harness.grading import cost, early_exit, message_ordering, no_progress, reference, variants
from harness.grading.dictmodel import DictModel, Event
from harness.grading.report import CheckFailed, hide_sources_when_autograding

EXERCISES = {
    "01_message_ordering": message_ordering,
    "02_early_exit": early_exit,
    "03_no_progress": no_progress,
    "04_cost": cost,
}
"""Each exercise (assignment and notebook name) and the module holding its checks; the capstone's
is imported on first use (`exercise_module`), since it brings in the replay machinery."""


def exercise_module(name: str) -> ModuleType:
    """The module holding the checks of exercise `name` (e.g. "05_capstone")."""
    if name == "05_capstone":
        return importlib.import_module("harness.grading.capstone")
    return EXERCISES[name]


def __getattr__(name: str) -> ModuleType:
    if name == "capstone":  # `from harness.grading import capstone` without loading it here
        return importlib.import_module("harness.grading.capstone")
    raise AttributeError(f"module 'harness.grading' has no attribute {name!r}")

hide_sources_when_autograding()

__all__ = ["EXERCISES", "CheckFailed", "DictModel", "Event", "capstone", "cost", "early_exit",
           "message_ordering", "no_progress", "reference", "variants"]
