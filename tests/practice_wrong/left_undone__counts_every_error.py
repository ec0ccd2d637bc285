# expect: yours has ["get_weather", "get_forecast", "get_uv_index"], which ran and failed
"""Counts every error result, including a tool that ran and failed."""

from harness.messages import AssistantMessage, ToolMessage


def left_undone(result):
    names = {call.id: call.name for message in result.messages
             if isinstance(message, AssistantMessage) for call in message.tool_calls}
    return [names.get(message.tool_call_id, message.tool_call_id) for message in result.messages
            if isinstance(message, ToolMessage) and message.is_error]
