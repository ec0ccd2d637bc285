"""Checks for exercise 3, the no-progress detector: `call_key` and the `NoProgress` class.

`call_key` may return any string, so it is judged by the equalities it keeps: two calls that are
the same request must get the same key, two different requests different keys. `NoProgress` is
fed the same sequences of calls as the reference (`harness.progress.NoProgressDetector`) and must
answer the same at every observation up to the reference's first True. Each public function is one
graded behaviour (the name is the grade id of its test cell).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from course.exercises import reference
from course.exercises.no_progress import hints
from course.exercises.no_progress import sequences as data
from course.exercises.ownwork import Watch, refuse_calls, refuse_reference
from course.compare import Divergence, show
from course.exercises.grader_hook import call
from course.exercises.report import checked, fail, self_check
from course.exercises.no_progress.sequences import Observation, Pair

MODULES = ("course.exercises.reference", "harness.progress")


def _check_pairs(call_key: Callable[..., Any], pairs: Sequence[Pair], *,
                 strings: bool = False) -> None:
    """Each pair's keys equal or not as the pair says; `strings`: each key must be a str."""
    refuse_reference("call_key", call_key, MODULES)
    with Watch(MODULES) as watch:
        keys = [(call(call_key, *pair.left), call(call_key, *pair.right)) for pair in pairs]
    refuse_calls("call_key", watch)
    for pair, (left, right) in zip(pairs, keys, strict=True):
        where = f"call_key{_args(pair.left)} and call_key{_args(pair.right)} ({pair.why})"
        for outcome in (left, right):
            if outcome.error is not None or (strings and not isinstance(outcome.value, str)):
                fail("call_key",
                     Divergence(where, "a string", outcome.describe(), hints.PROGRESS_STR))
        if (left.value == right.value) != pair.same:
            expected = "the same key" if pair.same else "different keys"
            seen = f"{show(left.value)} and {show(right.value)}"
            fail("call_key", Divergence(where, expected, seen, pair.hint))


def _args(request: tuple[str, Any]) -> str:
    return f"({request[0]!r}, {show(request[1], width=90)})"


@checked
def call_key_ignores_order_and_spacing(call_key: Callable[..., Any], *,
                                       seed: int | None = None, cases: int = 30) -> None:
    """The same request written differently gets the same key."""
    pairs = data.same_pairs() + (data.generated_pairs(seed, cases) if seed is not None else [])
    _check_pairs(call_key, pairs, strings=True)


@checked
def call_key_tells_calls_apart(call_key: Callable[..., Any]) -> None:
    """Different requests get different keys."""
    _check_pairs(call_key, data.different_pairs())


def _verdicts(detector_class: Callable[[], Any], sequence: list[Observation]) -> list[Any]:
    """What `observe` said at each step, up to and including the reference's first True."""
    detector = detector_class()
    said = []
    for name, arguments, previous_was_error in sequence:
        said.append(detector.observe(name, arguments, previous_was_error=previous_was_error))
    return said


def _check_sequences(no_progress: Callable[[], Any], sequences: dict[str, list[Observation]],
                     hint: Callable[[str, list[Observation], int, Any], str]) -> None:
    refuse_reference("NoProgress", no_progress, MODULES)
    with Watch(MODULES) as watch:
        seen = {name: call(_verdicts, no_progress, sequence) for name, sequence in
                sequences.items()}
    refuse_calls("NoProgress", watch)
    for name, sequence in sequences.items():
        expected = _verdicts(reference.NoProgress, sequence)
        stop = expected.index(True) + 1 if True in expected else len(expected)
        outcome = seen[name]
        if outcome.error is not None:
            fail("NoProgress", Divergence(f'sequence "{name}"', "observes every call",
                                          outcome.describe(), hints.PROGRESS_OBSERVE))
        for index in range(stop):
            want, got = expected[index], outcome.value[index]
            if not isinstance(got, bool):
                fail("NoProgress", Divergence(_where(name, sequence, index), "True or False",
                                              show(got), hints.PROGRESS_OBSERVE))
            if want != got:
                fail("NoProgress", Divergence(_where(name, sequence, index), str(want), str(got),
                                              hint(name, sequence, index, got)))


