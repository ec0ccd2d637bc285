"""OpenAI Responses (`POST /responses`), used statelessly: the neutral transcript to wire and back.

Every request sends the whole history with `store: false`, and asks for encrypted reasoning so it
can go back on the next call; nothing relies on `previous_response_id`. The model's own output
items go back as they came, ids included: reasoning, then the message item (`msg_...`), then the
function calls (`fc_...`); the ids pair each with the reasoning item before it. Plain or
streamed, no retries, and no error flag on tool results (a `function_call_output` has none: the
kit's error results say "Error: ..." in text).
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
    argument_text,
    parse_arguments,
)
from harness.providers import _http, catalog, streams
from harness.stream import Delta

NAME = "openai_responses"
_PROVIDER = catalog.PROVIDERS[NAME]  # base URL, key variables, default model
DEFAULT_MODEL = _PROVIDER.default_model
BASE_URL = _PROVIDER.base_url


class OpenAIResponses:
    """The Responses API as a `Model`; `reasoning_effort` is e.g. "minimal", "low" or "high".

    Example:
        >>> OpenAIResponses(api_key="sk-test", reasoning_effort="low").reasoning_effort
        'low'
    """

    name = NAME

    def __init__(self, *, model: str = DEFAULT_MODEL, client: httpx.Client | None = None,
                 api_key: str | None = None, base_url: str = BASE_URL,
                 max_output_tokens: int = 1024, reasoning_effort: str | None = None):
        self.model = model
        self.client = client or _http.default_client()
        self.base_url = base_url.rstrip("/")
        self.max_output_tokens = max_output_tokens
        self.reasoning_effort = reasoning_effort
        self._api_key = api_key or _http.api_key_from_env(*_PROVIDER.key_variables)

    def complete(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
                 tool_choice: ToolChoice = "auto") -> Reply:
        body = _to_wire(messages, tools, tool_choice, model=self.model,
                        max_output_tokens=self.max_output_tokens,
                        reasoning_effort=self.reasoning_effort)
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        url = f"{self.base_url}/responses"
        return _from_wire(_http.post_json(self.client, url, body, headers=headers,
                                          map_error=_map_error, provider=NAME))

    def stream(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
               tool_choice: ToolChoice = "auto") -> Iterator[Delta]:
        """`complete`'s call, streamed: `harness.stream` deltas while the reply is written."""
        body = _to_wire(messages, tools, tool_choice, model=self.model,
                        max_output_tokens=self.max_output_tokens,
                        reasoning_effort=self.reasoning_effort) | {"stream": True}
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        events = _http.post_events(self.client, f"{self.base_url}/responses", body,
                                   headers=headers, map_error=_map_error, provider=NAME)
        return streams.openai_responses(events, reply=_from_wire, call=_parse_call)


def to_wire(messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
            tool_choice: ToolChoice = "auto", model: str = DEFAULT_MODEL,
            max_output_tokens: int = 1024, reasoning_effort: str | None = None) -> dict[str, Any]:
    """The request body for these messages.

    Example:
        >>> to_wire([SystemMessage(content="Be brief.")])["instructions"]
        'Be brief.'
    """
    return _to_wire(list(messages), tools, tool_choice, model=model,
                    max_output_tokens=max_output_tokens, reasoning_effort=reasoning_effort)


def from_wire(body: dict[str, Any]) -> Reply:
    """The neutral reply for a Responses response body."""
    return _from_wire(body)


def _to_wire(messages: Sequence[Message], tools: Sequence[ToolSpec], tool_choice: ToolChoice,
             *, model: str, max_output_tokens: int,
             reasoning_effort: str | None) -> dict[str, Any]:
    # Stateless: nothing is stored server-side, so reasoning must come back encrypted.
    body: dict[str, Any] = {"model": model, "input": _map_messages(messages), "store": False,
                            "include": ["reasoning.encrypted_content"],
                            "max_output_tokens": max_output_tokens}
    system = [m.content for m in messages if isinstance(m, SystemMessage)]
    if system:  # top-level, so the closing call's added instruction lands here too
        body["instructions"] = "\n\n".join(system)
    if tools:
        body["tools"] = _map_tools(tools)
        body["tool_choice"] = _map_tool_choice(tool_choice)
        body["parallel_tool_calls"] = True
    if reasoning_effort:
        body["reasoning"] = {"effort": reasoning_effort}
    return body


def _map_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    return [item for message in messages for item in _map_message(message)]


