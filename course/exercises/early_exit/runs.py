"""Exercise 2's machinery: run a loop on a scenario, log what it did, compare two logs.

`paired_runs` runs the reference and the student's loop on the same scenarios through `DictModel`
(the shared ScriptedModel behind the exercise's calling convention) and logs each run as events:
every model call with exactly what was sent, every tool run. `compare_events` finds the first
event where two logs differ (kind, tool_choice, then message by message) and picks the hint that
names the likely bug. The graded views over these logs are in `course.exercises.early_exit.checks`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from course.exercises import reference
from course.exercises.early_exit import hints
from course.compare import END, at, dict_message, first_difference
from course.exercises.dictmodel import DictModel, Event, logged_tools
from course.exercises.ownwork import Watch, refuse_calls, refuse_reference
from course.compare import Divergence, Outcome, Plain, run_reference, show
from course.exercises.grader_hook import call, observed
from course.exercises.early_exit.cases import LoopScenario
from harness.loop import CLOSING_INSTRUCTION, PENDING_STARTS

MODULES = ("course.exercises.reference", "harness.loop")
SUBJECT = "run_loop"
PENDING = PENDING_STARTS[0]
"""How a pending call's result begins in exercise 2 (it has no cancel: never "Cancelled")."""


@dataclass
class Run:
    """Everything one run of a loop did."""

    events: list[Event]
    outcome: Outcome
    given_before: list[dict[str, Any]]
    given_after: Any

    def calls(self) -> list[Event]:
        return [event for event in self.events if event.kind == "call"]


@observed
def record(function: Callable[..., Any], scenario: LoopScenario, *, limit: int | None,
           student: bool = True) -> Run:
    """One run of `function` on the scenario, logged; a student's under the deadline, the
    reference's without one (a loaded machine must not make the kit's own run fail)."""
    events: list[Event] = []
    model = DictModel(scenario.steps, tools=scenario.tools, limit=limit, log=events)
    tools = logged_tools(scenario.tools, events)
    given = copy.deepcopy(scenario.messages)
    run = call if student else run_reference
    outcome = run(function, model, tools, given, max_turns=scenario.max_turns)
    return Run(events, outcome, copy.deepcopy(scenario.messages), given)


def paired_runs(run_loop: Callable[..., Any], scenarios: Sequence[LoopScenario]
                ) -> list[tuple[LoopScenario, Run, Run]]:
    """The reference's run and the student's run of each scenario (the student's watched).

    The student's runs come first and depend on nothing the reference does: a graded kernel has
    no reference (`grader.withhold`), and the class grader judges elsewhere what it recorded.
    A student's run may make two model calls more than the script holds: enough to show a loop
    that goes on past its answer, not so many that a runaway loop takes long."""
    refuse_reference(SUBJECT, run_loop, MODULES)
    with Watch(MODULES) as watch:
        seen = [record(run_loop, scenario, limit=len(scenario.steps) + 2)
                for scenario in scenarios]
    refuse_calls(SUBJECT, watch)
    expected = [record(reference.run_loop, scenario, limit=None, student=False)
                for scenario in scenarios]
    return list(zip(scenarios, expected, seen, strict=True))


def describe(event: Event | Any) -> str:
    if not isinstance(event, Event):
        return str(event)
    if event.kind == "call":
        return (f"call {event.number}: the model is sent {len(event.messages)} messages "
                f"with tool_choice={event.tool_choice!r}")
    return f"runs {event.name}({show(event.arguments)})"


def compare_events(scenario: LoopScenario, want: list[Event], got: list[Event], ref: Run,
                   run: Run, *, end_note: str | None = None) -> Divergence | None:
    """The first event where the runs differ: kind, tool_choice, then message by message."""
    for position in range(max(len(want), len(got))):
        mine, yours = at(want, position), at(got, position)
        if mine == yours:
            continue
        if isinstance(mine, Event) and isinstance(yours, Event) and mine.kind == yours.kind:
            if mine.kind == "call":
                divergence = _compare_call(scenario, mine, yours)
                if divergence is not None:
                    return divergence
                continue
            return Divergence(f"{scenario.label}, after call {mine.number}", describe(mine),
                              describe(yours), hints.LOOP_GENERIC)
        made = _calls_before(want, position)
        where = f"{scenario.label}, " + (f"after call {made}" if made else "at the start")
        hint = _event_hint(scenario, want, run.events, position)
        if hint == hints.LOOP_GENERIC and yours is END and run.outcome.error is not None:
            hint = hints.LOOP_CRASH
        if yours is END:
            yours = Plain(f"(nothing more: {run.outcome.ended()})")
        if mine is END:
            mine = Plain(end_note or f"(nothing more: {ref.outcome.ended()})")
        return Divergence(where, describe(mine), describe(yours), hint)
    return None


def _calls_before(events: list[Event], position: int) -> int:
    return sum(1 for event in events[:position] if event.kind == "call")


def _compare_call(scenario: LoopScenario, mine: Event, yours: Event) -> Divergence | None:
    where = f"{scenario.label}, call {mine.number}"
    if mine.tool_choice != yours.tool_choice:
        return Divergence(f"{where}, tool_choice", repr(mine.tool_choice),
                          repr(yours.tool_choice), choice_hint(scenario, mine, yours))
    want = [dict_message(m) for m in mine.messages]
    got = [dict_message(m) for m in yours.messages]
    index = first_difference(want, got)
    if index is None:
        return None
    return Divergence(f"{where}, message index {index}", show(at(want, index)),
                      show(at(got, index)), message_hint(mine, want, got, index))