def _where(name: str, sequence: list[Observation], index: int) -> str:
    calls = ", ".join(f"{n}({_short(a)})" + (" [after an error]" if e else "")
                      for n, a, e in sequence[: index + 1])
    return f'sequence "{name}", observation {index + 1}: {calls}'


def _short(arguments: Any) -> str:
    if isinstance(arguments, dict):
        return ", ".join(f"{key}={value!r}" for key, value in arguments.items())
    return repr(arguments)


def _repeat_hint(name: str, sequence: list[Observation], index: int, got: Any) -> str:
    if got is False and index + 1 < len(sequence):
        return hints.PROGRESS_THIRD
    return hints.PROGRESS_REPEAT if got is False else hints.PROGRESS_EARLY


def _retry_hint(name: str, sequence: list[Observation], index: int, got: Any) -> str:
    if got is True and sequence[index][2]:
        return hints.PROGRESS_RETRY
    if got is True and any(error for _, _, error in sequence[max(0, index - 5):index + 1]):
        return hints.PROGRESS_DISTINCT  # fired on a window that holds a retry
    return _repeat_hint(name, sequence, index, got)


def _cycle_hint(name: str, sequence: list[Observation], index: int, got: Any) -> str:
    if index and sequence[index] == sequence[index - 1]:
        return _retry_hint(name, sequence, index, got)
    return hints.PROGRESS_CYCLE if got is False else hints.PROGRESS_EARLY


def _quiet_hint(name: str, sequence: list[Observation], index: int, got: Any) -> str:
    return hints.PROGRESS_EARLY


def _pick(*names: str) -> dict[str, list[Observation]]:
    return {name: data.SEQUENCES[name] for name in names}


@checked
def no_progress_flags_a_repeat(NoProgress: Callable[[], Any]) -> None:
    """The same call twice in a row fires on the second."""
    _check_sequences(NoProgress, _pick("refund_doom_loop", "refund_doom_loop, arguments reordered",
                                       "refund_doom_loop, as JSON text with other spacing",
                                       "refund_doom_loop, after three new searches"),
                     _repeat_hint)


@checked
def no_progress_allows_a_retry_after_error(NoProgress: Callable[[], Any]) -> None:
    """A repeat right after an error result is a retry, not a doom loop."""
    # Retries that repeat in a pattern (A, A after an error, B, ...) are no cycle either: a
    # cycle is made of distinct calls, and only retries can put the same call twice in one.
    _check_sequences(NoProgress, _pick("retry_after_timeout", "retry_after_timeout, then progress",
                                       "retries inside a cycle"), _retry_hint)


@checked
def no_progress_catches_cycles(NoProgress: Callable[[], Any], *,
                               seed: int | None = None, cases: int = 30) -> None:
    """A cycle of two or three calls that fills the window of six fires."""
    sequences = _pick("order_shipment_cycle", "a cycle of three")
    if seed is not None:
        sequences |= data.generated_sequences(seed, cases)
    _check_sequences(NoProgress, sequences, _cycle_hint)


@checked
def no_progress_no_false_alarms(NoProgress: Callable[[], Any]) -> None:
    """New calls, a cycle that has not filled the window, an almost-cycle: no alarm."""
    _check_sequences(NoProgress, _pick("new searches, no repeat",
                                       "a cycle that has not filled the window",
                                       "almost a cycle"), _quiet_hint)


def check_call_key(call_key: Callable[..., Any]) -> None:
    """The formative check for call_key, one line per behaviour."""
    self_check({"call_key_ignores_order_and_spacing":
                lambda: call_key_ignores_order_and_spacing(call_key),
                "call_key_tells_calls_apart": lambda: call_key_tells_calls_apart(call_key)})


def check_no_progress(NoProgress: Callable[[], Any]) -> None:
    """The formative check for NoProgress, one line per behaviour."""
    self_check({name: (lambda check=check: check(NoProgress)) for name, check in (
        ("no_progress_flags_a_repeat", no_progress_flags_a_repeat),
        ("no_progress_allows_a_retry_after_error", no_progress_allows_a_retry_after_error),
        ("no_progress_catches_cycles", no_progress_catches_cycles),
        ("no_progress_no_false_alarms", no_progress_no_false_alarms))})

