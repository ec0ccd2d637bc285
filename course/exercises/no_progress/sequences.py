"""The inputs of exercise 3's checks: pairs of calls for `call_key`, sequences of calls for
`NoProgress`, and generators of random ones. The sequences named after a scenario of
`offline.scenarios` replay that scenario's calls. Data only; the checks are in
`course.exercises.no_progress.checks`.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from typing import Any

from course.exercises.no_progress import hints
from offline.scenarios import SCENARIOS


@dataclass(frozen=True)
class Pair:
    """Two calls and whether they are the same request."""

    left: tuple[str, Any]
    right: tuple[str, Any]
    same: bool
    why: str
    hint: str


def same_pairs() -> list[Pair]:
    return [
        Pair(("get_order", {"order_id": 123, "include": "items"}),
             ("get_order", {"include": "items", "order_id": 123}), True,
             "key order does not matter", hints.PROGRESS_ORDER),
        Pair(("search_tickets", {"query": "refund delay", "filters": {"status": "open",
                                                                    "age_days": 7}}),
             ("search_tickets", {"filters": {"age_days": 7, "status": "open"},
                                 "query": "refund delay"}), True,
             "key order does not matter, nested objects included", hints.PROGRESS_ORDER),
        Pair(("get_order", '{"order_id": 123}'), ("get_order", {"order_id": 123}), True,
             "a JSON string is parsed first", hints.PROGRESS_SPACING),
        Pair(("get_forecast", '{ "day" :"tomorrow",\n  "city": "Lisbon" }'),
             ("get_forecast", {"city": "Lisbon", "day": "tomorrow"}), True,
             "whitespace and key order in a JSON string do not matter", hints.PROGRESS_SPACING),
    ]


def different_pairs() -> list[Pair]:
    return [
        Pair(("get_order", {"order_id": 123}), ("get_shipment", {"order_id": 123}), False,
             "different tools", hints.PROGRESS_APART),
        Pair(("get_order", {"order_id": 123}), ("get_order", {"order_id": 124}), False,
             "different argument values", hints.PROGRESS_APART),
        Pair(("get_order", {"order_id": 123}), ("get_order", {"order_id": "123"}), False,
             "a number and a string are different arguments", hints.PROGRESS_APART),
        Pair(("search_tickets", {"query": "refund delay"}),
             ("search_tickets", {"query": "refund delay", "page": 2}), False,
             "an extra argument", hints.PROGRESS_APART),
    ]


def generated_pairs(seed: int, cases: int) -> list[Pair]:
    rng, pairs = random.Random(seed), []
    for _ in range(cases):
        arguments = {f"k{i}": rng.choice([rng.randint(0, 9), f"v{rng.randint(0, 9)}",
                                          {"x": rng.randint(0, 3), "a": [1, 2]}])
                     for i in rng.sample(range(8), rng.randint(1, 4))}
        shuffled = dict(rng.sample(list(arguments.items()), len(arguments)))
        text = json.dumps(shuffled, indent=rng.choice([None, 1, 2]))
        pairs.append(Pair(("tool", arguments), ("tool", text), True,
                          "the same arguments, reordered and written as JSON text",
                          hints.PROGRESS_SPACING))
    return pairs


Observation = tuple[str, dict[str, Any] | str, bool]


def _calls(scenario: str) -> list[tuple[str, dict[str, Any]]]:
    """Every call the library's scenario makes (`offline.scenarios`), in order."""
    return [(call.name, call.arguments) for step in SCENARIOS[scenario].steps
            for call in step.calls]


def _observe(call: tuple[str, dict[str, Any]], previous_was_error: bool = False) -> Observation:
    """One call as the detector observes it, with its own copy of the arguments."""
    return (call[0], copy.deepcopy(call[1]), previous_was_error)


_ORDER, _SHIPMENT = _calls("order_shipment_cycle")[:2]
_FLIGHTS = _calls("retry_after_timeout")[0]


def _get_order(previous_was_error: bool = False) -> Observation:
    return _observe(_ORDER, previous_was_error)


def _get_shipment() -> Observation:
    return _observe(_SHIPMENT)


def _search(query: str, previous_was_error: bool = False) -> Observation:
    return ("search_tickets", {"query": query}, previous_was_error)


SEQUENCES: dict[str, list[Observation]] = {
    "refund_doom_loop": [_observe(call) for call in _calls("refund_doom_loop")[:3]],
    "refund_doom_loop, arguments reordered": [
        ("search_tickets", {"query": "refund delay", "status": "open"}, False),
        ("search_tickets", {"status": "open", "query": "refund delay"}, False)],
    "refund_doom_loop, as JSON text with other spacing": [  # the same key: use call_key
        ("search_tickets", '{"query": "refund delay"}', False),
        ("search_tickets", '{ "query" :  "refund delay" }', False)],
    "refund_doom_loop, after three new searches": [
        _search("refund"), _search("refund delay"), _search("late refund"),
        _search("refund delay"), _search("refund delay")],
    "retry_after_timeout": [_observe(_FLIGHTS), _observe(_FLIGHTS, True), _observe(_FLIGHTS)],
    "retry_after_timeout, then progress": [_get_order(), _get_order(True), _get_shipment(),
                                           _search("where is order 123")],
    "order_shipment_cycle": [_observe(call) for call in _calls("order_shipment_cycle")[:8]],
    "a cycle of three": [_get_order(), _get_shipment(), _search("order 123")] * 3,
    "a cycle that has not filled the window": [_get_order(), _get_shipment()] * 2
    + [_search("order 123")],
    "new searches, no repeat": [_search(f"refund {word}") for word in
                                ("delay", "late", "missing", "policy", "status", "bank", "card")],
    # A-A-B twice fills the window with a period of three, but its calls are not distinct:
    # each A repeats only after an error (a retry), so this is no cycle.
    "retries inside a cycle": [_get_order(), _get_order(True), _get_shipment(), _get_order(),
                               _get_order(True), _get_shipment(), _get_order()],
    "almost a cycle": [_get_order(), _get_shipment(), _get_order(), _get_shipment(),
                       _get_order(), _search("order 123"), _get_shipment()],
}


def generated_sequences(seed: int, cases: int) -> dict[str, list[Observation]]:
    """Random walks over a few calls; sequences whose verdict depends on a reading the exercise
    leaves open (a cycle made of repeated calls) are skipped."""
    rng, found = random.Random(seed), {}
    alphabet = [_get_order(), _get_shipment(), _search("refund"), _search("order 123")]
    while len(found) < cases:
        period = rng.choice([2, 3])
        cycle = rng.sample(alphabet, period)
        sequence = [rng.choice(alphabet) for _ in range(rng.randint(0, 4))]
        sequence += (cycle * 4)[: rng.randint(4, 8)]
        repeats = any(a == b for a, b in zip(sequence, sequence[1:], strict=False))
        if not repeats and not _ambiguous(sequence):  # repeats have their own cells
            found[f"generated sequence #{len(found) + 1}"] = sequence
    return found


def _ambiguous(sequence: list[Observation]) -> bool:
    # The alphabet's arguments are dicts: equal calls write the same sorted JSON. (Not the
    # reference's call_key: graded kernels have none, and cases must not need it.)
    keys = [name + json.dumps(arguments, sort_keys=True) for name, arguments, _ in sequence]
    for end in range(6, len(keys) + 1):
        window = keys[end - 6:end]
        for period in (2, 3):
            periodic = all(window[i] == window[i - period] for i in range(period, 6))
            if periodic and len(set(window[:period])) < period:
                return True
    return False
