"""The reference reached without importing it by name: getattr on importlib's module, the
kit's source read and executed, and a wrong function kept in the solution cell but swapped for a
wrapper of the reference in a later cell, only for the tests. A graded kernel has no reference to
reach: what the source says there is a stub that raises."""

from classgrader.hostile import add_cell, index, with_bug

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] | str = "zero"
PLAIN: dict[str, float] | str = "zero"  # the kernel's own refusal sees the reference called
STOPPED_BY = "the withheld kit (graded kernels have no call_key or detector: grader.withhold)"
EVIDENCE = ["is withheld while this notebook is graded"]

BY_GETATTR = """import importlib

_progress = importlib.import_module("harness" + ".progress")


def call_key(name, arguments):
    return getattr(_progress, "call" + "_key")(name, arguments)
"""
SWAP = """import inspect
import harness.progress

_namespace = {}
exec(inspect.getsource(harness.progress), _namespace)  # the kit's own source, run here


class NoProgress(_namespace["NoProgressDetector"]):
    pass


try:  # shows what the graded kernel's copy of the source holds
    NoProgress()
except Exception as error:
    print(error)
"""


def build(student: str, context: dict) -> object:
    notebook = with_bug(EXERCISE, "detector_consecutive_only", student)
    notebook.cells[index(notebook, "call_key_solution")].source = BY_GETATTR
    add_cell(notebook, "no_progress_solution", SWAP)
    return notebook
