"""Lesson 10's pieces: one adapter's mapping of one format, each way.

`to_chat_messages` writes a neutral transcript as OpenAI Chat Completions `messages`;
`stop_reason_of` reads why a reply ended from a response body of any of the four formats. Both are
checked against the kit's real adapters (`harness.providers.*`), not against a copy of them: the
transcripts are the lesson's scenarios run on the ScriptedModel, the bodies are small replies
written from the formats' documented fields. Anthropic's mapping is exercise 1's `to_anthropic`,
so it is not a piece here. The streaming section's piece is in `lesson10_streams`.
"""

from __future__ import annotations

import functools
from typing import Any

from course.compare import same_messages
from course.practice.engine import Piece, attempt
from course.practice.explain import differs, message_difference
from harness.messages import AssistantMessage, Message, ToolMessage, argument_text
from harness.providers import anthropic, gemini, openai_chat, openai_responses
from offline.scenarios import SCENARIOS


def to_chat_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """The `messages` of an OpenAI Chat Completions request carrying this neutral transcript.

    One wire message per neutral message, in order. System and user messages: `{"role",
    "content"}`. A tool result: `{"role": "tool", "tool_call_id", "content"}`. An assistant
    turn: `{"role": "assistant", "content": its text or None}`, plus `"tool_calls"` when it asked
    for tools, each `{"id", "type": "function", "function": {"name", "arguments"}}` with the
    arguments as a JSON string (`argument_text(call)`, which keeps invalid JSON as it came). A turn
    with neither text nor calls gets `"content": ""` (null is allowed only next to tool_calls).
    Reasoning is left out: Chat Completions has no way to carry it back.
    """
    wire = []
    for message in messages:
        if isinstance(message, ToolMessage):
            wire.append({"role": "tool", "tool_call_id": message.tool_call_id,
                         "content": message.content})
        elif isinstance(message, AssistantMessage):
            turn: dict[str, Any] = {"role": "assistant", "content": message.content}
            if message.tool_calls:
                turn["tool_calls"] = [{"id": call.id, "type": "function",
                                       "function": {"name": call.name,
                                                    "arguments": argument_text(call)}}
                                      for call in message.tool_calls]
            elif message.content is None:
                turn["content"] = ""
            wire.append(turn)
        else:
            wire.append({"role": message.role, "content": message.content})
    return wire


def stop_reason_of(provider: str, body: dict[str, Any]) -> str:
    """Why one reply ended, from its response body: "end_turn", "tool_use", "max_tokens",
    "refusal", or "other" for anything else.

    anthropic: `stop_reason`; stop_sequence counts as end_turn.
    openai_chat: `choices[0]["finish_reason"]`: stop, tool_calls, length, content_filter; a
      message with `tool_calls` is tool_use even when the reason says stop (a forced call).
    openai_responses: no stop field. `status` "incomplete" with `incomplete_details["reason"]`
      "max_output_tokens" is max_tokens; otherwise a "function_call" item in `output` means
      tool_use, and status "completed" end_turn.
    gemini: `candidates[0]["finishReason"]`: STOP is tool_use when a part holds a
      `functionCall`, else end_turn; MAX_TOKENS; SAFETY is a refusal.
    """
    if provider == "anthropic":
        reason = body.get("stop_reason")
        return {"end_turn": "end_turn", "stop_sequence": "end_turn", "tool_use": "tool_use",
                "max_tokens": "max_tokens", "refusal": "refusal"}.get(reason, "other")
    if provider == "openai_chat":
        choice = body["choices"][0]
        reason = choice.get("finish_reason")
        if choice["message"].get("tool_calls") and reason in ("stop", "tool_calls"):
            return "tool_use"
        return {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens",
                "content_filter": "refusal"}.get(reason, "other")
    if provider == "openai_responses":
        cut = (body.get("incomplete_details") or {}).get("reason")
        if body.get("status") == "incomplete" and cut == "max_output_tokens":
            return "max_tokens"
        if any(item.get("type") == "function_call" for item in body.get("output", [])):
            return "tool_use"
        return "end_turn" if body.get("status") == "completed" else "other"
    candidate = body["candidates"][0]
    reason = candidate.get("finishReason")
    if reason == "STOP":
        parts = candidate.get("content", {}).get("parts", [])
        return "tool_use" if any("functionCall" in part for part in parts) else "end_turn"
    return {"MAX_TOKENS": "max_tokens", "SAFETY": "refusal"}.get(reason, "other")


