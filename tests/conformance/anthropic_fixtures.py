"""Messages API (`POST /v1/messages`): request shapes the real API accepted or rejected."""

from __future__ import annotations

from typing import Any

from tests.conformance._fixture import Fixture, foreign_signature

TOOLS = [{"name": "find_train", "description": "Find the next train between two stations.",
          "input_schema": {"type": "object", "properties": {"to": {"type": "string"}},
                           "required": ["to"]}}]
ASK = {"role": "user", "content": "Next trains to Porto and to Faro?"}


def body(messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "claude-sonnet-4-6", "max_tokens": 512, "tools": TOOLS,
            "messages": messages, **extra}


def use(call_id: str, to: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "find_train", "input": {"to": to}}


def result(call_id: str, text: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": text}


def error(message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}


THINKING = {"type": "enabled", "budget_tokens": 1024}

FIXTURES = [
    Fixture(
        fact="Consecutive assistant messages are combined into one turn: a turn split into one "
             "message per tool_use, answered by one user message holding every result, is valid.",
        tags=("consecutive same-role messages",),
        body=body([ASK,
                   {"role": "assistant", "content": [use("toolu_01Porto", "Porto")]},
                   {"role": "assistant", "content": [use("toolu_01Faro", "Faro")]},
                   {"role": "user", "content": [result("toolu_01Porto", "10:05"),
                                                result("toolu_01Faro", "11:40")]}])),
    Fixture(
        fact="The text of a turn may come in its own assistant message before the tool_use one.",
        tags=("consecutive same-role messages",),
        body=body([ASK,
                   {"role": "assistant", "content": "Let me look both up."},
                   {"role": "assistant", "content": [use("toolu_01Porto", "Porto"),
                                                     use("toolu_01Faro", "Faro")]},
                   {"role": "user", "content": [result("toolu_01Porto", "10:05"),
                                                result("toolu_01Faro", "11:40")]}])),
    Fixture(
        fact="Consecutive user messages are combined too: two user texts in a row are valid.",
        tags=("consecutive same-role messages",),
        body=body([ASK, {"role": "user", "content": "Second class is fine."}])),
    Fixture(
        fact="A thinking block whose signature has the real format is accepted (the emulator "
             "cannot verify a signature it did not issue, so it checks the format only).",
        tags=("real thinking signatures",),
        body=body([ASK,
                   {"role": "assistant", "content": [
                       {"type": "thinking", "thinking": "Two lookups, one per city.",
                        "signature": foreign_signature("porto-faro")},
                       use("toolu_01Porto", "Porto")]},
                   {"role": "user", "content": [result("toolu_01Porto", "10:05")]}],
                  thinking=THINKING)),
    Fixture(
        fact="A signature that is not base64 protobuf in the real layout is invalid.",
        status=400, error=error("messages.1.content.0: Invalid `signature` in `thinking` block"),
        body=body([ASK,
                   {"role": "assistant", "content": [
                       {"type": "thinking", "thinking": "Two lookups, one per city.",
                        "signature": "c2lnbmVkIGJ5IG1l"},
                       use("toolu_01Porto", "Porto")]},
                   {"role": "user", "content": [result("toolu_01Porto", "10:05")]}],
                  thinking=THINKING)),
    Fixture(
        fact="A tool_result must answer a tool_use of the message right before it.",
        status=400,
        error=error("messages.2.content.1: unexpected `tool_use_id` found in `tool_result` "
                    "blocks: toolu_01Lagos. Each `tool_result` block must have a corresponding "
                    "`tool_use` block in the previous message."),
        body=body([ASK,
                   {"role": "assistant", "content": [use("toolu_01Porto", "Porto")]},
                   {"role": "user", "content": [result("toolu_01Porto", "10:05"),
                                                result("toolu_01Lagos", "12:15")]}])),
]
