"""Lesson 11's pieces: read many traces at once, by their exits.

`exit_shares` is the share of runs that ended each way, `stuck_on` names the tool each stuck run
kept repeating, and `turn_cap_from` sizes the turn cap from the successful runs (twice their p95).
Each is checked on a fleet of the scenarios' runs on the ScriptedModel (the same exits and tools
as the recordings the lesson replays) and on small fleets that hold the edge cases.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections import Counter
from typing import Any

from course.compare import Divergence, same
from course.practice.engine import Piece, attempt
from course.practice.explain import differs
from harness.trace import Exit, RunResult
from offline.scenarios import SCENARIOS


def exit_shares(results: list[RunResult]) -> dict[str, float]:
    """The share of runs (not calls) that ended with each exit: `{exit: runs with it / runs}`.

    Keys are exit names ("done", "no_progress", ...), only for exits that occurred; the shares
    add up to 1. No runs give an empty dict.
    """
    counts = Counter(result.status.value for result in results)
    return {status: count / len(results) for status, count in counts.items()}


def stuck_on(results: list[RunResult]) -> dict[str, int]:
    """For the runs that ended with no_progress: how many were stuck on each tool, most first.

    A stuck run is stuck on the tool of its last call, the one it kept repeating when the
    detector stopped it. Each run counts once, however many calls it made.
    """
    stuck = Counter(result.tool_names[-1] for result in results
                    if result.status is Exit.NO_PROGRESS and result.tool_names)
    return dict(stuck.most_common())


def turn_cap_from(results: list[RunResult]) -> int:
    """A first turn cap: twice the p95 of the turns of the runs that ended done, rounded up.

    p95 is `statistics.quantiles(turns, n=20, method="inclusive")[-1]`; with a single successful
    run it is that run's turns. Raise ValueError when no run ended done: there is nothing to size
    the cap from.
    """
    turns = sorted(result.turns for result in results if result.status is Exit.DONE)
    if not turns:
        raise ValueError("no run ended done: run more tasks before sizing the turn cap")
    p95 = turns[0] if len(turns) == 1 else statistics.quantiles(turns, n=20,
                                                                 method="inclusive")[-1]
    return math.ceil(2 * p95)


def _cap_of(turns: list[int]) -> int | None:
    if not turns:
        return None
    p95 = turns[0] if len(turns) == 1 else statistics.quantiles(sorted(turns), n=20,
                                                                 method="inclusive")[-1]
    return math.ceil(2 * p95)


SHARES = Piece("exit_shares", lesson="11_traces", section="Shares by exit", reference=exit_shares)
STUCK = Piece("stuck_on", lesson="11_traces", section="Which tool were they stuck on?",
              reference=stuck_on)
CAP = Piece("turn_cap_from", lesson="11_traces", section="Sizing the turn cap from the trace",
            reference=turn_cap_from)

WEEK = {"umbrella": 20, "two_cities": 15, "no_tool_needed": 12, "bench_press": 14,
        "tool_errors": 6, "retry_after_timeout": 6, "reasoning_roundtrip": 4,
        "bench_press_capped": 4, "truncated": 2, "big_pages": 3,
        "refund_doom_loop": 11, "order_shipment_cycle": 3}
"""The lesson's week of 100 runs: how many times each scenario ran."""


@functools.cache
def _runs() -> dict[str, RunResult]:
    return {name: SCENARIOS[name].run() for name in WEEK}


def fleets() -> dict[str, list[RunResult]]:
    """The lesson's week, and small fleets that hold the edge cases."""
    runs = _runs()
    return {
        "the week of 100 runs": [runs[name] for name, count in WEEK.items() for _ in range(count)],
        "one cycling run and one umbrella run": [runs["order_shipment_cycle"], runs["umbrella"]],
        "three stuck runs": [runs["refund_doom_loop"], runs["order_shipment_cycle"],
                             runs["refund_doom_loop"]],
        "one successful run": [runs["bench_press"], runs["big_pages"]],
        "twenty short runs and one long one": [runs["umbrella"]] * 20 + [runs["bench_press"]],
        "no runs": [],
    }


