"""What the adapter tests share: the umbrella transcript, a recording mock transport, a strict
check against the official SDKs' TypedDict params, and hypothesis strategies for transcripts."""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from typing import Any

import httpx
from hypothesis import strategies as st
from pydantic import TypeAdapter

from harness.messages import (
    AssistantMessage,
    Message,
    Reasoning,
    SystemMessage,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
)

FORECAST = ToolSpec(
    name="get_forecast", description="Get the weather forecast for a city and day.",
    parameters={"type": "object", "properties": {"city": {"type": "string"},
                                                 "day": {"type": "string"}},
                "required": ["city", "day"], "additionalProperties": False})
SYSTEM = "You are a concise travel assistant."
QUESTION = "Should I pack an umbrella for Lisbon tomorrow?"
FORECAST_TEXT = "Lisbon, tomorrow: light rain, 14 C"
LISBON = {"city": "Lisbon", "day": "tomorrow"}


def umbrella(call_id: str = "call_1", *, extra: dict[str, Any] | None = None,
             reasoning: list[Reasoning] | None = None, content: str | None = None,
             is_error: bool = False) -> list[Message]:
    """System, user, an assistant turn with one get_forecast call, and its result."""
    call = ToolCall(id=call_id, name="get_forecast", arguments=LISBON, extra=extra or {})
    return [SystemMessage(content=SYSTEM), UserMessage(content=QUESTION),
            AssistantMessage(content=content, tool_calls=[call], reasoning=reasoning or []),
            ToolMessage(tool_call_id=call_id, content=FORECAST_TEXT, is_error=is_error)]


def two_cities(first: str = "call_1", second: str = "call_2") -> list[Message]:
    """Two calls in one assistant turn, answered in order."""
    calls = [ToolCall(id=first, name="get_forecast", arguments=LISBON),
             ToolCall(id=second, name="get_forecast",
                      arguments={"city": "Porto", "day": "tomorrow"})]
    return [UserMessage(content="Lisbon or Porto tomorrow?"), AssistantMessage(tool_calls=calls),
            ToolMessage(tool_call_id=first, content=FORECAST_TEXT),
            ToolMessage(tool_call_id=second, content="Porto, tomorrow: sunny, 19 C")]


class Recorder:
    """A MockTransport handler that answers from a list and keeps every request it saw."""

    def __init__(self, *responses: httpx.Response):
        self.responses = list(responses)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.responses.pop(0)

    @property
    def client(self) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(self))

    @property
    def body(self) -> dict[str, Any]:
        return json.loads(self.requests[-1].content)


def answering(status: int = 200, body: Any = None, *, text: str | None = None) -> Recorder:
    response = httpx.Response(status, text=text) if text is not None else httpx.Response(
        status, json=body)
    return Recorder(response)


def assert_valid_params(adapter: TypeAdapter, body: dict[str, Any]) -> None:
    """Validate against an SDK TypedDict and require that nothing was dropped or changed.

    Pydantic ignores unknown keys in TypedDicts and validates `Iterable` fields lazily, so the
    result is drained and compared with the input: a misspelt or unknown key shows as a diff.
    """
    assert _drain(adapter.validate_python(body)) == body


def _drain(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _drain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | Iterator):
        return [_drain(item) for item in value]
    return value


def neutral_events(messages: list[Message]) -> list[tuple]:
    """Calls and results in transcript order: what every wire format must preserve."""
    events: list[tuple] = []
    for message in messages:
        if isinstance(message, AssistantMessage):
            events.extend(("call", c.id, c.name, c.arguments) for c in message.tool_calls)
        elif isinstance(message, ToolMessage):
            events.append(("result", message.tool_call_id, message.content, message.is_error))
    return events


_names = st.sampled_from(["get_forecast", "search_tickets", "get_order", "save_goal"])
_text = st.text(max_size=20)
_scalars = st.none() | st.booleans() | st.integers() | _text | st.floats(
    allow_nan=False, allow_infinity=False)
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)
arguments = st.dictionaries(st.text(string.ascii_letters, min_size=1, max_size=8), _json,
                            max_size=3)


@st.composite
def transcripts(draw: st.DrawFn) -> list[Message]:
    """Well-formed histories: every call is answered, in order, right after its turn."""
    messages: list[Message] = []
    if draw(st.booleans()):
        messages.append(SystemMessage(content=draw(_text)))
    messages.append(UserMessage(content=draw(_text)))
    prefix = draw(st.sampled_from(["call_", "toolu_", "fc"]))
    for turn in range(draw(st.integers(0, 3))):
        calls = [ToolCall(id=f"{prefix}{turn}_{index}", name=draw(_names),
                          arguments=draw(arguments))
                 for index in range(draw(st.integers(1, 3)))]
        messages.append(AssistantMessage(content=draw(st.none() | st.text(min_size=1)),
                                         tool_calls=calls))
        messages.extend(ToolMessage(tool_call_id=call.id, content=draw(_text),
                                    is_error=draw(st.booleans())) for call in calls)
        if draw(st.booleans()):
            messages.append(UserMessage(content=draw(_text)))
    if draw(st.booleans()):
        messages.append(AssistantMessage(content=draw(st.text(min_size=1))))
    return messages


def usages(draw: st.DrawFn) -> dict[str, int]:
    """Consistent token counts: cached within input, reasoning within output."""
    input_tokens = draw(st.integers(0, 10**6))
    output_tokens = draw(st.integers(0, 10**5))
    return {"input_tokens": input_tokens, "output_tokens": output_tokens,
            "cached_input_tokens": draw(st.integers(0, input_tokens)),
            "reasoning_tokens": draw(st.integers(0, output_tokens))}


def calls(draw: st.DrawFn, prefix: str, *, max_size: int = 3) -> list[ToolCall]:
    count = draw(st.integers(0, max_size))
    return [ToolCall(id=f"{prefix}{index}", name=draw(_names), arguments=draw(arguments))
            for index in range(count)]
