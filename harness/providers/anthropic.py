"""Anthropic Messages (`POST /messages`): the neutral transcript to wire JSON and back.

Thinking blocks go back first and unchanged, with their signatures; tool results of one turn
share one user message and come before any text in it. With `prompt_cache=True` (the default)
each request carries the top-level `cache_control` of Anthropic's automatic caching: the API
puts a breakpoint on the last block, so every turn reads the transcript cached by the turn before
and writes only what is new (writes cost 1.25x input, reads 0.1x). Plain or streamed, no retries.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import httpx

from harness.errors import ProviderError
from harness.messages import (
    AssistantMessage,
    Message,
    Reasoning,
    Reply,
    StopReason,
    SystemMessage,
    ToolCall,
    ToolChoice,
    ToolMessage,
    ToolSpec,
    Usage,
)
from harness.providers import _http, catalog, streams
from harness.stream import Delta

NAME = "anthropic"
_PROVIDER = catalog.PROVIDERS[NAME]  # base URL, key variables, default model
DEFAULT_MODEL = _PROVIDER.default_model
BASE_URL = _PROVIDER.base_url
API_VERSION = _PROVIDER.api_version

_STOP_REASONS = {"end_turn": StopReason.END_TURN, "stop_sequence": StopReason.END_TURN,
                 "tool_use": StopReason.TOOL_USE, "max_tokens": StopReason.MAX_TOKENS,
                 "model_context_window_exceeded": StopReason.MAX_TOKENS,
                 "refusal": StopReason.REFUSAL, "pause_turn": StopReason.OTHER}
_TOOL_CHOICES = {"auto": "auto", "none": "none", "required": "any"}
_THINKING = ("thinking", "redacted_thinking")
CACHE_CONTROL = {"type": "ephemeral"}


class Anthropic:
    """The Messages API as a `Model`; `thinking_budget` turns extended thinking on, and
    `prompt_cache=False` sends no cache marker (nothing is cached, nothing pays the write premium).

    Example:
        >>> Anthropic(api_key="sk-ant-test", max_output_tokens=4096, thinking_budget=2048).model
        'claude-sonnet-4-6'
    """

    name = NAME

    def __init__(self, *, model: str = DEFAULT_MODEL, client: httpx.Client | None = None,
                 api_key: str | None = None, base_url: str = BASE_URL,
                 max_output_tokens: int = 1024, thinking_budget: int | None = None,
                 prompt_cache: bool = True):
        if thinking_budget is not None and thinking_budget >= max_output_tokens:
            # max_tokens counts the thinking too, so the API rejects a budget that fills it.
            raise ValueError(f"thinking_budget ({thinking_budget}) must be below "
                             f"max_output_tokens ({max_output_tokens})")
        self.model = model
        self.client = client or _http.default_client()
        self.base_url = base_url.rstrip("/")
        self.max_output_tokens = max_output_tokens
        self.thinking_budget = thinking_budget
        self.prompt_cache = prompt_cache
        self._api_key = api_key or _http.api_key_from_env(*_PROVIDER.key_variables)

    def complete(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
                 tool_choice: ToolChoice = "auto") -> Reply:
        body = _to_wire(messages, tools, tool_choice, model=self.model,
                        max_output_tokens=self.max_output_tokens,
                        thinking_budget=self.thinking_budget)
        if self.prompt_cache:  # 5-minute TTL; the breakpoint moves to the last block each turn
            body["cache_control"] = CACHE_CONTROL
        headers = {"anthropic-version": API_VERSION}
        if self._api_key:
            headers["x-api-key"] = self._api_key
        url = f"{self.base_url}/messages"
        return _from_wire(_http.post_json(self.client, url, body, headers=headers,
                                          map_error=_map_error, provider=NAME))

    def stream(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
               tool_choice: ToolChoice = "auto") -> Iterator[Delta]:
        """`complete`'s call, streamed: `harness.stream` deltas while the reply is written."""
        body = _to_wire(messages, tools, tool_choice, model=self.model,
                        max_output_tokens=self.max_output_tokens,
                        thinking_budget=self.thinking_budget) | {"stream": True}
        if self.prompt_cache:
            body["cache_control"] = CACHE_CONTROL
        headers = {"anthropic-version": API_VERSION}
        if self._api_key:
            headers["x-api-key"] = self._api_key
        events = _http.post_events(self.client, f"{self.base_url}/messages", body,
                                   headers=headers, map_error=_map_error, provider=NAME)
        return streams.anthropic(events, reply=_from_wire)


def to_wire(messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
            tool_choice: ToolChoice = "auto", model: str = DEFAULT_MODEL,
            max_output_tokens: int = 1024, thinking_budget: int | None = None) -> dict[str, Any]:
    """The request body for these messages.

    Example:
        >>> from harness.messages import UserMessage
        >>> to_wire([SystemMessage(content="Be brief."), UserMessage(content="Hi")])["messages"]
        [{'role': 'user', 'content': 'Hi'}]
    """
    return _to_wire(list(messages), tools, tool_choice, model=model,
                    max_output_tokens=max_output_tokens, thinking_budget=thinking_budget)


