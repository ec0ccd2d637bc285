"""The capstone's last graded cell, lesson 11's: `summarize_exits`, each exit's share of many runs
and the tools behind it, checked against the reference on made-up batches of runs (no loop
runs here: each batch is written from scenarios' scripts or drawn at random).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from course.compare import Divergence, Plain, show
from course.exercises import reference as _reference
from course.exercises.capstone import hints
from course.exercises.grader_hook import call
from course.exercises.ownwork import Tripwire, refuse_calls, refuse_reference
from course.exercises.report import checked, fail
from harness.messages import AssistantMessage, ToolCall
from harness.trace import Exit, RunResult
from offline.scenarios import SCENARIOS

MODULES = ("harness.trace", "course.exercises.reference")
SUMMARY = ("harness.trace.summarize", "course.exercises.reference.summarize_exits")
"""The reference's summaries, which a student's summarize_exits must not call."""


def _runs(rng: random.Random) -> list[RunResult]:
    """A made-up batch of runs: random exits, random tool calls."""
    tools = ["search_tickets", "get_order", "get_shipment", "get_forecast", "save_goal"]
    return [RunResult(rng.choice(list(Exit)), None, [AssistantMessage(tool_calls=[
        ToolCall(id=f"c{i}_{j}", name=rng.choice(tools)) for j in range(rng.randint(0, 4))])
        for i in range(rng.randint(0, 3))]) for _ in range(rng.randint(1, 30))]


def _scripted_runs() -> list[RunResult]:
    """One run per public scenario as its script goes: its exit, and every call it scripts.
    (Not the reference loop's runs: a graded kernel has no reference loop.)"""
    return [RunResult(scenario.expected_exit, None, [
        AssistantMessage(content=step.text, tool_calls=list(step.calls))
        for step in scenario.steps]) for scenario in SCENARIOS.values()]


def _summary(value: Any) -> Any:
    """A summary in one comparable form: shares rounded, pairs as tuples."""
    if not isinstance(value, dict):
        return value
    return {getattr(k, "value", k): {"share": round(v.get("share", -1), 9), "top_tools": [
        tuple(pair) for pair in v.get("top_tools", [])]} if isinstance(v, dict) else v
        for k, v in value.items()}


@checked
def summarize_exits_matches(summarize_exits: Callable[..., Any], *, seed: int | None = None,
                            cases: int = 20) -> None:
    """Lesson 11: each exit's share and the tools behind it, over many runs."""
    subject = "summarize_exits"
    refuse_reference(subject, summarize_exits, MODULES)
    batches = [_scripted_runs(), [], *(_runs(random.Random(n)) for n in range(3))]
    if seed is not None:
        batches += [_runs(random.Random(seed + n)) for n in range(cases)]
    outcomes = []
    for runs in batches:  # every call of the student's before any of the reference's
        with Tripwire(MODULES, only=SUMMARY) as watch:
            outcomes.append(call(summarize_exits, list(runs)))
        refuse_calls(subject, watch)
    for number, (runs, outcome) in enumerate(zip(batches, outcomes, strict=True), start=1):
        want = _summary(_reference.summarize_exits(runs))
        got = _summary(outcome.value) if outcome.error is None else Plain(outcome.ended())
        if want != got:
            where = f"batch {number} of {len(runs)} runs" + (
                " (one per public scenario, as its script goes)" if number == 1 else "")
            if isinstance(got, dict) and set(got) == set(want):  # name the first field that differs
                status = next(s for s in want if want[s] != got[s])
                field = "share" if want[status]["share"] != got[status]["share"] else "top_tools"
                where, want, got = f"{where}, exit {status!r}, {field}", want[status][field], \
                    got[status][field]
            fail(subject, Divergence(where, show(want), got if isinstance(got, Plain)
                                     else show(got), hints.AGENT_SUMMARISE))