def _normal(value: Any) -> Any:
    """A dict with exit names as plain strings (a Counter or Exit keys are fine) and shares
    rounded, so 0.1 + 0.2 and 0.3 agree."""
    if not isinstance(value, dict):
        return value
    return {str(key): round(item, 9) if isinstance(item, float) else item
            for key, item in value.items()}


def _by_calls(fleet: list[RunResult]) -> dict[str, float]:
    """Each exit's share of the calls, the count a version that counts calls gives."""
    calls = Counter()
    for result in fleet:
        calls[result.status.value] += result.turns
    total = sum(calls.values()) or 1
    return _normal({exit: count / total for exit, count in calls.items()})


def _compare(yours, reference, cases: list[str], hint: str) -> Divergence | None:
    for case in cases:
        fleet = fleets()[case]
        seen = attempt(yours, list(fleet))

        def explain(want, got, fleet=fleet, case=case) -> str:
            said = f"for {case} yours gives {got}, the reference {want}"
            if isinstance(got, dict) and got and got == _by_calls(fleet):
                return (f"{said}: yours shares out the {sum(r.turns for r in fleet)} model "
                        f"calls, not the {len(fleet)} runs; {hint}")
            return f"{said}: {hint}"

        if found := differs(case, _normal(reference(list(fleet))),
                            seen if seen.error else _normal(seen.value), explain, advice=hint):
            return found
    return None


@SHARES.behaviour("counts runs, not calls, for each exit that occurred")
def _shares(yours, reference):
    return _compare(yours, reference, ["the week of 100 runs",
                                       "one cycling run and one umbrella run"],
                    hint="one run counts once, whatever its number of calls; divide by the "
                         "number of runs, and leave out exits no run ended with")


@SHARES.behaviour("gives no shares for no runs, instead of dividing by zero")
def _empty(yours, reference):
    return _compare(yours, reference, ["no runs"],
                    hint="with no runs there is nothing to share: return {}")


@STUCK.behaviour("counts each stuck run once, on the tool of its last call")
def _stuck(yours, reference):
    return _compare(yours, reference, ["three stuck runs", "the week of 100 runs"],
                    hint="look only at no_progress runs, and take each one's last tool "
                         "(result.tool_names[-1]); counting every call counts cycles twice")


@STUCK.behaviour("ignores runs that did not end in no_progress")
def _others(yours, reference):
    return _compare(yours, reference, ["one cycling run and one umbrella run", "no runs"],
                    hint="filter on result.status is Exit.NO_PROGRESS first")


@CAP.behaviour("sizes the cap from the runs that ended done: twice their p95, rounded up")
def _cap(yours, reference):
    for case in ["the week of 100 runs", "twenty short runs and one long one",
                 "one successful run"]:
        fleet = fleets()[case]
        done = [r.turns for r in fleet if r.status is Exit.DONE]

        def explain(want, got, fleet=fleet, done=done, case=case) -> str:
            said = f"for {case} yours says {got}, the reference {want}"
            if got == math.ceil(2 * max(done)):
                why = f"twice the longest successful run ({max(done)} calls), not the p95"
            elif len(done) < len(fleet) and got == _cap_of([r.turns for r in fleet]):
                why = "yours sizes it from every run, the capped and stuck ones too"
            else:
                why = "check which runs count and how the p95 is taken"
            return (f"{said}: {why}; only runs with status done count, p95 is "
                    "statistics.quantiles(turns, n=20, method='inclusive')[-1] (a single run is "
                    "its own p95), then math.ceil(2 * p95)")

        if found := differs(case, reference(list(fleet)), attempt(yours, list(fleet)), explain):
            return found
    return None


@CAP.behaviour("refuses to size a cap from no successful run")
def _no_success(yours, reference):
    for case in ["three stuck runs", "no runs"]:
        seen = attempt(yours, list(fleets()[case]))
        if not isinstance(seen.error, ValueError):
            said = seen.describe() if seen.error else f"returned {seen.describe()}"
            return same(case, "ValueError", seen,
                        hint=f"for {case} yours {said}, the reference raised ValueError: with no "
                             "done run there is nothing to size a cap from, and any number "
                             "would be a guess")
    return None
