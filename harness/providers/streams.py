"""Each API's stream events as neutral deltas (`harness.stream`): the adapters' `stream` calls.

One function per wire format. Its adapter hands it the events (`_http.post_events`) and its own
reader of a response body (`reply`, the adapter's `_from_wire`). Text and tool-call deltas are
yielded as their events arrive; the events also add up to as much of the unstreamed body as the
reader needs, and `reply` of that body gives the `Finish` (stop reason, usage, reasoning), so a
streamed reply ends exactly as `complete`'s would. Nothing here sends a request or knows a URL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from harness.messages import Reply, ToolCall, argument_text
from harness.providers._http import Events
from harness.stream import ArgumentsDelta, Delta, Finish, TextDelta, ToolCallStart

Reader = Callable[[dict[str, Any]], Reply]
"""An adapter's `_from_wire`: the neutral reply of a response body."""


def openai_chat(events: Events, *, reply: Reader) -> Iterator[Delta]:
    """Chat Completions: each chunk's `choices[0].delta` holds more text, or a call's first piece
    (its `index`, `id` and name), or more of a call's `arguments`; the last choice has the
    `finish_reason`, and a chunk after it the usage (asked for with `stream_options`)."""
    body: dict[str, Any] = {}
    message: dict[str, Any] = {"content": None, "refusal": None, "tool_calls": []}
    finish_reason = None
    for _, chunk in events:
        body |= {key: chunk[key] for key in ("model", "usage") if chunk.get(key)}
        for choice in chunk.get("choices") or []:
            finish_reason = choice.get("finish_reason") or finish_reason
            delta = choice.get("delta") or {}
            for field in ("content", "refusal"):  # a refusal streams apart from the content
                if delta.get(field):
                    message[field] = (message[field] or "") + delta[field]
                    yield TextDelta(text=delta[field])
            for call in delta.get("tool_calls") or []:
                function = call.get("function") or {}
                if call.get("id"):  # only a call's first piece has its id and name
                    message["tool_calls"].append({"id": call["id"], "function": function})
                    yield ToolCallStart(index=call["index"], id=call["id"],
                                        name=function.get("name", ""))
                if function.get("arguments"):
                    yield ArgumentsDelta(index=call["index"], text=function["arguments"])
    choice = {"message": message, "finish_reason": finish_reason}
    yield Finish.of(reply(body | {"choices": [choice]}))


def openai_responses(events: Events, *, reply: Reader,
                     call: Callable[[dict[str, Any]], ToolCall]) -> Iterator[Delta]:
    """Responses: text in `response.output_text.delta` (or `response.refusal.delta`), a call
    opened by its `response.output_item.added` and filled by `function_call_arguments.delta`
    events naming its item; the whole response comes last, with `response.completed` (or
    `.incomplete`, `.failed`). `call` is the adapter's reading of a function_call item."""
    calls: dict[str, int] = {}  # a call's item id -> its index among the reply's calls
    for name, event in events:
        kind = event.get("type") or name
        if kind in ("response.output_text.delta", "response.refusal.delta"):
            yield TextDelta(text=event["delta"])
        elif kind == "response.output_item.added" and event["item"]["type"] == "function_call":
            started = call(event["item"])
            calls[event["item"]["id"]] = index = len(calls)
            yield ToolCallStart(index=index, id=started.id, name=started.name,
                                extra=started.extra)
        elif kind == "response.function_call_arguments.delta":
            yield ArgumentsDelta(index=calls[event["item_id"]], text=event["delta"])
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            yield Finish.of(reply(event["response"]))


def anthropic(events: Events, *, reply: Reader) -> Iterator[Delta]:
    """Messages: `message_start`, then for each content block a start, its deltas (text,
    thinking and then its signature, or a tool call's input as JSON text) and a stop; then
    `message_delta` with the stop reason and the final usage, and `message_stop`."""
    message: dict[str, Any] = {"content": []}
    calls: dict[int, int] = {}  # a tool_use block's index -> its index among the calls
    for _, event in events:
        kind = event.get("type")
        if kind == "message_start":
            message = event["message"]
        elif kind == "content_block_start":
            block = dict(event["content_block"])
            message["content"].append(block)
            if block["type"] == "tool_use":
                calls[event["index"]] = index = len(calls)
                yield ToolCallStart(index=index, id=block["id"], name=block["name"])
        elif kind == "content_block_delta":
            block = message["content"][event["index"]]
            yield from _anthropic_delta(event["delta"], block, calls.get(event["index"]))
        elif kind == "message_delta":  # its usage counts are totals: they replace the start's
            message |= event["delta"]
            message["usage"] = message.get("usage", {}) | event["usage"]
    yield Finish.of(reply(message))


def _anthropic_delta(delta: dict[str, Any], block: dict[str, Any],
                     call: int | None) -> Iterator[Delta]:
    """One content_block_delta: text and arguments go out; thinking is kept in its block,
    which must go back whole, signature included."""
    if delta["type"] == "text_delta":
        yield TextDelta(text=delta["text"])
    elif delta["type"] == "thinking_delta":
        block["thinking"] += delta["thinking"]
    elif delta["type"] == "signature_delta":
        block["signature"] = delta["signature"]
    elif delta["type"] == "input_json_delta" and call is not None and delta["partial_json"]:
        yield ArgumentsDelta(index=call, text=delta["partial_json"])


def gemini(events: Events, *, reply: Reader) -> Iterator[Delta]:
    """streamGenerateContent: each chunk is a whole response with the next parts. Text parts add
    text; a functionCall part is one whole call, never split, so its arguments come in one piece.
    The last chunk has the `finishReason` and the full usage."""
    parts: list[dict[str, Any]] = []
    last: dict[str, Any] = {}
    for _, chunk in events:
        last = chunk
        candidate = (chunk.get("candidates") or [{}])[0]
        for part in (candidate.get("content") or {}).get("parts") or []:
            parts.append(part)
            if part.get("text") and not part.get("thought"):
                yield TextDelta(text=part["text"])
            elif "functionCall" in part:
                yield from _gemini_call(parts, reply)
    if last.get("candidates"):  # a blocked prompt has none: the reader wants the body as it is
        candidate = last["candidates"][0] | {"content": {"role": "model", "parts": parts}}
        last = last | {"candidates": [candidate]}
    yield Finish.of(reply(last))


def _gemini_call(parts: list[dict[str, Any]], reply: Reader) -> Iterator[Delta]:
    """The newest call among `parts`, named by the adapter's own reading of the parts so far:
    so it gets the id `complete` would give it (invented from its place when the API sent
    none)."""
    calls = reply({"candidates": [{"content": {"parts": parts}}]}).message.tool_calls
    index, made = len(calls) - 1, calls[-1]
    yield ToolCallStart(index=index, id=made.id, name=made.name, extra=made.extra)
    yield ArgumentsDelta(index=index, text=argument_text(made))
