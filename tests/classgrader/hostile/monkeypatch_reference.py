"""A detector with a bug, and an answer cell that makes the reference the student's own class, so
every comparison agrees. In the kernel that works; the grading process compares the detector's
recorded answers with its own, unpatched reference."""

from classgrader.hostile import append, with_bug

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {"no_progress_catches_cycles": 0}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the grading process (its own reference, never the kernel's)"

PATCH = """import course.exercises.reference as _reference

_reference.NoProgress = NoProgress
"""


def build(student: str, context: dict) -> object:
    notebook = with_bug(EXERCISE, "detector_consecutive_only", student)
    append(notebook, "no_progress_solution", PATCH)
    return notebook
