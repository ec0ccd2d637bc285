# expect: yours lacks ["call_x"], whose call comes only after it
"""Accepts a call made anywhere in the list, even after its result."""

from harness.messages import AssistantMessage, ToolMessage


def orphan_results(messages):
    asked = {call.id for m in messages if isinstance(m, AssistantMessage) for call in m.tool_calls}
    return [m.tool_call_id for m in messages if isinstance(m, ToolMessage)
            and m.tool_call_id not in asked]
