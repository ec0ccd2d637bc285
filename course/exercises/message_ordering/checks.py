"""Checks for exercise 1, message ordering: `append_round` here, `to_anthropic` re-exported.

Each public function is one graded behaviour (its name is the grade id of its test cell). It runs
the student's function and the reference on the same turns and raises `CheckFailed` naming the
first divergence and the likely bug (results before the turn, merged, skipped, in completion
order, or an unmatched id let through). Each cell looks only at its own sentence of the contract
(the whole list and the caller's history; one result per call in any order; the order of the
results there are; the refusals), so that one mistake costs one cell. `check_append_round`
prints the same messages for the formative cell. The `to_anthropic` checks live in
`course.exercises.message_ordering.anthropic_format`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from course.exercises import reference
from course.exercises.message_ordering import hints
from course.exercises.message_ordering.anthropic_format import (
    check_to_anthropic,
    to_anthropic_keeps_system_apart,
    to_anthropic_results_in_one_user_message,
    to_anthropic_tool_use_blocks,
)
from course.compare import run_reference
from course.compare import at, dict_message, first_difference
from course.exercises.ownwork import Watch, refuse_calls, refuse_reference
from course.compare import Divergence, Outcome, show
from course.exercises.grader_hook import call
from course.exercises.report import checked, fail, self_check
from course.exercises.message_ordering.cases import Round, generated_rounds, rounds

__all__ = ["append_round_adds_turn_then_results", "append_round_keeps_model_order",
           "append_round_one_result_per_call", "append_round_rejects_unmatched_ids",
           "check_append_round", "check_to_anthropic", "to_anthropic_keeps_system_apart",
           "to_anthropic_results_in_one_user_message", "to_anthropic_tool_use_blocks"]

APPEND_MODULES = ("course.exercises.reference",)


def _run_rounds(append_round: Callable[..., Any], items: Sequence[Round]
                ) -> list[tuple[Round, Outcome, list[Any]]]:
    """Each turn's outcome, and the history list the function was given, as it is after."""
    refuse_reference("append_round", append_round, APPEND_MODULES)
    outcomes = []
    with Watch(APPEND_MODULES) as watch:
        for item in items:
            given = copy.deepcopy(item.history)
            outcomes.append((item, call(append_round, given, copy.deepcopy(item.turn),
                                        copy.deepcopy(item.finished)), given))
    refuse_calls("append_round", watch)
    return outcomes


View = Callable[[Round, Outcome, Outcome], "Divergence | None"]


def _check_rounds(append_round: Callable[..., Any], items: Sequence[Round], *,
                  view: View | None = None, caller_list: bool = False) -> None:
    """Compare with the reference through `view` (the whole list by default); `caller_list`
    also checks that the history given is unchanged."""
    for item, seen, given in _run_rounds(append_round, items):
        expected = run_reference(reference.append_round, copy.deepcopy(item.history),
                                 copy.deepcopy(item.turn), copy.deepcopy(item.finished))
        divergence = (view or _round_divergence)(item, expected, seen)
        if divergence is None and caller_list and given != item.history:
            index = first_difference(item.history, given) or 0
            divergence = Divergence(f'round "{item.name}", the history you were given, index '
                                    f"{index}", show(at(item.history, index)),
                                    show(at(given, index)), hints.ORDER_CALLER_LIST)
        if divergence is not None:
            fail("append_round", divergence)


def _round_divergence(item: Round, expected: Outcome, seen: Outcome) -> Divergence | None:
    where = f'round "{item.name}"'
    if expected.error is not None:
        return _refusal_divergence(item, expected, seen, where)
    if seen.error is not None or not isinstance(seen.value, list):
        return Divergence(where, f"returns a list of {len(expected.value)} messages",
                          seen.describe(), hints.ORDER_SHAPE)
    want = [dict_message(m) for m in expected.value]
    got = [dict_message(m) for m in seen.value]
    index = first_difference(want, got)
    if index is None:
        return None
    return Divergence(f"{where}, message index {index}", show(at(want, index)),
                      show(at(got, index)), _round_hint(item, got))


def _answers(messages: list[Any], item: Round) -> list[Any]:
    """The tool messages that answer this turn: those the history did not already hold."""
    earlier = [dict_message(m) for m in item.history]
    return [dict_message(m) for m in messages if isinstance(m, dict)
            and m.get("role") == "tool" and dict_message(m) not in earlier]


def _shape(item: Round, expected: Outcome, seen: Outcome) -> Divergence | None:
    if seen.error is not None or not isinstance(seen.value, list):
        return Divergence(f'round "{item.name}"', f"returns a list of {len(expected.value)} "
                          f"messages", seen.describe(), hints.ORDER_SHAPE)
    return None


def _per_call_view(item: Round, expected: Outcome, seen: Outcome) -> Divergence | None:
    """One tool message per call, with its own id and result; where and in which order aside."""
    if divergence := _shape(item, expected, seen):
        return divergence
    by_id = lambda m: str(m.get("tool_call_id"))  # noqa: E731
    want = sorted(_answers(expected.value, item), key=by_id)
    got = sorted(_answers(seen.value, item), key=by_id)
    index = first_difference(want, got)
    if index is None:
        return None
    return Divergence(f'round "{item.name}", the results sorted by id, result {index + 1}',
                      show(at(want, index)), show(at(got, index)), _round_hint(item, seen.value))