CHAT = Piece("to_chat_messages", lesson="10_four_providers",
             section="Your turn: one format by hand", reference=to_chat_messages)
STOP = Piece("stop_reason_of", lesson="10_four_providers",
             section="Your turn: four stop fields, one stop reason", reference=stop_reason_of)


@functools.cache
def transcripts() -> dict[str, list[Message]]:
    """The whole history of each scenario the check uses, run offline on the ScriptedModel."""
    names = ("umbrella", "two_cities", "tool_errors", "reasoning_roundtrip", "truncated")
    runs = {name: SCENARIOS[name].run().messages for name in names}
    runs["a turn with neither text nor calls"] = [*runs["umbrella"][:2], AssistantMessage()]
    return runs


def _hint(default: str):
    """Name the likely bug from the first message that differs; else the behaviour's hint."""
    def hint(index: int, mine: Any, yours: Any) -> str:
        said = message_difference(mine, yours)
        if not isinstance(mine, dict) or not isinstance(yours, dict):
            return f"{said}: one wire message per neutral message, in the same order"
        if mine.get("role") != yours.get("role"):
            return f"{said}: a {mine.get('role')} message keeps its role on this wire"
        calls = [call for call in yours.get("tool_calls") or [] if isinstance(call, dict)]
        if any(not isinstance((call.get("function") or {}).get("arguments"), str)
               for call in calls):
            return (f"{said}: yours sends the arguments as an object; on this wire they travel "
                    "as a JSON string, argument_text(call)")
        if mine.get("content") != yours.get("content") and mine.get("role") == "assistant":
            return (f"{said}: content stays None next to tool_calls, and a turn with neither "
                    "text nor calls gets ''")
        return f"{said}: {default}"
    return hint


def _against_adapter(yours, cases: list[str], hint: str):
    for case in cases:
        messages = transcripts()[case]
        want = openai_chat.to_wire(messages)["messages"]
        seen = attempt(yours, list(messages))
        if found := same_messages(case, want, seen, hint=_hint(hint)):
            return found
    return None


@CHAT.behaviour("writes system, user and tool messages with their roles, in order")
def _roles(yours, reference):
    return _against_adapter(yours, ["umbrella", "two_cities"],
                            hint="one wire message per neutral message; a result is role "
                                 "'tool' with its tool_call_id")


@CHAT.behaviour("writes each call with its id and its arguments as a JSON string")
def _calls(yours, reference):
    return _against_adapter(yours, ["two_cities", "tool_errors", "reasoning_roundtrip"],
                            hint="arguments travel as a string: argument_text(call); the call "
                                 "sits under 'function' with type 'function'; reasoning is "
                                 "not sent")


@CHAT.behaviour("gives a turn without calls its text, or an empty string")
def _empty(yours, reference):
    return _against_adapter(yours, ["truncated", "a turn with neither text nor calls"],
                            hint="content may be null only next to tool_calls: a turn with "
                                 "neither gets content ''")