def _map_message(message: Message) -> list[dict[str, Any]]:
    """The input items for one message (an assistant turn can be several)."""
    if isinstance(message, SystemMessage):
        return []  # sent as `instructions`
    if isinstance(message, ToolMessage):
        return [{"type": "function_call_output", "call_id": message.tool_call_id,
                 "output": message.content}]
    if not isinstance(message, AssistantMessage):
        return [{"role": "user", "content": message.content}]
    # Reasoning items go first, as they came; other providers' reasoning cannot be sent here.
    items = [_without_status(r.data) for r in message.reasoning if r.provider == NAME]
    if message.content:
        items.append(_map_text(message))
    items.extend(_map_call(call) for call in message.tool_calls)
    return items


def _map_text(message: AssistantMessage) -> dict[str, Any]:
    if "item_id" not in message.extra:
        return {"role": "assistant", "content": message.content}
    # The output item itself, id included: after a reasoning item, a bare assistant message is
    # a new one and the API rejects the reasoning as "provided without its required following
    # item". Every field is required on an output message item.
    return {"type": "message", "id": message.extra["item_id"], "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": message.content, "annotations": []}]}


def _map_call(call: ToolCall) -> dict[str, Any]:
    item = {"type": "function_call", "call_id": call.id, "name": call.name,
            "arguments": argument_text(call)}
    if "item_id" in call.extra:  # the fc_... id pairs the call with its reasoning item
        item["id"] = call.extra["item_id"]
    return item


def _without_status(item: dict[str, Any]) -> dict[str, Any]:
    # Output items may carry `status`; as input it is "Unknown parameter: 'input[1].status'."
    return {key: value for key, value in item.items() if key != "status"}


def _map_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    # Flat, unlike Chat. `strict` is explicit: the kit's schemas have optional fields.
    return [{"type": "function", "name": tool.name, "description": tool.description,
             "parameters": tool.parameters, "strict": False} for tool in tools]


def _map_tool_choice(tool_choice: ToolChoice) -> str:
    if tool_choice not in ("auto", "none", "required"):
        raise ValueError(f"tool_choice must be auto, none or required, got {tool_choice!r}")
    return tool_choice


def _from_wire(body: dict[str, Any]) -> Reply:
    texts: list[str] = []
    calls: list[ToolCall] = []
    reasoning: list[Reasoning] = []
    refused = False
    extra: dict[str, Any] = {}
    for item in body.get("output") or []:
        kind = item.get("type")
        if kind == "reasoning":
            reasoning.append(Reasoning(provider=NAME, data=item))
        elif kind == "function_call":
            calls.append(_parse_call(item))
        elif kind == "message":
            if item.get("id") and not extra:  # several message items go back as the first
                extra["item_id"] = item["id"]
            for part in item.get("content") or []:
                if part.get("type") == "output_text":
                    texts.append(part.get("text", ""))
                elif part.get("type") == "refusal":
                    texts.append(part.get("refusal", ""))
                    refused = True
    message = AssistantMessage(content="".join(texts) if texts else None, tool_calls=calls,
                               reasoning=reasoning, extra=extra if texts else {})
    stop = StopReason.REFUSAL if refused else _map_stop_reason(body, bool(calls))
    return Reply(message=message, stop_reason=stop, usage=_map_usage(body.get("usage")),
                 model=body.get("model"))


def _parse_call(item: dict[str, Any]) -> ToolCall:
    arguments, raw = parse_arguments(item.get("arguments") or "")
    extra = {"item_id": item["id"]} if item.get("id") else {}
    return ToolCall(id=item["call_id"], name=item.get("name", ""), arguments=arguments,
                    raw_arguments=raw, extra=extra)


def _map_stop_reason(body: dict[str, Any], has_calls: bool) -> StopReason:
    """Responses has no stop reason field: it follows from status, incomplete_details and output."""
    status = body.get("status")
    reason = (body.get("incomplete_details") or {}).get("reason")
    if status == "incomplete" and reason == "max_output_tokens":
        return StopReason.MAX_TOKENS  # possibly empty text: the budget went to reasoning
    if status == "incomplete" and reason == "content_filter":
        return StopReason.REFUSAL
    if has_calls:
        return StopReason.TOOL_USE
    return StopReason.END_TURN if status in ("completed", None) else StopReason.OTHER


def _map_usage(usage: dict[str, Any] | None) -> Usage:
    usage = usage or {}
    details_in = usage.get("input_tokens_details") or {}
    details_out = usage.get("output_tokens_details") or {}
    return Usage(input_tokens=usage.get("input_tokens") or 0,
                 output_tokens=usage.get("output_tokens") or 0,
                 cached_input_tokens=details_in.get("cached_tokens") or 0,
                 cache_write_tokens=details_in.get("cache_write_tokens") or 0,
                 reasoning_tokens=details_out.get("reasoning_tokens") or 0)


def _map_error(response: httpx.Response) -> ProviderError:
    return _http.openai_error(response, NAME)
