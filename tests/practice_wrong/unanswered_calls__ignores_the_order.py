# expect: yours lacks ["call_x"], whose only result comes before the call
"""Counts a result anywhere in the list as an answer, even one before its call."""

from harness.messages import AssistantMessage, ToolMessage


def unanswered_calls(messages):
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    return [call.id for m in messages if isinstance(m, AssistantMessage)
            for call in m.tool_calls if call.id not in answered]