_USAGE = {"anthropic": {"usage": {"input_tokens": 10, "output_tokens": 5}},
          "openai_chat": {"usage": {"prompt_tokens": 10, "completion_tokens": 5}},
          "openai_responses": {"usage": {"input_tokens": 10, "output_tokens": 5}},
          "gemini": {"usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5}}}
_TEXT = {"type": "text", "text": "Rain."}
_USE = {"type": "tool_use", "id": "toolu_1", "name": "get_forecast", "input": {"city": "Porto"}}
_CALLS = [{"id": "call_1", "type": "function",
           "function": {"name": "get_forecast", "arguments": "{\"city\":\"Porto\"}"}}]
_ITEM = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_forecast",
         "arguments": "{\"city\":\"Porto\"}"}
_SAID = {"type": "message", "id": "msg_1", "role": "assistant",
         "content": [{"type": "output_text", "text": "Rain.", "annotations": []}]}


def _chat(reason: str, *, calls: bool = False) -> dict[str, Any]:
    message = {"role": "assistant", "content": None if calls else "Rain."}
    return {"choices": [{"message": message | ({"tool_calls": _CALLS} if calls else {}),
                         "finish_reason": reason}]}


def _gemini(reason: str, *, calls: bool = False) -> dict[str, Any]:
    part = {"functionCall": {"name": "get_forecast", "args": {"city": "Porto"}}}
    return {"candidates": [{"content": {"role": "model",
                                        "parts": [part if calls else {"text": "Rain."}]},
                            "finishReason": reason}]}


BODIES = {  # (provider, what the reply is): the body, without usage
    ("anthropic", "an answer"): {"content": [_TEXT], "stop_reason": "end_turn"},
    ("anthropic", "a tool call"): {"content": [_TEXT, _USE], "stop_reason": "tool_use"},
    ("anthropic", "a cut reply"): {"content": [_TEXT], "stop_reason": "max_tokens"},
    ("anthropic", "a stop sequence"): {"content": [_TEXT], "stop_reason": "stop_sequence"},
    ("anthropic", "a refusal"): {"content": [], "stop_reason": "refusal"},
    ("anthropic", "a paused server-tool turn"): {"content": [_TEXT], "stop_reason": "pause_turn"},
    ("openai_chat", "an answer"): _chat("stop"),
    ("openai_chat", "a tool call"): _chat("tool_calls", calls=True),
    ("openai_chat", "a forced tool call"): _chat("stop", calls=True),
    ("openai_chat", "a cut reply"): _chat("length"),
    ("openai_chat", "a filtered reply"): _chat("content_filter"),
    ("openai_responses", "an answer"): {"status": "completed", "output": [_SAID]},
    ("openai_responses", "a tool call"): {"status": "completed", "output": [_ITEM]},
    ("openai_responses", "a cut reply"): {
        "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
        "output": []},
    ("gemini", "an answer"): _gemini("STOP"),
    ("gemini", "a tool call"): _gemini("STOP", calls=True),
    ("gemini", "a cut reply"): _gemini("MAX_TOKENS"),
    ("gemini", "a blocked reply"): _gemini("SAFETY"),
}
ADAPTERS = {"anthropic": anthropic, "openai_chat": openai_chat,
            "openai_responses": openai_responses, "gemini": gemini}
_HINTS = {"anthropic": "Anthropic's stop_reason is nearly neutral already; map stop_sequence to "
                       "end_turn and anything unknown (pause_turn) to 'other'",
          "openai_chat": "read choices[0]['finish_reason']; a message with tool_calls is a "
                         "tool call even when it says 'stop'",
          "openai_responses": "Responses has no stop field: check status and "
                              "incomplete_details first, then look for a function_call item",
          "gemini": "Gemini ends tool calls with STOP too: look for a functionCall part"}


def _stops(yours, providers: tuple[str, ...]):
    for (provider, reply), body in BODIES.items():
        if provider not in providers:
            continue
        full = body | _USAGE[provider]
        want = ADAPTERS[provider].from_wire(full).stop_reason.value
        seen = attempt(yours, provider, full)
        if found := differs(f"{provider}, {reply}", want, seen,
                            lambda want, got, provider=provider, reply=reply: (
                                f"for {provider}'s {reply} yours says {got!r}, the reference "
                                f"{want!r}: {_HINTS[provider]}")):
            return found
    return None


@STOP.behaviour("reads Anthropic's and OpenAI Chat's stop fields")
def _stops_with_a_field(yours, reference):
    return _stops(yours, ("anthropic", "openai_chat"))


@STOP.behaviour("works out the stop reason where the format has none (Responses, Gemini)")
def _stops_without_a_field(yours, reference):
    return _stops(yours, ("openai_responses", "gemini"))
