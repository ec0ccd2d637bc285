"""The starter code, and an answer cell that replaces every check of
course.exercises.no_progress.checks with a function that passes. In the kernel that works; the
grading process, where no student code runs, has its own checks (and no record of the
student's code from the fakes)."""

from classgrader.hostile import append, starter

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] | str = "zero"
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the grading process (its own checks, never the kernel's)"

PATCH = """import course.exercises.no_progress.checks as _checks

for _name in dir(_checks):
    if _name.startswith(("call_key_", "no_progress_")):
        setattr(_checks, _name, lambda *args, **kwargs: None)
"""


def build(student: str, context: dict) -> object:
    notebook = starter(EXERCISE)
    append(notebook, "call_key_solution", PATCH)
    return notebook
