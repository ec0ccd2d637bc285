"""Gemini generateContent (v1beta): the neutral transcript to wire JSON and back.

Thought signatures go back on the part they came on: a call's in `ToolCall.extra`, a text part's
in a `Reasoning(provider="gemini", data={"thoughtSignature": ...})`; thought parts, when asked
for, ride whole in `Reasoning`. Call ids the API leaves out are invented (`extra["invented_id"]`)
and never sent. Plain or streamed, no retries, no automatic function calling.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any

import httpx

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

NAME = "gemini"
_PROVIDER = catalog.PROVIDERS[NAME]  # base URL, key variables, default model
DEFAULT_MODEL = _PROVIDER.default_model
BASE_URL = _PROVIDER.base_url
SIGNATURE = "thoughtSignature"

_TOOL_CHOICES = {"auto": "AUTO", "none": "NONE", "required": "ANY"}
_REFUSALS = {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII"}
_map_error = partial(_http.google_error, provider=NAME)  # Google's envelope, as _http reads it


class Gemini:
    """The Gemini Developer API as a `Model`; `thinking_budget=0` turns thinking off on 2.5 Flash.

    Example:
        >>> Gemini(api_key="test", thinking_budget=0).model
        'gemini-2.5-flash'
    """

    name = NAME

    def __init__(self, *, model: str = DEFAULT_MODEL, client: httpx.Client | None = None,
                 api_key: str | None = None, base_url: str = BASE_URL,
                 max_output_tokens: int = 1024, thinking_budget: int | None = None):
        self.model = model.removeprefix("models/")
        self.client = client or _http.default_client()
        self.base_url = base_url.rstrip("/")
        self.max_output_tokens = max_output_tokens
        self.thinking_budget = thinking_budget
        self._api_key = api_key or _http.api_key_from_env(*_PROVIDER.key_variables)

    def complete(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
                 tool_choice: ToolChoice = "auto") -> Reply:
        body = _to_wire(messages, tools, tool_choice, max_output_tokens=self.max_output_tokens,
                        thinking_budget=self.thinking_budget)
        # The header, never `?key=`: a query string ends up in logs and cassettes.
        headers = {"x-goog-api-key": self._api_key} if self._api_key else {}
        url = f"{self.base_url}/models/{self.model}:generateContent"
        wire = _http.post_json(self.client, url, body, headers=headers, map_error=_map_error,
                               provider=NAME)
        # Same history, same invented ids: they count the model turns already sent.
        return _from_wire(wire, turn=sum(isinstance(m, AssistantMessage) for m in messages))

    def stream(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
               tool_choice: ToolChoice = "auto") -> Iterator[Delta]:
        """`complete`'s call, streamed: `harness.stream` deltas while the reply is written."""
        body = _to_wire(messages, tools, tool_choice, max_output_tokens=self.max_output_tokens,
                        thinking_budget=self.thinking_budget)
        headers = {"x-goog-api-key": self._api_key} if self._api_key else {}
        url = f"{self.base_url}/models/{self.model}:streamGenerateContent?alt=sse"
        events = _http.post_events(self.client, url, body, headers=headers, map_error=_map_error,
                                   provider=NAME)
        turn = sum(isinstance(m, AssistantMessage) for m in messages)
        return streams.gemini(events, reply=partial(_from_wire, turn=turn))


def to_wire(messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
            tool_choice: ToolChoice = "auto", max_output_tokens: int = 1024,
            thinking_budget: int | None = None) -> dict[str, Any]:
    """The request body for these messages; the model is in the URL.

    Example:
        >>> from harness.messages import UserMessage
        >>> to_wire([UserMessage(content="Hi")])["contents"]
        [{'role': 'user', 'parts': [{'text': 'Hi'}]}]
    """
    return _to_wire(list(messages), tools, tool_choice,
                    max_output_tokens=max_output_tokens, thinking_budget=thinking_budget)


def from_wire(body: dict[str, Any], *, turn: int = 0) -> Reply:
    """The neutral reply; `turn`, the model turns already sent, seeds any invented call ids."""
    return _from_wire(body, turn=turn)


def _to_wire(messages: Sequence[Message], tools: Sequence[ToolSpec], tool_choice: ToolChoice,
             *, max_output_tokens: int, thinking_budget: int | None) -> dict[str, Any]:
    config: dict[str, Any] = {"maxOutputTokens": max_output_tokens}
    if thinking_budget is not None:
        config["thinkingConfig"] = {"thinkingBudget": thinking_budget}
    body: dict[str, Any] = {"contents": _map_messages(messages), "generationConfig": config}
    system = [m.content for m in messages if isinstance(m, SystemMessage)]
    if system:
        body["systemInstruction"] = {"parts": [{"text": "\n\n".join(system)}]}
    if tools:
        body["tools"] = _map_tools(tools)
        body["toolConfig"] = {"functionCallingConfig": {"mode": _map_tool_choice(tool_choice)}}
    return body


def _map_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    calls = {call.id: call for m in messages if isinstance(m, AssistantMessage)
             for call in m.tool_calls}
    contents: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            continue  # sent as `systemInstruction`
        if isinstance(message, AssistantMessage):
            contents.append(_map_message(message))
        elif isinstance(message, ToolMessage):
            _add_to_user(contents, _map_result(message, calls.get(message.tool_call_id)))
        elif contents and _has_responses(contents[-1]):
            contents[-1]["parts"].append({"text": message.content})
        else:
            contents.append({"role": "user", "parts": [{"text": message.content}]})
    return contents


