"""Streamed answers: a rendered response body written as the events each real API streams.

The emulator renders a reply once, as the non-streamed body, and `frames` cuts that body into the
server-sent events the API sends when a request asks to stream, so both forms carry the same
message: the same ids, text, calls, stop reason and usage. The event names, their order and what
each carries follow recorded real streams and the official SDKs' stream accumulators; text and
tool-call arguments are split over several deltas. This module decides nothing about a request's
validity (an invalid one gets the JSON error before any event) and knows nothing of timing: every
event is ready at once.

- OpenAI Chat: `chat.completion.chunk`s, `data:` lines only, usage in a last chunk with no choices
  only when `stream_options.include_usage` is set, then `data: [DONE]`.
- OpenAI Responses: named events from `response.created` to `response.completed` (or
  `response.incomplete`), each output item opened, filled by deltas and closed.
- Anthropic: `message_start`, a start, deltas and a stop for each content block, `message_delta`
  with the stop reason and usage, `message_stop`; one `ping` after the first block opens.
- Gemini: `:streamGenerateContent`; each chunk a `GenerateContentResponse`, calls whole (never
  split), `finishReason` and the full usage on the last. With `alt=sse` as `data:` lines separated
  by CRLF pairs, otherwise one JSON array.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from offline.emulator._ids import CallIds

Events = Iterator[tuple[str | None, dict[str, Any]]]
"""(event name or None, data) in the order they are sent."""

EVENT_STREAM = "text/event-stream; charset=utf-8"
OPTIONS = ("stream", "stream_options")
"""Request fields that only say how to deliver the answer."""
GEMINI_STREAM = re.compile(r".*:streamGenerateContent")
TEXT_PIECE = {"openai_chat": 12, "openai_responses": 12, "anthropic": 40, "gemini": 40}
"""About how many characters of text go in one delta (OpenAI's are a token or two)."""
ARGUMENT_PIECE = 8  # characters of a call's argument text in one delta


def mode(provider: str, path: str, query: dict[str, str], request: Any) -> str | None:
    """How the request asks for its answer: "sse", "json-array" (Gemini without `alt=sse`), or
    None for one JSON body."""
    if provider == "gemini":
        if not GEMINI_STREAM.fullmatch(path):
            return None
        return "sse" if query.get("alt") == "sse" else "json-array"
    return "sse" if isinstance(request, dict) and request.get("stream") is True else None


def frames(provider: str, body: dict[str, Any], request: dict[str, Any], *, ids: CallIds,
           how: str) -> tuple[str, list[bytes]]:
    """The content type and the frames (one event each) of the streamed form of `body`."""
    if provider == "gemini":
        chunks = list(_gemini(body))
        if how == "json-array":  # what a client without `alt=sse` gets: one pretty JSON array
            text = "[" + "\n,\r\n".join(json.dumps(c, indent=2, ensure_ascii=False)
                                         for c in chunks) + "]"
            return "application/json; charset=UTF-8", [text.encode()]
        # Google's own spacing: a space after each colon, none after a comma.
        return "text/event-stream", [
            b"data: " + json.dumps(chunk, separators=(",", ": "), ensure_ascii=False).encode()
            + b"\r\n\r\n" for chunk in chunks]
    events = STREAMS[provider](body, request, ids)
    written = [_event(name, data) for name, data in events]
    if provider == "openai_chat":
        written.append(b"data: [DONE]\n\n")
    return EVENT_STREAM, written


def _event(name: str | None, data: dict[str, Any]) -> bytes:
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return (f"event: {name}\n" if name else "").encode() + f"data: {text}\n\n".encode()


def pieces(text: str, *, size: int) -> list[str]:
    """`text` in pieces of about `size` characters, cut before a space where it can be (each
    piece starts with the spaces before its first word, as tokens do); joined, they are `text`.

    Example:
        >>> pieces("Sunny, 22C in Paris.", size=8)
        ['Sunny,', ' 22C in', ' Paris.']
    """
    out: list[str] = []
    for word in re.findall(r"\s*\S+|\s+$", text):
        if out and len(out[-1]) + len(word) <= size:
            out[-1] += word
        else:
            out.append(word)
    return out


def slices(text: str, *, size: int = ARGUMENT_PIECE) -> list[str]:
    """Argument text cut every `size` characters: models stream JSON a few characters at a time."""
    return [text[start:start + size] for start in range(0, len(text), size)]


# ---- OpenAI Chat ------------------------------------------------------------------------------

def _chat(body: dict[str, Any], request: dict[str, Any], ids: CallIds) -> Events:
    options = request.get("stream_options") or {}
    with_usage = options.get("include_usage") is True
    choice, message = body["choices"][0], body["choices"][0]["message"]
    head = {"id": body["id"], "object": "chat.completion.chunk"} | {
        key: body[key] for key in ("created", "model", "service_tier", "system_fingerprint")}
    sent = 0

    def chunk(choices: list[dict[str, Any]], **usage: Any) -> tuple[None, dict[str, Any]]:
        nonlocal sent
        sent += 1
        # With include_usage every chunk has `usage`: null until the last, which has no choices.
        data = head | {"choices": choices} | ({"usage": None} | usage if with_usage else {})
        return None, _obfuscated(data, options, ids, sent)

    def delta(fields: dict[str, Any], finish: str | None = None) -> tuple[None, dict[str, Any]]:
        return chunk([{"index": 0, "delta": fields, "logprobs": None, "finish_reason": finish}])

    calls = message.get("tool_calls") or []
    opened = bool(message["content"]) or not calls  # else the first call opens the message
    if opened:
        yield delta({"role": "assistant", "content": "", "refusal": None})
        for piece in pieces(message["content"] or "", size=TEXT_PIECE["openai_chat"]):
            yield delta({"content": piece})
    for index, call in enumerate(calls):
        start = {"index": index, "id": call["id"], "type": "function",
                 "function": {"name": call["function"]["name"], "arguments": ""}}
        fields: dict[str, Any] = {"tool_calls": [start]}
        if not opened:
            fields = {"role": "assistant", "content": None, **fields, "refusal": None}
            opened = True
        yield delta(fields)
        for piece in slices(call["function"]["arguments"]):
            yield delta({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield delta({}, choice["finish_reason"])
    if with_usage:
        yield chunk([], usage=body["usage"])


def _obfuscated(data: dict[str, Any], options: dict[str, Any], ids: CallIds,
                number: int) -> dict[str, Any]:
    """OpenAI pads each event with random characters (so that event sizes do not reveal the
    text) unless `stream_options.include_obfuscation` is false; clients ignore the field."""
    if options.get("include_obfuscation") is False:
        return data
    return data | {"obfuscation": ids.alnum("obfuscation", 3 + number % 13, number)}


# ---- OpenAI Responses -------------------------------------------------------------------------

def _responses(body: dict[str, Any], request: dict[str, Any], ids: CallIds) -> Events:
    options = request.get("stream_options") or {}
    started = body | {"status": "in_progress", "completed_at": None, "incomplete_details": None,
                      "output": [], "usage": None}
    sequence = 0

    def event(kind: str, **fields: Any) -> tuple[str, dict[str, Any]]:
        nonlocal sequence
        data = {"type": kind, **fields, "sequence_number": sequence}
        if "delta" in fields:
            data = _obfuscated(data, options, ids, sequence)
        sequence += 1
        return kind, data

    yield event("response.created", response=started)
    yield event("response.in_progress", response=started)
    for index, item in enumerate(body["output"]):
        opened = {"reasoning": _opened_reasoning, "message": _opened_message,
                  "function_call": _opened_call}[item["type"]](item)
        yield event("response.output_item.added", item=opened, output_index=index)
        for kind, fields in _item_events(item, index):
            yield event(kind, **fields)
        yield event("response.output_item.done", item=item, output_index=index)
    final = "response.completed" if body["status"] == "completed" else "response.incomplete"
    yield event(final, response=body)


def _opened_reasoning(item: dict[str, Any]) -> dict[str, Any]:
    return {"id": item["id"], "type": "reasoning", "summary": []}


def _opened_message(item: dict[str, Any]) -> dict[str, Any]:
    return {"id": item["id"], "type": "message", "status": "in_progress", "content": [],
            "role": "assistant"}


def _opened_call(item: dict[str, Any]) -> dict[str, Any]:
    return item | {"status": "in_progress", "arguments": ""}


def _item_events(item: dict[str, Any], index: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """The events between an output item's `added` and its `done`."""
    where = {"item_id": item["id"], "output_index": index}
    if item["type"] == "function_call":
        for piece in slices(item["arguments"]):
            yield "response.function_call_arguments.delta", {"delta": piece, **where}
        yield "response.function_call_arguments.done", {"arguments": item["arguments"], **where}
    for number, summary in enumerate(item.get("summary") or []):
        yield from _summary_events(summary, where | {"summary_index": number})
    for number, content in enumerate(item.get("content") or []):
        yield from _content_events(content, where | {"content_index": number})


def _summary_events(summary: dict[str, Any],
                    part: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """One reasoning summary part: opened empty, its text in deltas, closed."""
    yield "response.reasoning_summary_part.added", part | {
        "part": {"type": "summary_text", "text": ""}}
    for piece in pieces(summary["text"], size=TEXT_PIECE["openai_responses"]):
        yield "response.reasoning_summary_text.delta", part | {"delta": piece}
    yield "response.reasoning_summary_text.done", part | {"text": summary["text"]}
    yield "response.reasoning_summary_part.done", part | {"part": summary}


def _content_events(content: dict[str, Any],
                    part: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """One content part of a message: output text, or a refusal, which has events of its own."""
    refusal = content["type"] == "refusal"
    field = "refusal" if refusal else "text"
    kind = "response.refusal" if refusal else "response.output_text"
    # Output text carries its (empty) logprobs on every event; a refusal has none.
    extra: dict[str, Any] = {} if refusal else {"logprobs": []}
    empty: dict[str, Any] = {"type": content["type"]} | (
        {} if refusal else {"annotations": [], "logprobs": []}) | {field: ""}
    yield "response.content_part.added", part | {"part": empty}
    for piece in pieces(content[field], size=TEXT_PIECE["openai_responses"]):
        yield f"{kind}.delta", part | {"delta": piece} | extra
    yield f"{kind}.done", part | {field: content[field]} | extra
    yield "response.content_part.done", part | {"part": content}


# ---- Anthropic --------------------------------------------------------------------------------

def _anthropic(body: dict[str, Any], request: dict[str, Any], ids: CallIds) -> Events:
    usage = body["usage"]
    # The opening count is what was generated before the first event, a token or so; the real
    # total comes with message_delta.
    start = body | {"content": [], "stop_reason": None, "stop_sequence": None,
                    "usage": usage | {"output_tokens": 1}}
    yield "message_start", {"type": "message_start", "message": start}
    for index, block in enumerate(body["content"]):
        yield "content_block_start", {"type": "content_block_start", "index": index,
                                      "content_block": _opened_block(block)}
        if index == 0:  # a keep-alive the API sends once the reply is under way
            yield "ping", {"type": "ping"}
        for delta in _block_deltas(block):
            yield "content_block_delta", {"type": "content_block_delta", "index": index,
                                          "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    counts = {key: usage[key] for key in ("input_tokens", "cache_creation_input_tokens",
                                          "cache_read_input_tokens", "output_tokens")}
    yield "message_delta", {"type": "message_delta", "delta": {
        "stop_reason": body["stop_reason"], "stop_sequence": body["stop_sequence"]},
        "usage": counts}
    yield "message_stop", {"type": "message_stop"}


def _opened_block(block: dict[str, Any]) -> dict[str, Any]:
    if block["type"] == "thinking":
        return {"type": "thinking", "thinking": "", "signature": ""}
    if block["type"] == "text":
        return {"type": "text", "text": ""}
    return block | {"input": {}}  # a tool_use block: its input comes as JSON text


def _block_deltas(block: dict[str, Any]) -> Iterator[dict[str, Any]]:
    size = TEXT_PIECE["anthropic"]
    if block["type"] == "thinking":
        for piece in pieces(block["thinking"], size=size):
            yield {"type": "thinking_delta", "thinking": piece}
        yield {"type": "thinking_delta", "thinking": ""}  # as recorded: an empty one, then
        yield {"type": "signature_delta", "signature": block["signature"]}  # the signature
    elif block["type"] == "text":
        for piece in pieces(block["text"], size=size):
            yield {"type": "text_delta", "text": piece}
    else:  # an empty partial first; an empty input sends nothing more
        arguments = json.dumps(block["input"], ensure_ascii=False) if block["input"] else ""
        for piece in ["", *slices(arguments)]:
            yield {"type": "input_json_delta", "partial_json": piece}


# ---- Gemini -----------------------------------------------------------------------------------

def _gemini(body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The chunks: each a whole response with the next parts; the last one has `finishReason`
    and the full usage."""
    candidate = body["candidates"][0]
    *early, last = _gemini_parts(candidate["content"]["parts"])
    usage = body["usageMetadata"]
    # Before the last chunk the usage counts the prompt (and thoughts), no output yet.
    so_far = {key: value for key, value in usage.items() if key != "candidatesTokenCount"}
    so_far["totalTokenCount"] = usage["promptTokenCount"] + usage.get("thoughtsTokenCount", 0)
    for parts in early:
        yield body | {"candidates": [{"content": {"parts": parts, "role": "model"}, "index": 0}],
                      "usageMetadata": so_far}
    yield body | {"candidates": [candidate | {"content": {"parts": last, "role": "model"}}]}


def _gemini_parts(parts: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The parts of each chunk in turn: each thought part alone, the text in pieces (the last
    piece keeps the text part's thoughtSignature), then all the calls together."""
    chunks = [[part] for part in parts if part.get("thought")]
    for part in parts:
        if "text" in part and not part.get("thought"):
            cut = pieces(part["text"], size=TEXT_PIECE["gemini"]) or [""]
            chunks += [[{"text": piece}] for piece in cut[:-1]] + [[part | {"text": cut[-1]}]]
    calls = [part for part in parts if "functionCall" in part]
    if calls or not chunks:  # the calls end the reply; a reply without parts is one empty chunk
        chunks.append(calls)
    return chunks


STREAMS: dict[str, Callable[[dict[str, Any], dict[str, Any], CallIds], Events]] = {
    "openai_chat": _chat, "openai_responses": _responses, "anthropic": _anthropic}


def split(content: bytes) -> list[bytes]:
    """A streamed body cut back into its events (after each blank line), for a server that sends
    one event a chunk. Event data is JSON on one line, so a blank line only ever ends an event."""
    return [frame for frame in re.split(rb"(?<=\n\n)|(?<=\r\n\r\n)", content) if frame]
