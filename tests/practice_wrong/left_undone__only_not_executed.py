# expect: yours lacks ["compute_record"], answered without running
"""Misses the calls an interrupted run cancelled: their result starts "Cancelled"."""

from harness.messages import AssistantMessage, ToolMessage


def left_undone(result):
    names = {call.id: call.name for message in result.messages
             if isinstance(message, AssistantMessage) for call in message.tool_calls}
    return [names[message.tool_call_id] for message in result.messages
            if isinstance(message, ToolMessage) and message.content.startswith("Not executed")]
