"""Hints that name the mistake: what the student's version did, beside what the reference did.

A check's `Divergence` already shows both values; the hint's job is to say what the difference
means, with the figures filled in: "yours made 2 model calls, the reference 1", "yours sent 3
messages on call 2, the reference 4: the reply is missing", "yours lists call_b, which a result
after it answers". `differs` runs a hint function only when the two values differ, so a hint can
be written about the values it sees. Nothing here decides whether a piece is right.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from course.compare import END, Divergence, Outcome, plain, same, show


def differs(where: str, expected: Any, seen: Outcome | Any,
            hint: Callable[[Any, Any], str], *, advice: str = "") -> Divergence | None:
    """`same`, with a hint written from the two values, or about the error when yours raised
    (then `advice`, if given, says what to do)."""
    outcome = seen if isinstance(seen, Outcome) else Outcome(value=seen)
    if outcome.error is None and plain(outcome.value) == plain(expected):
        return None
    if outcome.error is not None:
        text = (f"yours raised {type(outcome.error).__name__} where the reference returned "
                f"{show(plain(expected), width=60)}" + (f": {advice}" if advice else ""))
    else:
        text = hint(plain(expected), plain(outcome.value))
    return same(where, expected, outcome, hint=text)


def calls(count: int) -> str:
    return f"{count} model call" + ("" if count == 1 else "s")


def count_hint(mine: int, yours: int, advice: str, *, unit: str = "model call") -> str:
    """'yours made 2 model calls, the reference 1: advice'."""
    def many(n: int) -> str:
        return f"{n} {unit}" + ("" if n == 1 else "s")
    return f"yours made {many(yours)}, the reference {many(mine)}: {advice}"


def extra_and_missing(want: Sequence[Any], got: Sequence[Any], *, extra: str,
                      missing: str, order: str = "the same items, in another order") -> str:
    """What yours has that the reference has not (`extra` says why it should not be there) and
    the reverse (`missing`), or that only the order differs."""
    if not isinstance(got, list | tuple):
        return f"yours returned {show(got, width=60)}, not a list like the reference's"
    plus = [item for item in got if item not in want]
    minus = [item for item in want if item not in got]
    parts = []
    if plus:
        parts.append(f"yours has {show(plus, width=60)}, {extra}")
    if minus:
        parts.append(f"yours lacks {show(minus, width=60)}, {missing}")
    if not parts and len(got) != len(want):
        parts.append(f"yours has {len(got)} items, the reference {len(want)}: each only once")
    return "; ".join(parts) or order


def _a(role: Any) -> str:
    return f"{'an' if role == 'assistant' else 'a'} {role} message"


def _what(message: dict[str, Any]) -> str:
    """A message in a few words: 'the assistant message asking for get_forecast'."""
    calls = [c.get("name") for c in message.get("tool_calls") or [] if isinstance(c, dict)]
    if calls:
        return f"{_a(message.get('role'))} asking for {', '.join(map(str, calls))}"
    if message.get("role") == "tool":
        return f"the result for {message.get('tool_call_id')}"
    return _a(message.get("role"))


def message_difference(want: Any, got: Any) -> str:
    """What differs between two plain messages at one place of two lists: a message yours lacks
    or has in addition, another role, or the fields that differ, each with both values."""
    if got is END or not isinstance(got, dict):
        if isinstance(want, dict):
            return f"yours stops here, where the reference goes on with {_what(want)}"
        return f"yours has {show(got, width=60)} where the reference has a message"
    if want is END or not isinstance(want, dict):
        return f"yours has one message too many here, {_what(got)}"
    if want.get("role") != got.get("role"):
        return f"yours has {_what(got)} here, the reference {_what(want)}"
    fields = [key for key in dict.fromkeys([*want, *got]) if want.get(key) != got.get(key)]
    shown = []
    for key in fields[:2]:
        if key not in want or key not in got:
            mine, yours = (show(m[key], width=50) if key in m else "not set" for m in (want, got))
            shown.append(f"its {key} is {yours} in yours, {mine} in the reference")
            continue
        where, mine, yours = _inner(want[key], got[key], key)
        shown.append(f"its {where} is {show(yours, width=60)} in yours, "
                     f"{show(mine, width=60)} in the reference")
    return "; ".join(shown)


def _inner(want: Any, got: Any, where: str) -> tuple[str, Any, Any]:
    """The first place inside two nested values where they part: (path, want's, got's)."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key in dict.fromkeys([*want, *got]):
            if want.get(key) != got.get(key):
                if key in want and key in got:
                    return _inner(want[key], got[key], f"{where}.{key}")
                return f"{where}.{key}", want.get(key, END), got.get(key, END)
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for index, (left, right) in enumerate(zip(want, got, strict=True)):
            if left != right:
                return _inner(left, right, f"{where}[{index}]")
    return where, want, got