def _map_message(message: AssistantMessage) -> dict[str, Any]:
    # Other providers' reasoning cannot be sent in this format and is dropped.
    own = [r.data for r in message.reasoning if r.provider == NAME]
    parts = [dict(data) for data in own if data.get("thought")]
    signatures = [data[SIGNATURE] for data in own if not data.get("thought") and SIGNATURE in data]
    if message.content or signatures:
        text: dict[str, Any] = {"text": message.content or ""}
        if signatures:
            text[SIGNATURE] = signatures[-1]  # the signature sits on the last text part
        parts.append(text)
    parts.extend(_map_call(call) for call in message.tool_calls)
    return {"role": "model", "parts": parts}


def _map_call(call: ToolCall) -> dict[str, Any]:
    # `args` must be an object: unparseable arguments from another provider go as {}.
    function: dict[str, Any] = {"name": call.name, "args": call.arguments}
    if not call.extra.get("invented_id"):
        function["id"] = call.id
    part: dict[str, Any] = {"functionCall": function}
    if SIGNATURE in call.extra:  # a sibling of functionCall, not inside it
        part[SIGNATURE] = call.extra[SIGNATURE]
    return part


def _map_result(message: ToolMessage, call: ToolCall | None) -> dict[str, Any]:
    # `response` must be an object. A result with no call still goes out, under a name no tool
    # has, so the API (or the emulator) can reject it with its own error.
    key = "error" if message.is_error else "result"
    function: dict[str, Any] = {"name": call.name if call else "unknown",
                                "response": {key: message.content}}
    if call is None or not call.extra.get("invented_id"):
        function["id"] = message.tool_call_id
    return {"functionResponse": function}


def _has_responses(content: dict[str, Any]) -> bool:
    return content["role"] == "user" and any("functionResponse" in p for p in content["parts"])


def _add_to_user(contents: list[dict[str, Any]], part: dict[str, Any]) -> None:
    """All results of one turn share one user content, before any text added to it."""
    if not (contents and _has_responses(contents[-1])):
        contents.append({"role": "user", "parts": [part]})
        return
    parts = contents[-1]["parts"]
    first_text = next((i for i, p in enumerate(parts) if "functionResponse" not in p), len(parts))
    parts.insert(first_text, part)


def _map_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    # parametersJsonSchema takes real JSON Schema; `parameters` rejects additionalProperties.
    return [{"functionDeclarations": [
        {"name": tool.name, "description": tool.description,
         "parametersJsonSchema": tool.parameters} for tool in tools]}]


def _map_tool_choice(tool_choice: ToolChoice) -> str:
    if tool_choice not in _TOOL_CHOICES:
        raise ValueError(f"tool_choice must be auto, none or required, got {tool_choice!r}")
    return _TOOL_CHOICES[tool_choice]


def _from_wire(body: dict[str, Any], *, turn: int = 0) -> Reply:
    candidate = (body.get("candidates") or [{}])[0]
    texts: list[str] = []
    calls: list[ToolCall] = []
    reasoning: list[Reasoning] = []
    for part in (candidate.get("content") or {}).get("parts") or []:
        if part.get("thought"):
            reasoning.append(Reasoning(provider=NAME, data=part))
        elif "functionCall" in part:
            calls.append(_parse_call(part, turn, len(calls) + 1))
        elif "text" in part:
            texts.append(part["text"])
            if SIGNATURE in part:
                reasoning.append(Reasoning(provider=NAME, data={SIGNATURE: part[SIGNATURE]}))
    message = AssistantMessage(content="".join(texts) if texts else None, tool_calls=calls,
                               reasoning=reasoning)
    stop = _map_stop_reason(candidate.get("finishReason"), bool(calls))
    if not body.get("candidates") and (body.get("promptFeedback") or {}).get("blockReason"):
        stop = StopReason.REFUSAL  # the prompt itself was blocked: no candidate at all
    return Reply(message=message, stop_reason=stop, usage=_map_usage(body.get("usageMetadata")),
                 model=body.get("modelVersion"))


def _parse_call(part: dict[str, Any], turn: int, index: int) -> ToolCall:
    function = part["functionCall"]
    extra: dict[str, Any] = {SIGNATURE: part[SIGNATURE]} if SIGNATURE in part else {}
    call_id = function.get("id")
    if not call_id:  # the Developer API usually gives none; the loop needs one to pair results
        call_id, extra["invented_id"] = f"call_{turn + 1}_{index}", True
    return ToolCall(id=call_id, name=function.get("name", ""),
                    arguments=function.get("args") or {}, extra=extra)


def _map_stop_reason(finish_reason: str | None, has_calls: bool) -> StopReason:
    # There is no finish reason for tool calls: they end with STOP.
    if finish_reason == "STOP":
        return StopReason.TOOL_USE if has_calls else StopReason.END_TURN
    if finish_reason == "MAX_TOKENS":
        return StopReason.MAX_TOKENS
    return StopReason.REFUSAL if finish_reason in _REFUSALS else StopReason.OTHER


def _map_usage(usage: dict[str, Any] | None) -> Usage:
    usage = usage or {}
    thoughts = usage.get("thoughtsTokenCount") or 0
    # Thoughts are billed as output but counted apart from candidatesTokenCount.
    return Usage(input_tokens=(usage.get("promptTokenCount") or 0)
                 + (usage.get("toolUsePromptTokenCount") or 0),
                 output_tokens=(usage.get("candidatesTokenCount") or 0) + thoughts,
                 cached_input_tokens=usage.get("cachedContentTokenCount") or 0,
                 reasoning_tokens=thoughts)
