"""Checks for exercise 2, early exit: `run_loop` and its three exits.

Each public function is one graded behaviour (the name is the test cell's grade id) and looks at
one part of the two runs that `course.exercises.early_exit.runs` logs, so that one mistake costs the cell of
its own sentence of the contract and no other: the whole run, what the run did up to the cap (its
calls and tools, not their messages), the pending results, the closing call (measured against
the student's own transcript), and the instruction and the caller's list. Failures name the
scenario, the call number and the message index. `scripted_model` hands a scenario to a student
who wants to try a loop by hand.

The contract's sentences and the case grading each are tabled in tests/grading/test_corpus.py.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from course.exercises.early_exit import hints
from course.exercises.early_exit import runs
from course.compare import END, at, dict_message, first_difference
from course.exercises.dictmodel import DictModel, Event
from course.compare import Divergence, Plain, show
from course.exercises.report import checked, fail, self_check
from course.exercises.early_exit.runs import Run
from course.exercises.early_exit.cases import LoopScenario, generated_loops, loop_scenarios
from harness.loop import CLOSING_INSTRUCTION

# The views below: each graded behaviour compares one part of the two runs.


def _full_view(scenario: LoopScenario, ref: Run, run: Run) -> Divergence | None:
    return (runs.compare_events(scenario, ref.events, run.events, ref, run)
            or runs.compare_outcome(scenario, ref.outcome, run.outcome))


def _bare(events: list[Event]) -> list[Event]:
    """The events without the messages each call sent: what the run did, not what it said."""
    return [replace(event, messages=[]) for event in events]


def _truncated_view(scenario: LoopScenario, ref: Run, run: Run) -> Divergence | None:
    return (runs.compare_events(scenario, _bare(ref.events), _bare(run.events), ref, run)
            or runs.compare_outcome(scenario, ref.outcome, run.outcome))


def _cap_view(scenario: LoopScenario, ref: Run, run: Run) -> Divergence | None:
    want = _bare(ref.events[:runs.closing_index(ref, scenario)])
    got = _bare(run.events[:runs.closing_index(run, scenario)])
    note = (f"(runs nothing more: call {scenario.max_turns} was the last with tools allowed; "
            f"its calls stay pending)")
    return (runs.compare_events(scenario, want, got, ref, run, end_note=note)
            or runs.compare_outcome(scenario, ref.outcome, run.outcome, part=slice(0, 1)))


def _closing_call(run: Run, scenario: LoopScenario) -> Event | None:
    """The first call with tool_choice 'none', else the call after the first max_turns."""
    calls = run.calls()
    text_only = [event for event in calls if event.tool_choice == "none"]
    if text_only:
        return text_only[0]
    return calls[scenario.max_turns] if len(calls) > scenario.max_turns else None


def _without_system(messages: list[Any]) -> list[Any]:
    """The messages after the system message(s) at the front (where the instruction goes)."""
    start = 0
    while start < len(messages) and isinstance(messages[start], dict) \
            and messages[start].get("role") == "system":
        start += 1
    return list(messages[start:])


def _masked(messages: list[Any]) -> list[Any]:
    """Pending results compared by their start only: any text after 'Not executed' will do."""
    return [{**dict_message(m), "content": runs.PENDING + "..."} if runs.is_pending(m)
            else dict_message(m) for m in messages]


def _pending_view(scenario: LoopScenario, ref: Run, run: Run) -> Divergence | None:
    mine, yours = _closing_call(ref, scenario), _closing_call(run, scenario)
    assert mine is not None
    if yours is None:
        return Divergence(f"{scenario.label}, call {mine.number}", runs.describe(mine),
                          Plain(f"(no closing call: {run.outcome.ended()})"),
                          hints.LOOP_NO_CLOSING)
    # Only the tail matters here: the results after the last assistant turn.
    want = _masked(_results(_tail(mine.messages)))
    got = _masked(_results(_tail(yours.messages)))
    index = first_difference(want, got)
    if index is None:
        return None
    return Divergence(f"{scenario.label}, call {yours.number}, pending result {index + 1}",
                      show(at(want, index)), show(at(got, index)), hints.LOOP_PENDING)


def _results(messages: list[Any]) -> list[Any]:
    return [m for m in messages if isinstance(m, dict) and m.get("role") == "tool"]


def _tail(messages: list[Any]) -> list[Any]:
    last = max((i for i, m in enumerate(messages)
                if isinstance(m, dict) and m.get("role") == "assistant"), default=-1)
    return list(messages[last + 1:])


def _head(messages: list[Any]) -> list[Any]:
    """The messages up to the last assistant turn (its pending results and after: left out)."""
    last = max((i for i, m in enumerate(messages)
                if isinstance(m, dict) and m.get("role") == "assistant"), default=-1)
    return list(messages[:last + 1])


def _closing_view(scenario: LoopScenario, ref: Run, run: Run) -> Divergence | None:
    mine, yours = _closing_call(ref, scenario), _closing_call(run, scenario)
    assert mine is not None
    if yours is None:
        return Divergence(f"{scenario.label}, call {mine.number}", runs.describe(mine),
                          Plain(f"(no closing call: {run.outcome.ended()})"),
                          hints.LOOP_NO_CLOSING)
    if yours.tool_choice != "none":
        return Divergence(f"{scenario.label}, call {mine.number} (the closing call), tool_choice",
                          repr("none"), repr(yours.tool_choice),
                          runs.choice_hint(scenario, mine, yours))
    # A copy of the student's own transcript: what its previous call sent, then the last reply.
    # Pending results, the instruction and the system message are other cells' business.
    before = [e for e in run.calls() if e.number == yours.number - 1]
    want = [dict_message(m) for m in _without_system(before[0].messages)] if before else []
    got = [dict_message(m) for m in _head(_without_system(yours.messages))]
    index = first_difference(want, got[:-1]) if got else 0
    if index is not None or not got:
        sent = yours.messages
        offset = len(sent) - len(_without_system(sent))  # 1 when a system message leads
        return Divergence(f"{scenario.label}, call {yours.number} (the closing call), message "
                          f"index {(index or 0) + offset} (counting from 0, of the {len(sent)} "
                          f"messages it sent)",
                          show(at(want, index or 0)), show(at(got, index or 0)),
                          hints.LOOP_CLOSING_COPY)
    extra = run.events[run.events.index(yours) + 1:]
    if extra:
        return Divergence(f"{scenario.label}, after the closing call", "(nothing: returns)",
                          runs.describe(extra[0]), hints.LOOP_ONE_CLOSING)
    # The answer only: the status at the cap is the cap cell's.
    return runs.compare_outcome(scenario, ref.outcome, run.outcome, part=slice(1, 2))


def _instruction_view(scenario: LoopScenario, ref: Run, run: Run) -> Divergence | None:
    mine, yours = _closing_call(ref, scenario), _closing_call(run, scenario)
    assert mine is not None
    where = f"{scenario.label}, call {mine.number} (the closing call)"
    if yours is None:
        return Divergence(where, runs.describe(mine),
                          Plain(f"(no closing call: {run.outcome.ended()})"),
                          hints.LOOP_NO_CLOSING)
    if yours.tool_choice != "none" and not any(runs.is_pending(m) for m in yours.messages):
        # Not a closing call at all (it carries no pending result): one call too many.
        return Divergence(where, runs.describe(mine), runs.describe(yours),
                          runs.choice_hint(scenario, mine, yours))
    instruction = runs.normal(CLOSING_INSTRUCTION)
    holders = [i for i, m in enumerate(yours.messages)
               if isinstance(m, dict) and instruction in runs.normal(m.get("content"))]
    in_results = [i for i in holders if yours.messages[i].get("role") == "tool"]
    if in_results:
        return Divergence(f"{where}, message index {in_results[0]}",
                          "a tool result that only says 'Not executed...'",
                          show(yours.messages[in_results[0]]), hints.LOOP_INSTRUCTION_IN_RESULT)
    first = yours.messages[0] if yours.messages else END
    original = scenario.messages[0]["content"] if scenario.messages[0]["role"] == "system" \
        else ""
    good_first = (isinstance(first, dict) and first.get("role") == "system"
                  and instruction in runs.normal(first.get("content"))
                  and runs.normal(first.get("content")).startswith(runs.normal(original)))
    if not good_first:
        return Divergence(f"{where}, message index 0", show(mine.messages[0]), show(first),
                          hints.LOOP_INSTRUCTION_PLACE)
    if first.get("content") != mine.messages[0]["content"]:  # the same words, other spacing
        return Divergence(f"{where}, message index 0", show(mine.messages[0]), show(first),
                          hints.LOOP_SEPARATOR)
    if len(holders) > 1:
        return Divergence(f"{where}, message index {holders[1]}",
                          "the instruction only in the system message",
                          show(yours.messages[holders[1]]), hints.LOOP_INSTRUCTION_PLACE)
    given = run.given_after
    if not isinstance(given, list) or given != run.given_before:
        index = first_difference(run.given_before, list(given or [])) or 0
        edited = index < len(run.given_before)  # a message changed, or only new ones added
        return Divergence(f"{scenario.label}, the messages given to run_loop, index {index}",
                          show(at(run.given_before, index)), show(at(list(given or []), index)),
                          hints.LOOP_APPEND_ONLY if edited else hints.LOOP_CALLER_LIST)
    return None


View = Callable[[LoopScenario, Run, Run], Divergence | None]


def _check(run_loop: Callable[..., Any], scenarios: Sequence[LoopScenario], view: View) -> None:
    for scenario, ref, run in runs.paired_runs(run_loop, scenarios):
        divergence = view(scenario, ref, run)
        if divergence is not None:
            fail(runs.SUBJECT, divergence)


def _named(*names: str) -> list[LoopScenario]:
    everything = loop_scenarios()
    return [everything[name] for name in names]


@checked
def run_loop_feeds_results_back(run_loop: Callable[..., Any], *, seed: int | None = None,
                                cases: int = 20) -> None:
    """Runs that end by themselves: every result goes back, and the answer is returned."""
    scenarios = _named("umbrella", "two_cities", "no_tool_needed", "bench_press")
    if seed is not None:
        scenarios += generated_loops(seed, cases, capped=False)
    _check(run_loop, scenarios, _full_view)


@checked
def run_loop_truncated_is_not_an_answer(run_loop: Callable[..., Any]) -> None:
    """A reply cut at the output-token limit ends the run as truncated, with no answer."""
    _check(run_loop, _named("truncated", "truncated_after_a_tool"), _truncated_view)


@checked
def run_loop_stops_at_the_cap(run_loop: Callable[..., Any], *, seed: int | None = None,
                              cases: int = 20) -> None:
    """max_turns calls with tools allowed, the last reply's calls not run, status turn_cap."""
    scenarios = _named("bench_press_capped", "refund_doom_loop", "two_cities_capped")
    if seed is not None:
        scenarios += generated_loops(seed, cases, capped=True)
    _check(run_loop, scenarios, _cap_view)


