"""The provider-neutral transcript: messages, tool calls, replies and usage.

Everything the loop, the tools and the lessons touch is one of these pydantic models. They know
nothing about any provider's JSON; the adapters in `harness.providers` translate. What a provider
returned that must go back unchanged (thinking blocks with signatures, encrypted reasoning items,
Gemini thought signatures, Responses item ids) rides along opaquely in `Reasoning` and the
`extra` of `ToolCall` and `AssistantMessage`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolCall(_Model):
    """One request from the model to run a tool."""

    id: str
    """Pairs the request with its result; the provider chooses it."""
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    """The arguments as an object, already parsed."""
    raw_arguments: str | None = None
    """The argument text exactly as sent, kept only when it was not a valid JSON object."""
    extra: dict[str, Any] = Field(default_factory=dict)
    """Provider data for this call that must go back unchanged (a Gemini thought signature,
    a Responses item id)."""


class Reasoning(_Model):
    """A reasoning block the provider needs back verbatim on the next call."""

    provider: str
    """The wire format that produced it; other formats cannot accept it and drop it."""
    data: dict[str, Any]


class SystemMessage(_Model):
    role: Literal["system"] = "system"
    content: str


class UserMessage(_Model):
    role: Literal["user"] = "user"
    content: str


class AssistantMessage(_Model):
    role: Literal["assistant"] = "assistant"
    content: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    reasoning: list[Reasoning] = Field(default_factory=list)
    """Kept whole so the next call carries the model's reasoning, not just its actions."""
    extra: dict[str, Any] = Field(default_factory=dict)
    """Provider data for the message itself that must go back unchanged (the Responses message
    item id, which pairs the text with the reasoning item before it)."""


class ToolMessage(_Model):
    role: Literal["tool"] = "tool"
    tool_call_id: str
    content: str
    is_error: bool = False


Message = Annotated[
    SystemMessage | UserMessage | AssistantMessage | ToolMessage, Field(discriminator="role")
]
_messages_adapter = TypeAdapter(list[Message])


class StopReason(StrEnum):
    """Why a reply ended, normalised across providers."""

    END_TURN = "end_turn"
    TOOL_USE = "tool_use"
    MAX_TOKENS = "max_tokens"
    REFUSAL = "refusal"
    OTHER = "other"


class Usage(_Model):
    """Token counts for one call (or a sum of calls).

    `input_tokens` counts every input token, cached ones included; `cached_input_tokens` is the
    part of it read from the provider's prompt cache, and `cache_write_tokens` the part written
    to it (Anthropic charges a premium for writes; OpenAI and Gemini report none). The rest is
    ordinary input. `output_tokens` includes `reasoning_tokens`.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(**{name: getattr(self, name) + getattr(other, name)
                        for name in Usage.model_fields})


class Reply(_Model):
    """What one model call returns."""

    message: AssistantMessage
    stop_reason: StopReason
    usage: Usage = Usage()
    model: str | None = None


class ToolSpec(_Model):
    """A tool as the model sees it: name, description and JSON schema of the arguments."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})


ToolChoice = Literal["auto", "none", "required"]


def parse_messages(data: Sequence[Mapping[str, Any]]) -> list[Message]:
    """Messages from their JSON form (a saved transcript, or what `model_dump` writes); a
    pydantic ValidationError names the message and the field that is wrong.

    Example:
        >>> parse_messages([{"role": "user", "content": "Hi"}])[0].role
        'user'
    """
    return _messages_adapter.validate_python(list(data))


def parse_arguments(text: str) -> tuple[dict[str, Any], str | None]:
    """Parse a JSON argument string: the object, plus the raw text when it was not an object."""
    try:
        value = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError:
        return {}, text
    return (value, None) if isinstance(value, dict) else ({}, text)


def argument_text(call: ToolCall) -> str:
    """The argument string a text-based wire format carries for this call."""
    if call.raw_arguments is not None:
        return call.raw_arguments
    return json.dumps(call.arguments, ensure_ascii=False, separators=(",", ":"))


class Model(Protocol):
    """Anything the loop can call: the ScriptedModel and every provider adapter."""

    def complete(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
                 tool_choice: ToolChoice = "auto") -> Reply: ...
