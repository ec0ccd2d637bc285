"""What the class grader needs from the checks: the functions through which they run or judge
student code, marked so that the grader can stand at each one.

`observed` marks such a function: `call` (every run of student code), the early-exit runs, the
capstone's plays and the checks that a submission does its own work (`ownwork`). For a student,
a lesson or a test, `observer` is None and a marked function simply runs. The class grader
(`grader.observers`) sets `observer`: in the graded notebook it records what each call returned,
and in the process that grades, which runs no student code, it hands that record back instead.
Nothing here decides a score.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from course import compare

observer: Callable[..., Any] | None = None
"""The class grader's hook (`grader.observers`): None for students and tests."""
recording = False
"""True in a graded kernel, where the observer only records: there a check's verdict counts for
nothing (the kernel has no reference to compare with), so `report.checked` lets every check of a
test cell run to its end and record, and the grading process judges them all."""


def observed(function: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a function through which the checks run or judge student code (see the module)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if observer is None:
            return function(*args, **kwargs)
        return observer(function, args, kwargs)

    return wrapper


call = observed(compare.call)
"""`course.compare.call` (run student code, any failure an outcome), where the grader stands."""
