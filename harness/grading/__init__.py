"""Grading the exercises: each check runs the student's function and the reference side by side.

One module per exercise holds its checks; each public check is one graded behaviour, named like
the grade id of the test cell that calls it, and raises `CheckFailed` (an AssertionError) whose
message names the first divergence and the lesson to reread. Checks print nothing, silence
warnings, never reach the network, and score 0 for a submission that hands the work to the
reference. `reference` holds the dict-form reference functions, `variants` the per-student numbers
of the cost exercise. The class grader and the release tool live in the `grader` package, for
instructors only. Importing this package under
`nbgrader autograde` switches IPython to minimal tracebacks (see
`report.hide_sources_when_autograding`): no feedback can quote a hidden test.
"""

import importlib
from typing import Any

from harness.grading.report import CheckFailed, hide_sources_when_autograding

CHECK_MODULES = {
    "01_message_ordering": "message_ordering",
    "02_early_exit": "early_exit",
    "03_no_progress": "no_progress",
    "04_cost": "cost",
}
"""Each exercise (assignment and notebook name) and the name of the module holding its checks.
The modules are imported when first used: a lesson that only needs `report` stays light."""

hide_sources_when_autograding()

__all__ = ["EXERCISES", "CheckFailed", "DictModel", "Event", "cost", "early_exit",
           "message_ordering", "no_progress", "reference", "variants"]


def __getattr__(name: str) -> Any:
    """`harness.grading.EXERCISES`, `DictModel` and `Event`, imported on first use."""
    if name == "EXERCISES":
        return {exercise: importlib.import_module(f"harness.grading.{module}")
                for exercise, module in CHECK_MODULES.items()}
    if name in ("DictModel", "Event"):
        return getattr(importlib.import_module("harness.grading.dictmodel"), name)
    if name in __all__:
        return importlib.import_module(f"harness.grading.{name}")
    raise AttributeError(f"module 'harness.grading' has no attribute {name!r}")
