"""Streamed replies: the neutral deltas an adapter's `stream` yields, and the reply they make.

A streamed reply arrives in pieces: text as it is written, each tool call's name and then its
arguments a few characters at a time, and at the end why it stopped and what it cost. Every
adapter turns its API's events into these four deltas, so a caller can show the text as it comes
without knowing a wire format; `assemble` puts them back together as the `Reply` that `complete`
gives for the same request. The loop does not stream: it acts on finished messages only, since a
call's arguments mean nothing until their last piece is in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from harness.messages import (
    AssistantMessage,
    Reasoning,
    Reply,
    StopReason,
    ToolCall,
    Usage,
    parse_arguments,
)


class _Delta(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TextDelta(_Delta):
    """More of the reply's text."""

    text: str


class ToolCallStart(_Delta):
    """A tool call begins: its id and name come first, its arguments in the deltas after."""

    index: int
    """The call's place among the reply's calls (0, 1...); its argument pieces carry it too."""
    id: str
    name: str
    extra: dict[str, Any] = Field(default_factory=dict)
    """What goes back unchanged with the call, as in `ToolCall.extra`."""


class ArgumentsDelta(_Delta):
    """A piece of one call's argument text: JSON cut anywhere, so only the whole of it parses."""

    index: int
    """Which call the piece belongs to: the `index` of its `ToolCallStart`. Calls may take turns,
    so this is not the place of the piece in the stream."""
    text: str


class Finish(_Delta):
    """The end of the reply: why it stopped, its usage, and what must go back unchanged."""

    stop_reason: StopReason
    usage: Usage = Usage()
    model: str | None = None
    reasoning: list[Reasoning] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict)
    """As in `AssistantMessage.reasoning` and `.extra`."""

    @classmethod
    def of(cls, reply: Reply) -> Finish:
        """The finish of a reply whose text and calls have been streamed already."""
        return cls(stop_reason=reply.stop_reason, usage=reply.usage, model=reply.model,
                   reasoning=reply.message.reasoning, extra=reply.message.extra)


Delta = TextDelta | ToolCallStart | ArgumentsDelta | Finish


def collect_calls(deltas: Iterable[Delta]) -> list[ToolCall]:
    """The tool calls in a stream of deltas, in the order of their index.

    Each call's argument pieces are joined by its index, whatever came between them, and parsed
    once all are in (text that is not a JSON object is kept in `raw_arguments`, as `complete`
    keeps it).

    Example:
        >>> collect_calls([ToolCallStart(index=0, id="call_1", name="get_forecast"),
        ...                ArgumentsDelta(index=0, text='{"city":'),
        ...                ArgumentsDelta(index=0, text=' "Porto"}')])[0].arguments
        {'city': 'Porto'}
    """
    starts: dict[int, ToolCallStart] = {}
    pieces: dict[int, list[str]] = {}
    for delta in deltas:
        if isinstance(delta, ToolCallStart):
            starts[delta.index], pieces[delta.index] = delta, []
        elif isinstance(delta, ArgumentsDelta):
            pieces[delta.index].append(delta.text)
    calls = []
    for index in sorted(starts):
        start = starts[index]
        arguments, raw = parse_arguments("".join(pieces[index]))
        calls.append(ToolCall(id=start.id, name=start.name, arguments=arguments,
                              raw_arguments=raw, extra=start.extra))
    return calls


def assemble(deltas: Iterable[Delta]) -> Reply:
    """The finished reply of a whole stream, equal to what `complete` returns for its request.

    Example:
        >>> assemble([TextDelta(text="Rain "), TextDelta(text="later."),
        ...           Finish(stop_reason=StopReason.END_TURN)]).message.content
        'Rain later.'
    """
    deltas = list(deltas)
    finish = deltas[-1] if deltas else None
    if not isinstance(finish, Finish):
        raise ValueError("the stream ended before its Finish: the reply is incomplete")
    texts = [delta.text for delta in deltas if isinstance(delta, TextDelta)]
    message = AssistantMessage(content="".join(texts) if texts else None,
                               tool_calls=collect_calls(deltas), reasoning=finish.reasoning,
                               extra=finish.extra)
    return Reply(message=message, stop_reason=finish.stop_reason, usage=finish.usage,
                 model=finish.model)
