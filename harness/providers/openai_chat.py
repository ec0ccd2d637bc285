"""OpenAI Chat Completions (`POST /chat/completions`): the neutral transcript to wire JSON and back.

One call, plain or streamed, no retries. Chat Completions has no reasoning items to send back, so
reasoning from any provider is dropped, and no error flag on tool results (the kit's error
results already say "Error: ..." in their text).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import httpx

from harness.errors import ProviderError
from harness.messages import (
    AssistantMessage,
    Message,
    Reply,
    StopReason,
    SystemMessage,
    ToolCall,
    ToolChoice,
    ToolMessage,
    ToolSpec,
    Usage,
    argument_text,
    parse_arguments,
)
from harness.providers import _http, catalog, streams
from harness.stream import Delta

NAME = "openai_chat"
_PROVIDER = catalog.PROVIDERS[NAME]  # base URL, key variables, default model
DEFAULT_MODEL = _PROVIDER.default_model
BASE_URL = _PROVIDER.base_url

_STOP_REASONS = {"stop": StopReason.END_TURN, "tool_calls": StopReason.TOOL_USE,
                 "length": StopReason.MAX_TOKENS, "content_filter": StopReason.REFUSAL}


class OpenAIChat:
    """The Chat Completions API as a `Model`.

    Example:
        >>> OpenAIChat(api_key="sk-test").model
        'gpt-5-mini'
    """

    name = NAME

    def __init__(self, *, model: str = DEFAULT_MODEL, client: httpx.Client | None = None,
                 api_key: str | None = None, base_url: str = BASE_URL,
                 max_output_tokens: int = 1024):
        self.model = model
        self.client = client or _http.default_client()
        self.base_url = base_url.rstrip("/")
        self.max_output_tokens = max_output_tokens
        self._api_key = api_key or _http.api_key_from_env(*_PROVIDER.key_variables)

    def complete(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
                 tool_choice: ToolChoice = "auto") -> Reply:
        body = _to_wire(messages, tools, tool_choice, model=self.model,
                        max_output_tokens=self.max_output_tokens)
        # Without a key no header is sent: the API answers 401, which becomes a ProviderError.
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        url = f"{self.base_url}/chat/completions"
        return _from_wire(_http.post_json(self.client, url, body, headers=headers,
                                          map_error=_map_error, provider=NAME))

    def stream(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
               tool_choice: ToolChoice = "auto") -> Iterator[Delta]:
        """`complete`'s call, streamed: `harness.stream` deltas while the reply is written."""
        body = _to_wire(messages, tools, tool_choice, model=self.model,
                        max_output_tokens=self.max_output_tokens)
        body |= {"stream": True, "stream_options": {"include_usage": True}}  # else no usage
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        events = _http.post_events(self.client, f"{self.base_url}/chat/completions", body,
                                   headers=headers, map_error=_map_error, provider=NAME)
        return streams.openai_chat(events, reply=_from_wire)


def to_wire(messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
            tool_choice: ToolChoice = "auto", model: str = DEFAULT_MODEL,
            max_output_tokens: int = 1024) -> dict[str, Any]:
    """The request body for these messages.

    Example:
        >>> from harness.messages import UserMessage
        >>> to_wire([UserMessage(content="Hi")])["messages"]
        [{'role': 'user', 'content': 'Hi'}]
    """
    return _to_wire(list(messages), tools, tool_choice, model=model,
                    max_output_tokens=max_output_tokens)


def from_wire(body: dict[str, Any]) -> Reply:
    """The neutral reply for a Chat Completions response body."""
    return _from_wire(body)


def _to_wire(messages: Sequence[Message], tools: Sequence[ToolSpec], tool_choice: ToolChoice,
             *, model: str, max_output_tokens: int) -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "messages": _map_messages(messages),
                            "max_completion_tokens": max_output_tokens, "store": False}
    if tools:  # tool_choice or parallel_tool_calls without tools is a 400
        body["tools"] = _map_tools(tools)
        body["tool_choice"] = _map_tool_choice(tool_choice)
        body["parallel_tool_calls"] = True
    return body


def _map_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    return [_map_message(message) for message in messages]


def _map_message(message: Message) -> dict[str, Any]:
    if isinstance(message, SystemMessage):
        return {"role": "system", "content": message.content}
    if isinstance(message, ToolMessage):
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    if isinstance(message, AssistantMessage):
        # message.reasoning is dropped: Chat Completions has no way to carry it back.
        wire: dict[str, Any] = {"role": "assistant", "content": message.content}
        if message.tool_calls:
            wire["tool_calls"] = [_map_call(call) for call in message.tool_calls]
        elif message.content is None:
            wire["content"] = ""  # content may be null only next to tool_calls
        return wire
    return {"role": "user", "content": message.content}


def _map_call(call: ToolCall) -> dict[str, Any]:
    # argument_text keeps invalid JSON from the model exactly as it came.
    return {"id": call.id, "type": "function",
            "function": {"name": call.name, "arguments": argument_text(call)}}


def _map_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": tool.name, "description": tool.description,
                                              "parameters": tool.parameters}} for tool in tools]


def _map_tool_choice(tool_choice: ToolChoice) -> str:
    if tool_choice not in ("auto", "none", "required"):
        raise ValueError(f"tool_choice must be auto, none or required, got {tool_choice!r}")
    return tool_choice


def _from_wire(body: dict[str, Any]) -> Reply:
    choice = body["choices"][0]
    wire = choice.get("message") or {}
    calls = [_parse_call(item) for item in wire.get("tool_calls") or []
             if item.get("type", "function") == "function"]
    content, stop = wire.get("content"), _map_stop_reason(choice.get("finish_reason"), bool(calls))
    if not content and wire.get("refusal"):  # a refusal comes apart from content, with "stop"
        content, stop = wire["refusal"], StopReason.REFUSAL
    message = AssistantMessage(content=content, tool_calls=calls)
    return Reply(message=message, stop_reason=stop, usage=_map_usage(body.get("usage")),
                 model=body.get("model"))


def _parse_call(item: dict[str, Any]) -> ToolCall:
    function = item.get("function") or {}
    arguments, raw = parse_arguments(function.get("arguments") or "")
    return ToolCall(id=item["id"], name=function.get("name", ""), arguments=arguments,
                    raw_arguments=raw)


def _map_stop_reason(finish_reason: str | None, has_calls: bool) -> StopReason:
    # A forced call can end with "stop"; the calls are what the loop must act on.
    if has_calls and finish_reason in ("stop", "tool_calls"):
        return StopReason.TOOL_USE
    return _STOP_REASONS.get(finish_reason or "", StopReason.OTHER)


def _map_usage(usage: dict[str, Any] | None) -> Usage:
    usage = usage or {}
    prompt = usage.get("prompt_tokens_details") or {}
    completion = usage.get("completion_tokens_details") or {}
    # prompt_tokens already includes the cached part; completion_tokens includes reasoning.
    return Usage(input_tokens=usage.get("prompt_tokens") or 0,
                 output_tokens=usage.get("completion_tokens") or 0,
                 cached_input_tokens=prompt.get("cached_tokens") or 0,
                 reasoning_tokens=completion.get("reasoning_tokens") or 0)


def _map_error(response: httpx.Response) -> ProviderError:
    return _http.openai_error(response, NAME)
