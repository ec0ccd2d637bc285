"""How a graded cell's check fails, and how it keeps student code from disturbing the grade.

`CheckFailed` is the one AssertionError a check raises: its message names the first divergence
(`course.compare.Divergence`: scenario, call number, message index, reference, yours) and ends
with a hint that points to a lesson. It renders in Jupyter as that message alone, with no
traceback, so the source of a test cell (hidden tests included) never shows up in an output.
`checked` wraps a check: warnings are silenced and printing is captured (nbgrader scores a test
cell 0 for any output on stderr), and an error the check did not expect is still one clean
message. `self_check` runs several checks and prints a line for each, as a formative cell does.
`hide_sources_when_autograding` switches IPython to minimal tracebacks while nbgrader
autogrades, so that even an error the checks do not raise (a NameError when a solution cell
failed) cannot quote a hidden test line into the feedback. This module does not compare
anything: `course.compare` does.
"""

from __future__ import annotations

import contextlib
import io
import os
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from course.compare import Divergence, verdict_line
from course.exercises import grader_hook

LESSONS = "lessons/"


class CheckFailed(AssertionError):
    """A check found a difference from the reference; the message says where and why."""

    def _render_traceback_(self) -> list[str]:
        # IPython calls this instead of formatting a traceback: no cell source can leak.
        head, *rest = str(self).splitlines() or [""]
        return [f"\x1b[0;31mAssertionError\x1b[0m: {head}", *rest]


class KitError(Exception):
    """The kit itself failed while checking (its reference, its recordings): not the student's
    doing. `checked` lets it through as it is, and the class grader asks for a manual grade
    instead of scoring the cell 0."""


def hide_sources_when_autograding() -> None:
    """Under `nbgrader autograde` (it sets NBGRADER_EXECUTION), errors show only their message.

    Students working in the notebook keep full tracebacks; only graded runs are affected.
    """
    if os.environ.get("NBGRADER_EXECUTION") != "autograde":
        return
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None and hasattr(shell, "InteractiveTB"):
        shell.InteractiveTB.set_mode(mode="Minimal")


def lesson(name: str) -> str:
    return f"See {LESSONS}{name}.ipynb."


def fail(subject: str, divergence: Divergence) -> None:
    raise CheckFailed(divergence.message(subject))


@contextlib.contextmanager
def sandbox() -> Iterator[None]:
    """Silence warnings and swallow prints of everything inside."""
    sink = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(sink), \
            contextlib.redirect_stderr(sink):
        warnings.simplefilter("ignore")
        yield


def checked(function: Callable[..., None]) -> Callable[..., None]:
    """Decorator for a check: run it in a sandbox and return None (never a value, because
    nbgrader would read a number printed by a test cell as a partial grade)."""

    def wrapper(*args: Any, **kwargs: Any) -> None:
        with sandbox():
            try:
                function(*args, **kwargs)
            except Exception as exc:
                if grader_hook.recording:  # a graded kernel: the grading process judges
                    return
                if isinstance(exc, CheckFailed | KitError):
                    raise
                # A result too odd to compare: still one clean message.
                raise CheckFailed(f"{function.__name__}: the check could not read your result "
                                  f"({type(exc).__name__}: {exc}).") from None

    wrapper.__name__ = function.__name__
    wrapper.__qualname__ = function.__qualname__
    wrapper.__doc__ = function.__doc__
    wrapper.__wrapped__ = function  # type: ignore[attr-defined]
    return wrapper


def self_check(checks: dict[str, Callable[[], None]]) -> None:
    """Run several checks and print one line per check: the formative version of the grade
    cells, with the same messages."""
    for name, check in checks.items():
        if grader_hook.recording:  # the kernel has no reference: nothing here to say yet
            with contextlib.suppress(Exception):
                check()
            print(f"[graded]  {name}: judged by the class grader, outside this notebook")
            continue
        try:
            check()
        except CheckFailed as failure:
            print(verdict_line(name, str(failure)))
        else:
            print(verdict_line(name))
