"""Lesson 09's pieces: group one reply's calls into batches, and lay the batches out in time.

`batches_of` is the plan: runs of parallel-safe calls share a batch, and an exclusive call stands
alone as a barrier (`harness.tools.plan_batches` is the library's version). `timeline_of` says
when each call starts and ends if every batch runs at once and waits for its slowest call: the
picture the lesson plots. Committing the results in model order is exercise 1's `append_round`,
so it is not a piece here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from course.compare import Divergence, same
from course.practice.engine import Piece, attempt
from course.practice.explain import differs
from harness.messages import ToolCall
from offline.scenarios import SCENARIOS


def batches_of(calls: list[ToolCall], mode_of: Callable[[ToolCall], str]) -> list[list[ToolCall]]:
    """Group one reply's calls, in the model's order, into batches that may each run at once.

    Consecutive calls whose `mode_of(call)` is "parallel" share a batch. Any other call
    (exclusive, or a tool nobody labelled) gets a batch of its own: a barrier, since nothing
    after it starts before it ends. Every call appears exactly once, in the order given.
    """
    batches: list[list[ToolCall]] = []
    for call in calls:
        follows_a_read = bool(batches) and mode_of(batches[-1][-1]) == "parallel"
        if mode_of(call) == "parallel" and follows_a_read:
            batches[-1].append(call)  # one more read for the open batch
        else:
            batches.append([call])  # a batch of its own: the first read, or a barrier
    return batches


def timeline_of(batches: list[list[ToolCall]], seconds: dict[str, float]
                ) -> dict[str, tuple[float, float]]:
    """When each call starts and ends, in seconds from 0: `{call.id: (start, end)}`.

    `seconds[call.id]` is how long a call takes. Every call of a batch starts when its batch
    starts; the first batch starts at 0, and each later batch starts when the batch before it
    has ended, that is when that batch's slowest call has ended.
    """
    timeline, start = {}, 0.0
    for batch in batches:
        for call in batch:
            timeline[call.id] = (start, start + seconds[call.id])
        start = max(timeline[call.id][1] for call in batch)  # the barrier: wait for the slowest
    return timeline


BATCHES = Piece("batches_of", lesson="09_parallel_tools", section="Batches and barriers",
                reference=batches_of)
TIMELINE = Piece("timeline_of", lesson="09_parallel_tools", section="A timeline of the batches",
                 reference=timeline_of)


def _call(name: str, what: str) -> ToolCall:
    return ToolCall(id=f"{name}:{what}", name=name, arguments={"exercise": what})


_MODE_OF = SCENARIOS["bench_press"].tools().mode_of  # two readers parallel-safe, save_goal not
_READ, _RECORD = _call("read_history", "bench"), _call("compute_record", "bench")
_SAVE, _SQUAT = _call("save_goal", "bench"), _call("read_history", "squat")
_UNKNOWN = _call("delete_account", "bench")  # no tool of that name: exclusive, failing closed
REPLIES = {
    "two reads": [_READ, _SQUAT],
    "the coach's reply": [_READ, _RECORD, _SAVE, _SQUAT, _call("compute_record", "squat")],
    "a reply that starts with the save": [_SAVE, _READ, _SQUAT],
    "two saves in a row": [_READ, _SAVE, _call("save_goal", "squat")],
    "an unknown tool between reads": [_READ, _UNKNOWN, _SQUAT],
    "an empty reply": [],
}
SECONDS = {"read_history": 0.2, "compute_record": 0.15, "save_goal": 0.1, "delete_account": 0.1}


def _ids(value: Any) -> Any:
    """Batches as lists of call ids, so a divergence reads "save_goal:bench", not a dump."""
    try:
        return [[call.id for call in batch] for batch in value]
    except (TypeError, AttributeError):
        return value


def _flat(batches: Any) -> list[Any]:
    try:
        return [call_id for batch in batches for call_id in batch]
    except TypeError:
        return []


def _batches_hint(want: list[list[str]], got: Any, advice: str) -> str:
    if not isinstance(got, list):
        return f"yours returned {got!r}, not a list of batches: {advice}"
    lost = [call for call in _flat(want) if call not in _flat(got)]
    if lost:
        return (f"yours leaves out {lost}: every call appears once, in the order given; after "
                "the loop, add the batch that is still open")
    for number, (mine, theirs) in enumerate(zip(want, got, strict=False), start=1):
        if mine != theirs:
            return (f"batch {number} is {theirs} in yours, {mine} in the reference: {advice}")
    return (f"yours makes {len(got)} batch(es), the reference {len(want)}: {advice}")


def _compare_batches(yours, reference, cases: list[str], hint: str) -> Divergence | None:
    for case in cases:
        calls = REPLIES[case]
        seen = attempt(yours, list(calls), _MODE_OF)
        if seen.error is None:
            seen = _ids(seen.value)
        if found := differs(case, _ids(reference(list(calls), _MODE_OF)), seen,
                            lambda want, got: _batches_hint(want, got, hint)):
            return found
    return None


@BATCHES.behaviour("puts parallel-safe calls that follow each other in one batch")
def _shares(yours, reference):
    return _compare_batches(yours, reference, ["two reads", "the coach's reply"],
                            hint="keep adding parallel-safe calls to the open batch; close it "
                                 "only when an exclusive call comes")


@BATCHES.behaviour("gives an exclusive or unknown call a batch of its own, as a barrier")
def _barriers(yours, reference):
    return _compare_batches(yours, reference, ["a reply that starts with the save",
                                               "two saves in a row",
                                               "an unknown tool between reads"],
                            hint="an exclusive call closes the open batch, then stands alone; "
                                 "the calls after it start a new batch")


@BATCHES.behaviour("keeps every call exactly once, in the model's order")
def _keeps_order(yours, reference):
    return _compare_batches(yours, reference, list(REPLIES),
                            hint="after the loop, the last open batch still has to be added; "
                                 "an empty reply has no batches at all")


def _timelines(yours, reference, keep: Callable[[tuple[float, float]], Any], hint: str
               ) -> Divergence | None:
    for case, calls in REPLIES.items():
        batches = batches_of(list(calls), _MODE_OF)
        seconds = {call.id: SECONDS[call.name] for call in calls}
        want = reference(batches, seconds)
        seen = attempt(yours, [list(batch) for batch in batches], dict(seconds))
        if seen.error or not isinstance(seen.value, dict):
            return same(case, want, seen, hint="return a dict {call id: (start, end)}")
        for call in calls:
            mine = keep(want[call.id])
            theirs = keep(seen.value[call.id]) if call.id in seen.value else "missing"
            if found := differs(f"{case}, call {call.id}", mine, theirs,
                                lambda want, got, call=call, seconds=seconds: (
                                    f"yours has {call.id} ({seconds[call.id]} s long) at "
                                    f"{got}, the reference at {want}: {hint}")):
                return found
    return None


def _rounded(pair: tuple[float, ...]) -> list[float]:
    return [round(float(moment), 6) for moment in pair]


@TIMELINE.behaviour("starts every call of a batch together, when the batch before has ended")
def _starts(yours, reference):
    return _timelines(yours, reference, lambda pair: _rounded(pair[:1]),
                      hint="all calls of one batch share its start; the next batch starts at "
                           "the end of this batch's slowest call, not after each call")


@TIMELINE.behaviour("ends each call its own duration after its start")
def _ends(yours, reference):
    return _timelines(yours, reference, _rounded,
                      hint="a call ends at its start + seconds[call.id], whatever the others in "
                           "its batch take; the batch waits for the largest of those ends")