@checked
def run_loop_answers_pending_calls(run_loop: Callable[..., Any]) -> None:
    """Each pending call gets a 'Not executed' tool message, in model order, before closing."""
    _check(run_loop, _named("bench_press_capped", "two_cities_capped", "capped_without_system"),
           _pending_view)


@checked
def run_loop_closing_call_is_text_only(run_loop: Callable[..., Any]) -> None:
    """One closing call with tool_choice 'none' on a copy of the transcript; its text is the
    answer, unless it was cut off or still calls a tool."""
    _check(run_loop, _named("bench_press_capped", "refund_doom_loop", "capped_without_system",
                            "closing_reply_cut", "closing_reply_calls_a_tool"), _closing_view)


@checked
def run_loop_instruction_in_system_prompt(run_loop: Callable[..., Any]) -> None:
    """The instruction rides in the closing call's system message; the history is untouched."""
    _check(run_loop, _named("bench_press_capped", "capped_without_system"), _instruction_view)


BEHAVIOURS = {
    "run_loop_feeds_results_back": run_loop_feeds_results_back,
    "run_loop_truncated_is_not_an_answer": run_loop_truncated_is_not_an_answer,
    "run_loop_stops_at_the_cap": run_loop_stops_at_the_cap,
    "run_loop_answers_pending_calls": run_loop_answers_pending_calls,
    "run_loop_closing_call_is_text_only": run_loop_closing_call_is_text_only,
    "run_loop_instruction_in_system_prompt": run_loop_instruction_in_system_prompt,
}


def check_run_loop(run_loop: Callable[..., Any]) -> None:
    """The formative check: every run_loop behaviour, one line each."""
    self_check({name: (lambda check=check: check(run_loop)) for name, check in BEHAVIOURS.items()})


def scripted_model(name: str, *, wire: str = "anthropic"
                   ) -> tuple[DictModel, dict[str, Callable[..., str]], list[dict[str, Any]], int]:
    """A scenario to try a loop on by hand: (model, tools, messages, max_turns).

    The model speaks `wire`'s format to the emulator, so it rejects what that API rejects (an
    unanswered call, a result for no call) with the real error, as lesson 03 showed.

    Example:
        >>> model, tools, messages, max_turns = scripted_model("umbrella")
        >>> model(messages)["stop_reason"], max_turns
        ('tool_use', 10)
    """
    scenario = loop_scenarios()[name]
    return (DictModel(scenario.steps, tools=scenario.tools, wire=wire), dict(scenario.tools),
            copy.deepcopy(scenario.messages), scenario.max_turns)
