"""The plain-dict form of a transcript: what the exercises pass around and the token rule counts.

Each message is a dict of its role and content; an assistant turn adds `tool_calls` (each with
`id`, `name` and `arguments`), a tool result its `tool_call_id` and, when set, `is_error`. What a
provider must get back unchanged (reasoning, provider extras) is left out: this form is for
reading and counting, not for sending. `harness.messages.parse_messages` reads it back.
"""

from __future__ import annotations

from typing import Any

from harness.messages import AssistantMessage, Message, ToolMessage


def to_dicts(messages: list[Message]) -> list[dict[str, Any]]:
    """A transcript as plain dicts: role and content, tool calls, tool results.

    Example:
        >>> from harness.messages import ToolMessage
        >>> to_dicts([ToolMessage(tool_call_id="call_1", content="14 C")])
        [{'role': 'tool', 'tool_call_id': 'call_1', 'content': '14 C'}]
    """
    return [_to_dict(message) for message in messages]


def _to_dict(message: Message) -> dict[str, Any]:
    if isinstance(message, AssistantMessage):
        calls = [{"id": c.id, "name": c.name, "arguments": dict(c.arguments)}
                 for c in message.tool_calls]
        return {"role": "assistant", "content": message.content, "tool_calls": calls}
    if isinstance(message, ToolMessage):
        extra = {"is_error": True} if message.is_error else {}
        return {"role": "tool", "tool_call_id": message.tool_call_id,
                "content": message.content} | extra
    return {"role": message.role, "content": message.content}