def _order_view(item: Round, expected: Outcome, seen: Outcome) -> Divergence | None:
    """The results there are follow the order of the calls, each carrying its call's result."""
    if divergence := _shape(item, expected, seen):
        return divergence
    asked = [c["id"] for c in item.turn["tool_calls"]]
    got = [m for m in _answers(seen.value, item) if m.get("tool_call_id") in asked]
    ids = [m["tool_call_id"] for m in got]
    where = f'round "{item.name}", the order of the results'
    if ids != [call_id for call_id in asked if call_id in ids]:
        completion = [call_id for call_id, _ in item.finished if call_id in ids]
        return Divergence(where, show(asked), show(ids), hints.ORDER_COMPLETION
                          if ids == completion else hints.ORDER_NOT_MODEL_ORDER)
    results = dict(item.finished)
    wrong = [m for m in got if m.get("content") != results[m["tool_call_id"]]]
    if len(got) == len(asked) and wrong:  # a merged or skipped result is another cell's
        return Divergence(f'round "{item.name}", the result of {wrong[0]["tool_call_id"]}',
                          show(results[wrong[0]["tool_call_id"]]), show(wrong[0]["content"]),
                          hints.ORDER_WRONG_RESULT)
    return None


def _round_hint(item: Round, got: list[Any]) -> str:
    start = len(item.history)
    if [dict_message(m) for m in got[:start]] != [dict_message(m) for m in item.history]:
        return hints.ORDER_PREFIX
    turn = dict_message(item.turn)
    tail = got[start:]
    if turn in tail and tail.index(turn) > 0:
        return hints.ORDER_BEFORE
    if turn not in tail:
        return hints.ORDER_SHAPE
    results = dict(item.finished)
    asked = [c["id"] for c in item.turn["tool_calls"]]
    tools = [m for m in tail[1:] if isinstance(m, dict) and m.get("role") == "tool"]
    if any(sum(text in str(m.get("content")) for text in set(results.values())) > 1
           for m in tools):
        return hints.ORDER_MERGED
    ids = [m.get("tool_call_id") for m in tools]
    if len(ids) < len(asked) or not set(asked) <= set(ids):
        return hints.ORDER_SKIPPED
    if ids != asked:
        completion = [call_id for call_id, _ in item.finished]
        return hints.ORDER_COMPLETION if ids == completion else hints.ORDER_NOT_MODEL_ORDER
    if any(m.get("content") != results.get(m.get("tool_call_id")) for m in tools):
        return hints.ORDER_WRONG_RESULT
    return hints.ORDER_SHAPE


def _refusal_divergence(item: Round, expected: Outcome, seen: Outcome,
                        where: str) -> Divergence | None:
    wanted = str(expected.error)
    bad_id = next(word for word in wanted.split() if word.startswith("call_"))
    want = f"raises ValueError naming {bad_id} ({wanted!r})"
    if seen.error is None:
        hint = hints.ORDER_RAISE
        if isinstance(seen.value, list) and not any(
                isinstance(m, dict) and m.get("tool_call_id") == bad_id for m in seen.value):
            hint = f"The missing result of {bad_id} was skipped silently. " + hints.ORDER_RAISE \
                if bad_id in [c["id"] for c in item.turn["tool_calls"]] else hints.ORDER_RAISE
        return Divergence(where, want, f"returned {_count(seen.value)}", hint)
    if not isinstance(seen.error, ValueError):
        return Divergence(where, want, seen.describe(), hints.ORDER_RAISE)
    if bad_id not in str(seen.error):
        return Divergence(where, want, seen.describe(), hints.ORDER_NAME_ID)
    return None


def _count(value: Any) -> str:
    return f"a list of {len(value)} messages" if isinstance(value, list) else repr(value)


@checked
def append_round_adds_turn_then_results(append_round: Callable[..., Any]) -> None:
    """One call in the turn: the history, then the turn, then its result; a new list (the
    history given is left as it was)."""
    _check_rounds(append_round, [rounds()[name] for name in
                                 ("umbrella", "bench_press, second round")], caller_list=True)


@checked
def append_round_one_result_per_call(append_round: Callable[..., Any]) -> None:
    """Several calls: one tool message each, with its own id."""
    _check_rounds(append_round, [rounds()[name] for name in
                                 ("two_cities, finished in model order",
                                  "four cities in model order")], view=_per_call_view)


@checked
def append_round_keeps_model_order(append_round: Callable[..., Any], *, seed: int | None = None,
                                   cases: int = 20) -> None:
    """Results finished in another order still go in the order the model asked."""
    items = [rounds()[name] for name in ("two_cities, Porto finished first",
                                         "four cities, finished 3rd, 1st, 4th, 2nd")]
    if seed is not None:
        items += generated_rounds(seed, cases)
    _check_rounds(append_round, items, view=_order_view)


@checked
def append_round_rejects_unmatched_ids(append_round: Callable[..., Any]) -> None:
    """A call without a result, or a result without a call: ValueError naming the id."""
    _check_rounds(append_round, [rounds()[name] for name in
                                 ("two_cities, Porto's result missing",
                                  "umbrella, a result for a call never made")])


def check_append_round(append_round: Callable[..., Any]) -> None:
    """The formative check: every append_round behaviour, one line each."""
    self_check({name: (lambda check=check: check(append_round)) for name, check in (
        ("append_round_adds_turn_then_results", append_round_adds_turn_then_results),
        ("append_round_one_result_per_call", append_round_one_result_per_call),
        ("append_round_keeps_model_order", append_round_keeps_model_order),
        ("append_round_rejects_unmatched_ids", append_round_rejects_unmatched_ids))})
