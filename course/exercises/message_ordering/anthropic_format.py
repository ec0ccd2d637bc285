"""Checks for exercise 1, part 2: `to_anthropic`, the transcript in Anthropic's wire format.

The reference output comes from the Anthropic adapter (`course.exercises.reference.to_anthropic`);
this module reads Anthropic's format only to compare two outputs (equivalent spellings made equal)
and to say what a student's output gets wrong: the system prompt left among the messages, a
string `input`, results split over several user messages, or a tool role. A user's text after a
turn's results may come in the results' message or in one of its own right after it: the API
merges the two, so they are compared merged (`_merged`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from course.exercises import reference
from course.exercises.message_ordering import hints
from course.compare import run_reference
from course.compare import at, first_difference
from course.exercises.ownwork import Watch, refuse_calls, refuse_reference
from course.compare import Divergence, Outcome, show
from course.exercises.grader_hook import call
from course.exercises.report import KitError, checked, fail, self_check
from course.exercises.message_ordering.cases import transcripts

MODULES = ("course.exercises.reference", "harness.providers.anthropic")

def _wire_text(content: Any) -> Any:
    """Text content written either way (a string, or a list of text blocks) as one string."""
    if isinstance(content, list) and all(isinstance(b, dict) and b.get("type") == "text"
                                         for b in content):
        return "".join(str(b.get("text", "")) for b in content)
    return content


def _wire_block(block: Any) -> Any:
    if not isinstance(block, dict):
        return block
    block = dict(block)
    if block.get("type") == "tool_result":
        if block.get("is_error") is False:
            del block["is_error"]  # optional, false by default
        block["content"] = _wire_text(block.get("content"))
    return block


def _wire_message(message: Any) -> Any:
    """One message with equivalent spellings made equal (a string content is one text block)."""
    if not isinstance(message, dict):
        return message
    content = message.get("content")
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if isinstance(content, list):
        content = [_wire_block(b) for b in content
                   if not (isinstance(b, dict) and b.get("type") == "text" and not b.get("text"))]
    return {"role": message.get("role"), "content": content}


def _carries_results(message: Any) -> bool:
    return isinstance(message, dict) and isinstance(message.get("content"), list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in message["content"])


def _merged(messages: list[Any]) -> list[Any]:
    """The messages as the API reads them where two spellings are one request: a user message
    without results right after one with results is part of it (the API merges consecutive
    messages of one role). Results split over several messages stay apart: one message is the
    shape the text asks for."""
    found: list[Any] = []
    for message in map(_wire_message, messages):
        previous = found[-1] if found else None
        if (_carries_results(previous) and isinstance(message, dict)
                and message.get("role") == "user" and isinstance(message.get("content"), list)
                and not _carries_results(message)):
            found[-1] = {**previous, "content": [*previous["content"], *message["content"]]}
        else:
            found.append(message)
    return found


def _run_transcripts(to_anthropic: Callable[..., Any], names: Sequence[str]
                     ) -> list[tuple[str, Outcome, Outcome]]:
    refuse_reference("to_anthropic", to_anthropic, MODULES)
    everything = transcripts()
    with Watch(MODULES) as watch:
        seen = [call(to_anthropic, copy.deepcopy(everything[name])) for name in names]
    refuse_calls("to_anthropic", watch)
    return [(name, run_reference(reference.to_anthropic, copy.deepcopy(everything[name])),
             outcome) for name, outcome in zip(names, seen, strict=True)]


def _unpack(outcome: Outcome) -> tuple[Any, list[Any]] | None:
    value = outcome.value
    if outcome.error is None and isinstance(value, tuple | list) and len(value) == 2 \
            and isinstance(value[1], list):
        return value[0], value[1]
    return None


def _check_anthropic(to_anthropic: Callable[..., Any], names: Sequence[str],
                     view: Callable[[str, Any, list[Any], Any, list[Any]], Divergence | None]
                     ) -> None:
    for name, expected, seen in _run_transcripts(to_anthropic, names):
        want = _unpack(expected)
        if want is None:
            raise KitError(f"the reference to_anthropic failed on {name}: {expected.describe()}")
        got = _unpack(seen)
        if got is None:
            fail("to_anthropic", Divergence(f'transcript "{name}"',
                                            "returns (system, messages)", seen.describe(),
                                            hints.ORDER_SYSTEM))
        divergence = view(f'transcript "{name}"', *want, *got)
        if divergence is not None:
            fail("to_anthropic", divergence)


def _system_view(where: str, want_system: Any, want: list[Any], system: Any,
                 got: list[Any]) -> Divergence | None:
    roles = [m.get("role") if isinstance(m, dict) else m for m in got]
    if "system" in roles:
        index = roles.index("system")
        return Divergence(f"{where}, message index {index}", "no system message in messages",
                          show(got[index]), hints.ORDER_SYSTEM)
    if (want_system or None) != (_wire_text(system) or None):  # None, or "", when there is none
        return Divergence(f"{where}, the system value", show(want_system), show(system),
                          hints.ORDER_SYSTEM)
    return None


def _role_view(role: str, hint: Callable[[list[Any], list[Any]], str]
               ) -> Callable[[str, Any, list[Any], Any, list[Any]], Divergence | None]:
    def view(where: str, want_system: Any, want: list[Any], system: Any,
             got: list[Any]) -> Divergence | None:
        mine = [m for m in _merged(want) if m.get("role") == role]
        yours = [m for m in _merged(got) if isinstance(m, dict) and m.get("role") == role]
        index = first_difference(mine, yours)
        if index is None:
            return None
        return Divergence(f"{where}, {role} message {index + 1}", show(at(mine, index)),
                          show(at(yours, index)), hint(mine, got))

    return view


def _blocks(messages: list[Any]) -> list[dict[str, Any]]:
    return [b for m in messages if isinstance(m, dict) and isinstance(m.get("content"), list)
            for b in m["content"] if isinstance(b, dict)]


def _assistant_hint(mine: list[Any], got: list[Any]) -> str:
    uses = [b for b in _blocks(got) if b.get("type") == "tool_use"]
    if any(isinstance(b.get("input"), str) for b in uses):
        return hints.ORDER_INPUT_STRING
    return hints.ORDER_TOOL_USE


def _user_hint(mine: list[Any], got: list[Any]) -> str:
    if any(isinstance(m, dict) and m.get("role") == "tool" for m in got):
        return hints.ORDER_TOOL_ROLE
    carrying = [m for m in got if isinstance(m, dict) and m.get("role") == "user"
                and isinstance(m.get("content"), list)
                and any(isinstance(b, dict) and b.get("type") == "tool_result"
                        for b in m["content"])]
    needed = sum(1 for m in mine if any(b.get("type") == "tool_result" for b in m["content"]))
    if len(carrying) > needed:
        return hints.ORDER_SPLIT
    for before, message in zip(got, got[1:]):  # the text as a message before the results
        if isinstance(before, dict) and before.get("role") == "user" \
                and not _carries_results(before) and message in carrying:
            return hints.ORDER_RESULTS_FIRST
    for message in carrying:
        kinds = [b.get("type") for b in message["content"] if isinstance(b, dict)]
        if "tool_result" in kinds and kinds.index("tool_result") > 0:
            return hints.ORDER_RESULTS_FIRST
    return hints.ORDER_USER


@checked
def to_anthropic_keeps_system_apart(to_anthropic: Callable[..., Any]) -> None:
    """The system prompt is returned apart, and no message has the role system."""
    _check_anthropic(to_anthropic, ["umbrella", "no_system_prompt", "bench_press"],
                     _system_view)


def _assistant_view(where: str, want_system: Any, want: list[Any], system: Any,
                    got: list[Any]) -> Divergence | None:
    """The assistant turns compared, and no empty text block (the API rejects one)."""
    turns = [m for m in got if isinstance(m, dict) and m.get("role") == "assistant"]
    for number, turn in enumerate(turns, start=1):
        empty = [b for b in turn.get("content") or [] if isinstance(b, dict)
                 and b.get("type") == "text" and not b.get("text")]
        if isinstance(turn.get("content"), list) and empty:
            return Divergence(f"{where}, assistant message {number}",
                              "no text block when the turn has no text", show(empty[0]),
                              hints.ORDER_EMPTY_TEXT)
    return _role_view("assistant", _assistant_hint)(where, want_system, want, system, got)


@checked
def to_anthropic_tool_use_blocks(to_anthropic: Callable[..., Any]) -> None:
    """Assistant turns: text if any, then tool_use blocks whose input is an object."""
    _check_anthropic(to_anthropic, ["umbrella", "two_cities", "bench_press"], _assistant_view)


@checked
def to_anthropic_results_in_one_user_message(to_anthropic: Callable[..., Any]) -> None:
    """All results of one turn: tool_result blocks at the start of one user message."""
    _check_anthropic(to_anthropic, ["two_cities", "three_cities, results last", "bench_press",
                                    "no_system_prompt", "two_cities, then a question"],
                     _role_view("user", _user_hint))


def check_to_anthropic(to_anthropic: Callable[..., Any]) -> None:
    """The formative check: every to_anthropic behaviour, one line each."""
    self_check({name: (lambda check=check: check(to_anthropic)) for name, check in (
        ("to_anthropic_keeps_system_apart", to_anthropic_keeps_system_apart),
        ("to_anthropic_tool_use_blocks", to_anthropic_tool_use_blocks),
        ("to_anthropic_results_in_one_user_message", to_anthropic_results_in_one_user_message))})
