"""`ScriptedModel`: a deterministic model for offline work, shared by lessons, exercises and tests.

It answers each call from a script of `Step`s (or from a function of the transcript), records
exactly what it was sent, raises `ScriptError` on a call the script does not have, and reports
steps never consumed. Usage follows `offline.tokens`, so input grows with the transcript as with a
real provider. It works at the neutral level: `offline.emulator` puts it behind real wire formats.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.errors import ProviderError
from harness.messages import (
    AssistantMessage,
    Message,
    Reasoning,
    Reply,
    StopReason,
    ToolCall,
    ToolChoice,
    ToolSpec,
    Usage,
    argument_text,
)
from offline.dictform import to_dicts
from offline.errors import ScriptError
from offline.tokens import cached_tokens, compact_json, count_tokens, output_tokens


@dataclass(frozen=True)
class Step:
    """One scripted reply.

    Example:
        >>> Step.call("get_forecast", city="Lisbon", day="tomorrow").stop_reason
        <StopReason.TOOL_USE: 'tool_use'>
    """

    text: str | None = None
    calls: tuple[ToolCall, ...] = ()
    thinking: str | None = None
    """Reasoning the model did before answering; providers return it in their own form."""
    stop_reason: StopReason | None = None
    """None means derived: tool_use when there are calls, end_turn otherwise."""
    usage: Usage | None = None
    """None means computed with the token rule."""
    expect_tool_choice: ToolChoice | None = None
    """When set, a call with another tool_choice is a script error (the closing call checks)."""
    error: ProviderError | None = None
    """Raise this instead of replying, as a provider rejecting the send would."""

    @classmethod
    def say(cls, text: str, **options: Any) -> Step:
        return cls(text=text, **options)

    @classmethod
    def call(cls, name: str, /, **arguments: Any) -> Step:
        return cls(calls=(ToolCall(id="", name=name, arguments=arguments),))

    @classmethod
    def call_many(cls, *calls: tuple[str, dict[str, Any]] | ToolCall, text: str | None = None,
               thinking: str | None = None, **options: Any) -> Step:
        built = tuple(c if isinstance(c, ToolCall) else ToolCall(id="", name=c[0], arguments=c[1])
                      for c in calls)
        return cls(text=text, calls=built, thinking=thinking, **options)

    def __post_init__(self) -> None:
        if self.stop_reason is None:
            derived = StopReason.TOOL_USE if self.calls else StopReason.END_TURN
            object.__setattr__(self, "stop_reason", derived)
        else:  # "max_tokens" and StopReason.MAX_TOKENS are the same step
            object.__setattr__(self, "stop_reason", StopReason(self.stop_reason))


@dataclass(frozen=True)
class Request:
    """What the scripted model was sent on one call."""

    messages: list[Message]
    tools: list[ToolSpec]
    tool_choice: ToolChoice


Script = Sequence[Step | Callable[[list[Message]], Step]] | Callable[[list[Message], int], Step]


@dataclass
class ScriptedModel:
    """A model that replays a script. Call `complete` as you would call a provider adapter.

    Example:
        >>> model = ScriptedModel([Step.say("Hello!")])
        >>> model.complete([]).message.content
        'Hello!'
        >>> model.unconsumed
        0
    """

    script: Script
    name: str = "scripted"
    requests: list[Request] = field(default_factory=list)
    _previous_input: str | None = field(default=None, repr=False)

    def complete(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
                 tool_choice: ToolChoice = "auto") -> Reply:
        number = len(self.requests) + 1
        self.requests.append(Request(list(messages), list(tools), tool_choice))
        step = self._step(list(messages), number)
        if step.expect_tool_choice and step.expect_tool_choice != tool_choice:
            raise ScriptError(
                f"ScriptedModel: call {number} was scripted for tool_choice="
                f"{step.expect_tool_choice!r} but was sent tool_choice={tool_choice!r}.")
        if step.error is not None:
            raise step.error
        return self._reply(step, messages, tools, number)

    @property
    def unconsumed(self) -> int:
        """Steps of a list script that no call has used yet."""
        return 0 if callable(self.script) else max(0, len(self.script) - len(self.requests))

    def assert_consumed(self) -> None:
        if self.unconsumed:
            raise ScriptError(f"ScriptedModel: {self.unconsumed} scripted step(s) were never "
                              f"used; the run made {len(self.requests)} call(s).")

    def _step(self, messages: list[Message], number: int) -> Step:
        if callable(self.script):
            return self.script(messages, number)
        if number > len(self.script):
            raise ScriptError(
                f"ScriptedModel: call {number} was not scripted (the script has "
                f"{len(self.script)} step(s)). The loop called the model again after the "
                f"reply that should have ended the run.")
        step = self.script[number - 1]
        return step(messages) if callable(step) else step

    def _reply(self, step: Step, messages: Sequence[Message], tools: Sequence[ToolSpec],
               number: int) -> Reply:
        calls = [call.model_copy(update={"id": call.id or f"call_{number}_{index}"})
                 for index, call in enumerate(step.calls, start=1)]
        reasoning = ([Reasoning(provider=self.name, data={"thinking": step.thinking})]
                     if step.thinking else [])
        message = AssistantMessage(content=step.text, tool_calls=calls, reasoning=reasoning)
        usage = step.usage or self._usage(message, step, messages, tools)
        assert step.stop_reason is not None  # never None after __post_init__: derived there
        return Reply(message=message, stop_reason=step.stop_reason, usage=usage, model=self.name)

    def _usage(self, message: AssistantMessage, step: Step, messages: Sequence[Message],
               tools: Sequence[ToolSpec]) -> Usage:
        sent = compact_json({"messages": to_dicts(list(messages)),
                             "tools": [t.model_dump() for t in tools]})
        cached = cached_tokens(self._previous_input, sent)
        self._previous_input = sent
        calls = [(call.name, argument_text(call)) for call in message.tool_calls]
        return Usage(input_tokens=count_tokens(sent),
                     output_tokens=output_tokens(message.content, calls, step.thinking or ""),
                     cached_input_tokens=cached,
                     reasoning_tokens=output_tokens(None, [], step.thinking or ""))