def from_wire(body: dict[str, Any]) -> Reply:
    """The neutral reply for a Messages response body."""
    return _from_wire(body)


def _to_wire(messages: Sequence[Message], tools: Sequence[ToolSpec], tool_choice: ToolChoice,
             *, model: str, max_output_tokens: int,
             thinking_budget: int | None) -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "max_tokens": max_output_tokens,
                            "messages": _map_messages(messages)}
    system = [m.content for m in messages if isinstance(m, SystemMessage)]
    if system:
        body["system"] = "\n\n".join(system)
    if tools:  # tools stay on the closing call: tool blocks in the history require them
        body["tools"] = _map_tools(tools)
        body["tool_choice"] = _map_tool_choice(tool_choice)
    if thinking_budget is not None:
        body["thinking"] = {"type": "enabled", "budget_tokens": thinking_budget}
    return body


def _map_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    wire: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            continue  # sent as the top-level `system`
        if isinstance(message, AssistantMessage):
            wire.append(_map_message(message))
        elif isinstance(message, ToolMessage):
            _add_to_user(wire, _map_result(message))
        elif wire and _has_results(wire[-1]):
            # A note after the results joins their message, after them (never before).
            _add_to_user(wire, {"type": "text", "text": message.content})
        else:
            wire.append({"role": "user", "content": message.content})
    return wire


def _map_message(message: AssistantMessage) -> dict[str, Any]:
    # Thinking first and byte for byte: the signature covers it. Other providers' reasoning
    # cannot be sent in this format and is dropped.
    blocks = [r.data for r in message.reasoning
              if r.provider == NAME and r.data.get("type") in _THINKING]
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    # `input` must be an object: unparseable arguments from another provider go as {}.
    blocks.extend({"type": "tool_use", "id": call.id, "name": call.name,
                   "input": call.arguments} for call in message.tool_calls)
    return {"role": "assistant", "content": blocks}


def _map_result(message: ToolMessage) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": message.tool_call_id,
            "content": message.content, "is_error": message.is_error}


def _has_results(wire_message: dict[str, Any]) -> bool:
    content = wire_message["content"]
    return (wire_message["role"] == "user" and isinstance(content, list)
            and any(block["type"] == "tool_result" for block in content))


def _add_to_user(wire: list[dict[str, Any]], block: dict[str, Any]) -> None:
    """Add a block to the user message that holds this turn's results, results before text."""
    if not (wire and _has_results(wire[-1])):
        wire.append({"role": "user", "content": [block]})
        return
    content = wire[-1]["content"]
    if block["type"] != "tool_result":
        content.append(block)
        return
    # Text before a tool_result is a 400, so a late result goes after the other results.
    first_other = next((i for i, b in enumerate(content) if b["type"] != "tool_result"),
                       len(content))
    content.insert(first_other, block)


def _map_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    return [{"name": tool.name, "description": tool.description,
             "input_schema": tool.parameters} for tool in tools]


def _map_tool_choice(tool_choice: ToolChoice) -> dict[str, str]:
    if tool_choice not in _TOOL_CHOICES:
        raise ValueError(f"tool_choice must be auto, none or required, got {tool_choice!r}")
    return {"type": _TOOL_CHOICES[tool_choice]}


def _from_wire(body: dict[str, Any]) -> Reply:
    texts, calls, reasoning = [], [], []
    for block in body.get("content") or []:
        kind = block.get("type")
        if kind in _THINKING:
            reasoning.append(Reasoning(provider=NAME, data=block))
        elif kind == "text":
            texts.append(block.get("text", ""))
        elif kind == "tool_use":
            calls.append(ToolCall(id=block["id"], name=block["name"],
                                  arguments=block.get("input") or {}))
    message = AssistantMessage(content="".join(texts) if texts else None, tool_calls=calls,
                               reasoning=reasoning)
    return Reply(message=message, stop_reason=_map_stop_reason(body.get("stop_reason")),
                 usage=_map_usage(body.get("usage")), model=body.get("model"))


def _map_stop_reason(stop_reason: str | None) -> StopReason:
    return _STOP_REASONS.get(stop_reason or "", StopReason.OTHER)


def _map_usage(usage: dict[str, Any] | None) -> Usage:
    usage = usage or {}
    # input_tokens excludes cache reads and writes; the neutral count includes both.
    read = usage.get("cache_read_input_tokens") or 0
    written = usage.get("cache_creation_input_tokens") or 0
    details = usage.get("output_tokens_details") or {}
    return Usage(input_tokens=(usage.get("input_tokens") or 0) + read + written,
                 output_tokens=usage.get("output_tokens") or 0,
                 cached_input_tokens=read, cache_write_tokens=written,
                 reasoning_tokens=details.get("thinking_tokens") or 0)


def _map_error(response: httpx.Response) -> ProviderError:
    body = _http.json_or_none(response)
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return _http.unreadable_error(response, NAME, body)
    return ProviderError(response.status_code, error.get("type") or "error",
                         error.get("message") or "", provider=NAME, body=body,
                         retry_after=_http.retry_after(response))
