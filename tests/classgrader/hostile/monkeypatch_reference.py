"""A detector with a bug, and an answer cell that makes the reference the student's own class, so
every comparison agrees. In the kernel that works; the re-check puts the reference back."""

from classgrader.hostile import append, with_bug

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {"no_progress_catches_cycles": 0}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the re-check (the reference is put back before each test)"

PATCH = """import harness.grading.reference as _reference

_reference.NoProgress = NoProgress
"""


def build(student: str, context: dict) -> object:
    notebook = with_bug(EXERCISE, "detector_consecutive_only", student)
    append(notebook, "no_progress_solution", PATCH)
    return notebook
