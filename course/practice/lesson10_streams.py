"""Lesson 10's streaming piece: a streamed reply's tool calls, put together from their deltas.

`collect_calls` (the library's own, `harness.stream.collect_calls`, is the reference) joins each
call's argument pieces by the call's index and parses them once whole. It is checked against the
calls `complete` returns for the same reply on each adapter's stream through the emulator
(`course.practice.runs.streamed`), and on made-up streams no scenario sends: calls whose pieces
take turns, a stream cut off inside the arguments, a call with no arguments but a signature.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from course.compare import show
from course.practice.engine import Piece, attempt
from course.practice.explain import differs
from course.practice.runs import streamed
from harness.messages import ToolCall
from harness.providers import ADAPTERS
from harness.stream import ArgumentsDelta, Finish, ToolCallStart, collect_calls

CALLS = Piece("collect_calls", lesson="10_four_providers",
              section="Your turn: tool calls from their pieces", reference=collect_calls)


def _start(index: int, name: str = "get_forecast", **extra: Any) -> ToolCallStart:
    return ToolCallStart(index=index, id=f"call_{index}", name=name, extra=extra)


def _call(index: int, name: str = "get_forecast", **fields: Any) -> ToolCall:
    return ToolCall(id=f"call_{index}", name=name, **fields)


_END = Finish(stop_reason="tool_use")
MADE_UP = {  # what the stream is: its deltas, and the calls they hold
    "two calls whose pieces take turns": (
        [_start(0), _start(1), ArgumentsDelta(index=1, text='{"city": "Po'),
         ArgumentsDelta(index=0, text='{"city": "Li'), ArgumentsDelta(index=0, text='sbon"}'),
         ArgumentsDelta(index=1, text='rto"}'), _END],
        [_call(0, arguments={"city": "Lisbon"}), _call(1, arguments={"city": "Porto"})]),
    "a stream cut off inside the arguments": (
        [_start(0), ArgumentsDelta(index=0, text='{"city": "Lis'), _END],
        [_call(0, raw_arguments='{"city": "Lis')]),
    "a call with no arguments and a signature": (
        [_start(0, "get_time", thoughtSignature="c2ln"), _END],
        [_call(0, "get_time", extra={"thoughtSignature": "c2ln"})]),
}


FIELDS = ("id", "name", "raw_arguments", "arguments", "extra")  # the text first: it says why


def _mistake(advice: str) -> Callable[[Any, Any], str]:
    """A hint that says where yours went wrong first: how many calls it returned, or which
    field of which call differs, with both values."""
    def hint(want: Any, got: Any) -> str:
        if not isinstance(got, list):
            return f"yours returned {show(got, width=50)}, not a list of ToolCall: {advice}"
        if len(got) != len(want):
            return f"yours returned {len(got)} call(s), the reference {len(want)}: {advice}"
        for number, (mine, theirs) in enumerate(zip(want, got, strict=True), start=1):
            for field in FIELDS:
                if isinstance(theirs, dict) and theirs.get(field) != mine.get(field):
                    return (f"call {number} ({mine.get('name')}): yours has {field} "
                            f"{_shown(theirs.get(field))}, the reference "
                            f"{_shown(mine.get(field))}: {advice}")
        return advice
    return hint


def _shown(value: Any) -> str:
    return "none" if value is None else show(value, width=50)


def _calls_of(yours, scenario: str, made_up: list[str], advice: str):
    cases = [(f"{provider}, {scenario}", *streamed(provider, scenario)) for provider in ADAPTERS]
    for where, deltas, want in [*cases, *((where, *MADE_UP[where]) for where in made_up)]:
        if found := differs(where, want, attempt(yours, list(deltas)), _mistake(advice),
                            advice=advice):
            return found
    return None


@CALLS.behaviour("joins one call's pieces in order, the last one too")
def _one_call(yours, reference):
    return _calls_of(yours, "umbrella", [], advice="join the text of every ArgumentsDelta whose "
                     "index is the call's, in the order they came, then parse it once; the index "
                     "is the call's, not the place of the piece in the stream")


@CALLS.behaviour("keeps calls apart by their index, even when their pieces take turns")
def _calls_apart(yours, reference):
    return _calls_of(yours, "two_cities", ["two calls whose pieces take turns"],
                     advice="keep one list of texts per call index, and add each piece to the "
                            "call its index names (not to the call that began last)")


@CALLS.behaviour("keeps text that is not JSON as it came, and each call's id, name and extra")
def _whole_calls(yours, reference):
    return _calls_of(yours, "reasoning_roundtrip", ["a stream cut off inside the arguments",
                                                    "a call with no arguments and a signature"],
                     advice="parse_arguments(text) gives the object, and the text itself when "
                            "it is not a JSON object; no pieces means arguments {}; id, name and "
                            "extra come from the call's ToolCallStart")
