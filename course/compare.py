"""How the course checks a function: run it and the reference on the same case, and say where the
two first part.

Every check in the course, a lesson's your-turn check (`course.practice`) and an exercise's
graded cell (`course.exercises`) alike, is made of these pieces:

- `call` runs a function under a deadline and turns whatever it does into an `Outcome`: the value
  it returned, or what it raised (an endless loop is stopped and becomes an outcome too);
- `plain` turns messages and other pydantic models into plain data, so two results compare as
  JSON would;
- `same`, `same_messages` and `first_difference` compare the reference's outcome with the
  student's and return a `Divergence` for the first place they differ, or None;
- `Divergence.message` writes it for the student: where (scenario, call, message index), what the
  reference did, what theirs did, and a hint; `verdict_line` prints one line per behaviour.

What a graded cell adds (raising `CheckFailed`, silencing warnings, the class grader's record of
each call) is in `course.exercises.report`; what a lesson's check adds (a piece, its behaviours,
falling back to the reference) is in `course.practice.engine`. This module scores nothing.
"""

from __future__ import annotations

import contextlib
import json
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

WIDTH = 150  # characters of a shown value before it is cut


class Plain(str):
    """Text that `show` prints as it is, not as a JSON string (a description, not a value)."""


END = Plain("(nothing: the list ends here)")


def show(value: Any, *, width: int = WIDTH) -> str:
    """A value on one line, JSON-like when it can be, cut to `width` characters.

    Example:
        >>> show({"role": "user", "content": "Hi"})
        '{"role": "user", "content": "Hi"}'
    """
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


def verdict_line(label: str, failure: str | None = None) -> str:
    """What a check prints for one behaviour: `[ok]` and its label, or `[differs]` and the
    failure's message, indented under it."""
    if failure is None:
        return f"[ok]      {label}"
    return f"[differs] {label}\n    " + failure.replace("\n", "\n    ")


class _TimeUp(BaseException):
    """Raised inside student code when its deadline passes (BaseException: `except Exception`
    in the student's code must not swallow it)."""


TIMEOUTS = [0]
"""How many deadlines have passed in this process: a time-out can land inside a profile hook,
which switches the hook off, and `course.exercises.ownwork.Watch` must not take that for the
student's doing."""


class Runaway(BaseException):
    """Raised inside student code when it calls a scripted model far more often than needed."""


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


def run_reference(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Outcome:
    """The reference's outcome on a case, run without the student's deadline: it is the kit's
    own code, and a loaded machine must not make it fail. An error it raises on purpose (a
    ValueError naming an unmatched id, say) is part of the outcome, as for the student.

    Example:
        >>> run_reference(sorted, [3, 1, 2]).value
        [1, 2, 3]
    """
    try:
        return Outcome(value=function(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 (an outcome the check compares, not a crash)
        return Outcome(error=exc)


def call(function: Callable[..., Any], *args: Any, seconds: float | None = 5.0,
         **kwargs: Any) -> Outcome:
    """Run student code; any failure becomes part of the outcome, never a crash of the check.

    Example:
        >>> call(int, "seven").describe()
        "raised ValueError: invalid literal for int() with base 10: 'seven'"
    """
    try:
        with deadline(seconds):
            return Outcome(value=function(*args, **kwargs))
    except (KeyboardInterrupt, GeneratorExit):
        raise
    except BaseException as exc:  # SystemExit, time limits and runaways are outcomes too
        return Outcome(error=exc)


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise `_TimeUp` inside whatever runs longer than `seconds` (main thread, Unix only;
    None: no deadline)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    usable = usable and seconds is not None
    if not usable:
        yield
        return

    def _expire(signum: int, frame: Any) -> None:
        TIMEOUTS[0] += 1
        raise _TimeUp()

    assert seconds is not None  # for the type checker: `usable` says so
    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def plain(value: Any) -> Any:
    """A value as JSON-like data: messages and other pydantic models as their fields."""
    if isinstance(value, BaseModel):  # the role first: it says what kind of message this is
        role = {"role": value.role} if isinstance(getattr(value, "role", None), str) else {}
        return role | value.model_dump(mode="json", exclude_defaults=True)
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def dict_message(message: Any) -> Any:
    """A dict-form message with the optional keys filled in and unknown keys dropped, so that
    `{"role": "assistant", "content": None, "tool_calls": []}` and `{"role": "assistant"}` agree.
    """
    if not isinstance(message, dict):
        return message
    role = message.get("role")
    if role == "assistant":
        calls = message.get("tool_calls") or []
        if isinstance(calls, list):
            calls = [{key: call.get(key) for key in ("id", "name", "arguments")}
                     if isinstance(call, dict) else call for call in calls]
        return {"role": role, "content": message.get("content"), "tool_calls": calls}
    if role == "tool":
        return {"role": role, "tool_call_id": message.get("tool_call_id"),
                "content": message.get("content")}
    return {"role": role, "content": message.get("content")}


def first_difference(expected: list[Any], seen: list[Any]) -> int | None:
    """Index of the first position where the lists differ (length included), or None.

    Example:
        >>> first_difference(["a", "b", "c"], ["a", "c"])
        1
    """
    for index, (left, right) in enumerate(zip(expected, seen, strict=False)):
        if left != right:
            return index
    if len(expected) != len(seen):
        return min(len(expected), len(seen))
    return None


def at(items: list[Any], index: int) -> Any:
    return items[index] if index < len(items) else END


def same(where: str, expected: Any, seen: Outcome | Any, *, hint: str) -> Divergence | None:
    """None when `seen` (an outcome or a value) equals `expected`; else where and how it differs."""
    outcome = seen if isinstance(seen, Outcome) else Outcome(value=seen)
    if outcome.error is None and plain(outcome.value) == plain(expected):
        return None
    return Divergence(where, show(plain(expected)), outcome.describe() if outcome.error
                      else show(plain(outcome.value)), hint)


def same_messages(where: str, expected: Sequence[Any], seen: Outcome | Sequence[Any], *,
                  hint: Callable[[int, Any, Any], str] | str, first: int = 0
                  ) -> Divergence | None:
    """Compare two message lists; a difference is reported at its message index (from `first`).

    `hint` may be a function of (index, reference's message, yours) to name the likely bug.
    """
    outcome = seen if isinstance(seen, Outcome) else Outcome(value=seen)
    if outcome.error is not None or not isinstance(outcome.value, list | tuple):
        return same(where, expected, outcome, hint=hint if isinstance(hint, str) else
                    hint(0, at(list(expected), 0), outcome.value))
    want, got = plain(list(expected)), plain(list(outcome.value))
    index = first_difference(want, got)
    if index is None:
        return None
    mine, yours = at(want, index), at(got, index)
    text = hint(index, mine, yours) if callable(hint) else hint
    return Divergence(f"{where}, message {index + first}", show(mine), show(yours) if
                      yours is not END else str(END), text)
