"""The capstone's verdicts: which parts of a student's play a graded cell compares with the
reference's, and the first divergence each finds.

`accepted` asks whether the recording took every request and the run made the reference's
number of model calls (the recording is the judge); `returned` compares what the run returned,
part by part, a pending result by its first words; `batches` reads how the instrumented tools saw
a batch run. Running the plays is `course.exercises.capstone.replays`'; choosing the cases is the checks'.
"""

from __future__ import annotations

from typing import Any

from course.compare import Divergence, Plain, at, first_difference, show
from course.exercises.capstone import hints
from course.exercises.capstone.replays import Played
from harness.errors import ProviderError
from harness.loop import PENDING_STARTS
from offline.errors import ReplayMismatch

PENDING = PENDING_STARTS


def accepted(made: int, run: Played, hint: str) -> Divergence | None:
    """The recording took every request, and the run made the `made` model calls of the
    reference."""
    label, error = run.case.label, run.outcome.error
    if isinstance(error, ReplayMismatch):
        return Divergence(label, "(every request as the recording holds it)",
                          Plain(str(error)), hint)
    if error is not None:
        return Divergence(f"{label}, " + (f"after call {run.played}" if run.played else
                                          "at the start"),
                          f"returns after call {made}", Plain(run.outcome.ended()), hint)
    if run.played != made:
        more = "called the model again after cancel was set" if run.played > made else \
            f"returned after call {run.played}"
        return Divergence(f"{label}, after call {min(run.played, made)}",
                          Plain(f"{made} model call(s), then returns"),
                          Plain(f"{more} ({run.outcome.ended()})"), hint)
    return None


def masked(messages: Any) -> list[Any]:
    """The history as dicts, a pending result by its first words only ('Not executed')."""
    found = []
    for message in list(messages or []):
        data = message.model_dump() if hasattr(message, "model_dump") else message
        content = data.get("content") if isinstance(data, dict) else None
        if isinstance(data, dict) and data.get("role") == "tool" and isinstance(content, str):
            data = {**data, "content": next((p + "..." for p in PENDING if
                                             content.startswith(p)), content)}
        found.append(data)
    return found


def returned(ref: Played, run: Played, hint: str, *, parts: tuple[str, ...] = (
        "status", "answer", "messages")) -> Divergence | None:
    """What the run returned, part by part, against the reference's RunResult."""
    want, got, label = ref.outcome.value, run.outcome.value, run.case.label
    if not all(hasattr(got, name) for name in parts):
        return Divergence(f"{label}, the value returned", "a RunResult",
                          show(got), hints.AGENT_SHAPE)
    for name in parts:
        mine, yours = getattr(want, name), getattr(got, name)
        if name == "messages":
            mine, yours = masked(mine), masked(yours)
            index = first_difference(mine, yours)
            if index is not None:
                want_one, got_one, where = at(mine, index), at(yours, index), ""
                if isinstance(want_one, dict) and isinstance(got_one, dict):  # name the field
                    key = next(k for k in {**want_one, **got_one}
                               if want_one.get(k) != got_one.get(k))
                    want_one, got_one, where = want_one.get(key), got_one.get(key), f", {key}"
                return Divergence(f"{label}, messages returned, index {index}{where}",
                                  show(want_one), show(got_one), hint)
        elif name == "error" and _failure(mine) != _failure(yours):
            return Divergence(f"{label}, result.error", Plain(_failure(mine)),
                              Plain(_failure(yours)), hint)
        elif name != "error" and getattr(mine, "value", mine) != getattr(yours, "value", yours):
            return Divergence(f"{label}, {name}", show(getattr(mine, "value", mine)),
                              show(getattr(yours, "value", yours)),
                              hint if name != "usage" else hints.AGENT_TOKEN_CAP)
    return None


def _failure(error: Any) -> str:
    """What result.error holds, by kind: the ProviderError that ended the run, or what instead.
    (Its kind only: the class grader's record of a student's error keeps its class and message,
    not its attributes.)"""
    if error is None:
        return "None (not set)"
    return "the ProviderError raised" if isinstance(error, ProviderError) else show(error)


def batches(run: Played) -> Divergence | None:
    """How the instrumented tools saw the calls run: together per batch, batches in order."""
    log, label = run.batches.log if run.batches else [], run.case.label
    if run.batches and run.batches.alone:
        return Divergence(f"{label}, tool {run.batches.alone[0]}",
                          "the calls of a batch of parallel-safe tools run together",
                          "they ran one at a time", hints.AGENT_BATCHES)
    seen: dict[tuple[int, int], int] = {}  # (turn, batch) -> calls started and not ended
    for turn, batch, event in log:
        if batch < 0:
            continue
        if event == "start" and any(t == turn and (b > batch or (b < batch and open_))
                                    for (t, b), open_ in seen.items()):
            return Divergence(f"{label}, the reply of call {turn}, batch {batch + 1}",
                              "starts once every call before it has finished, and before any "
                              "call after it starts", "overlapped another batch",
                              hints.AGENT_BATCHES)
        seen[(turn, batch)] = seen.get((turn, batch), 0) + (1 if event == "start" else -1)
    return None