def choice_hint(scenario: LoopScenario, mine: Event, yours: Event) -> str:
    if mine.tool_choice == "none" and yours.tool_choice == "auto":
        pending = any(is_pending(m) for m in yours.messages)
        if pending:
            return hints.LOOP_CLOSING_TOOLS
        return hints.LOOP_OFF_BY_ONE.format(cap=scenario.max_turns, made=yours.number)
    if mine.tool_choice == "auto" and yours.tool_choice == "none":
        return hints.LOOP_OFF_BY_ONE.format(cap=scenario.max_turns, made=yours.number - 1)
    return hints.LOOP_CLOSING_TOOLS


def is_pending(message: Any) -> bool:
    return (isinstance(message, dict) and message.get("role") == "tool"
            and str(message.get("content", "")).startswith(PENDING))


def message_hint(mine: Event, want: list[Any], got: list[Any], index: int) -> str:
    expected, seen = at(want, index), at(got, index)
    if isinstance(seen, dict) and seen.get("role") != "system" \
            and normal(CLOSING_INSTRUCTION) in normal(seen.get("content")):
        return hints.LOOP_INSTRUCTION_IN_RESULT if seen.get("role") == "tool" \
            else hints.LOOP_INSTRUCTION_PLACE
    if isinstance(expected, dict) and expected.get("role") == "tool":
        if isinstance(seen, dict) and seen.get("role") == "tool" \
                and expected["tool_call_id"] == seen.get("tool_call_id") and is_pending(expected):
            return hints.LOOP_PENDING
        if seen is END or not any(isinstance(m, dict) and m.get("role") == "tool"
                                  and m.get("tool_call_id") == expected["tool_call_id"]
                                  for m in got):
            if is_pending(expected):
                return hints.LOOP_PENDING
            return hints.LOOP_FEED_BACK.format(number=mine.number)
    if isinstance(expected, dict) and expected.get("role") == "assistant" \
            and isinstance(seen, dict) and seen.get("role") == "tool":
        return hints.LOOP_BEFORE
    if index == 0 and isinstance(expected, dict) and expected.get("role") == "system":
        return hints.LOOP_APPEND_ONLY
    return hints.LOOP_GENERIC


def _event_hint(scenario: LoopScenario, want: list[Event], got: list[Event],
                position: int) -> str:
    """Why the runs part at `position`; `got` is the student's whole log (to look ahead)."""
    mine, yours = at(want, position), at(got, position)
    if isinstance(yours, Event) and yours.kind == "tool":
        if _calls_before(got, position) >= scenario.max_turns:
            later = [e for e in got[position:] if e.kind == "call"]
            if later and later[0].tool_choice == "auto" \
                    and not any(is_pending(m) for m in later[0].messages):
                return hints.LOOP_OFF_BY_ONE.format(cap=scenario.max_turns, made=later[0].number)
            return hints.LOOP_RAN_PENDING
        return hints.LOOP_GENERIC
    if isinstance(mine, Event) and mine.kind == "call":
        if mine.tool_choice == "none":
            return hints.LOOP_NO_CLOSING
        if position > 0 and want[position - 1].kind == "tool":
            return hints.LOOP_EXIT_EARLY
        return hints.LOOP_GENERIC
    if mine is END and isinstance(yours, Event) and yours.kind == "call":
        last = [e for e in want if e.kind == "call"][-1]
        if last.tool_choice == "auto":
            truncated = _stopped_on_max_tokens(scenario, last)
            return hints.LOOP_TRUNCATED if truncated else hints.LOOP_DONE
        return hints.LOOP_GENERIC
    return hints.LOOP_GENERIC


def _stopped_on_max_tokens(scenario: LoopScenario, last_call: Event) -> bool:
    step = scenario.steps[last_call.number - 1]
    return step.stop_reason is not None and step.stop_reason.value == "max_tokens"


def compare_outcome(scenario: LoopScenario, expected: Outcome, seen: Outcome, *,
                    part: slice = slice(None)) -> Divergence | None:
    """The (status, answer) returned, or the `part` of it a cell judges (the status at the cap;
    the answer of a closing call)."""
    want = tuple(expected.value)
    got = seen.value
    where = f"{scenario.label}, the value returned"
    if seen.error is not None or not isinstance(got, tuple | list) or len(got) != 2:
        return Divergence(where, show(want), seen.describe(), hints.LOOP_RESULT)
    got = tuple(got)
    if want[part] == got[part]:
        return None
    if want[0] == "truncated":
        hint = hints.LOOP_TRUNCATED
    elif want == ("turn_cap", None) and got[1] is not None:
        hint = hints.LOOP_CLOSING_NO_ANSWER
    elif want[0] == "turn_cap":
        stopped_dead = got[0] == "turn_cap" and got[1] is None
        hint = hints.LOOP_NO_CLOSING if stopped_dead else hints.LOOP_RESULT
    else:
        hint = hints.LOOP_DONE
    return Divergence(where, show(list(want)), show(list(got)), hint)


def closing_index(run: Run, scenario: LoopScenario) -> int:
    """Position of the call after the first max_turns calls (the closing call), or the end."""
    count = 0
    for position, event in enumerate(run.events):
        if event.kind == "call":
            count += 1
            if count == scenario.max_turns + 1:
                return position
    return len(run.events)


def normal(text: Any) -> str:
    return " ".join(str(text).split())
