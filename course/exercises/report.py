"""How a check fails, and how it runs student code without letting it disturb the grade.

`CheckFailed` is the one AssertionError a check raises: its message names the first divergence
(scenario, call number, message index, reference, yours) and ends with a hint that points to a
lesson. It renders in Jupyter as that message alone, with no traceback, so the source of a test
cell (hidden tests included) never shows up in an output. `sandbox` wraps a check: warnings are
silenced and printing is captured (nbgrader scores a test cell 0 for any output on stderr), and a
deadline stops code that never returns. `observed` marks the functions through which the checks
run student code, where the class grader records their results. `hide_sources_when_autograding`
switches IPython to minimal tracebacks while nbgrader autogrades, so that even an error the
checks do not raise (a NameError when a solution cell failed) cannot quote a hidden test line
into the feedback. This module does not compare anything.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import signal
import threading
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

LESSONS = "lessons/"
WIDTH = 150  # characters of a shown value before it is cut


class CheckFailed(AssertionError):
    """A check found a difference from the reference; the message says where and why."""

    def _render_traceback_(self) -> list[str]:
        # IPython calls this instead of formatting a traceback: no cell source can leak.
        head, *rest = str(self).splitlines() or [""]
        return [f"\x1b[0;31mAssertionError\x1b[0m: {head}", *rest]


class _TimeUp(BaseException):
    """Raised inside student code when its deadline passes (BaseException: `except Exception`
    in the student's code must not swallow it)."""


class Runaway(BaseException):
    """Raised inside student code when it calls a scripted model far more often than needed."""


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


class Plain(str):
    """Text that `show` prints as it is, not as a JSON string (a description, not a value)."""


def show(value: Any, *, width: int = WIDTH) -> str:
    """A value on one line, JSON-like when it can be, cut to `width` characters."""
    if isinstance(value, Plain):
        return str(value)
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


@dataclass(frozen=True)
class Divergence:
    """The first place where the student's result differs from the reference's."""

    where: str
    """Scenario, then call number and message index when they apply."""
    expected: str
    seen: str
    hint: str

    def message(self, subject: str) -> str:
        verb = "differ" if subject.endswith("answers") else "differs"
        return (f"{subject} {verb} from the reference on {self.where}\n"
                f"  reference: {self.expected}\n"
                f"  yours:     {self.seen}\n"
                f"Hint: {self.hint[:1].upper()}{self.hint[1:]}")


def fail(subject: str, divergence: Divergence) -> None:
    raise CheckFailed(divergence.message(subject))


@dataclass
class Outcome:
    """What one call of student code did: returned `value` or raised `error`."""

    value: Any = None
    error: BaseException | None = None

    def describe(self) -> str:
        if self.error is None:
            return show(self.value)
        if isinstance(self.error, _TimeUp):
            return "did not return (stopped after the time limit: an endless loop?)"
        if isinstance(self.error, Runaway):
            return f"kept calling the model: {self.error}"
        if isinstance(self.error, NotImplementedError):
            return ("raised NotImplementedError: not written yet (replace "
                    "`raise NotImplementedError()` with your code)")
        return f"raised {type(self.error).__name__}: {self.error}"

    def ended(self) -> str:
        """How a run ended, as a phrase: 'returned ...' or 'raised ...'."""
        return self.describe() if self.error is not None else f"returned {self.describe()}"


observer: Callable[..., Any] | None = None
"""The class grader's hook (`grader.evidence`): None for students and tests, where `observed`
functions simply run."""


def observed(function: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a function through which the checks run or judge student code. Under the class
    grader, in the graded notebook the observer records what each call returned (data), and in
    the process that grades (which runs no student code) it hands that data back instead."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if observer is None:
            return function(*args, **kwargs)
        return observer(function, args, kwargs)

    return wrapper


@observed
def call(function: Callable[..., Any], *args: Any, seconds: float = 5.0,
         **kwargs: Any) -> Outcome:
    """Run student code; any failure becomes part of the outcome, never a crash of the check."""
    try:
        with deadline(seconds):
            return Outcome(value=function(*args, **kwargs))
    except (KeyboardInterrupt, GeneratorExit):
        raise
    except BaseException as exc:  # SystemExit, time limits and runaways are outcomes too
        return Outcome(error=exc)


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise `_TimeUp` inside whatever runs longer than `seconds` (main thread, Unix only)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def _expire(signum: int, frame: Any) -> None:
        raise _TimeUp()

    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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
            except CheckFailed:
                raise
            except Exception as exc:  # a result too odd to compare: still one clean message
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
        try:
            check()
        except CheckFailed as failure:
            print(f"[differs] {name}\n    " + str(failure).replace("\n", "\n    "))
        else:
            print(f"[ok]      {name}")
