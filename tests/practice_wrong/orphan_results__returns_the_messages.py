# expect: yours returns whole messages; the reference only their ids
"""Returns the orphan tool messages themselves instead of their ids."""

from harness.messages import AssistantMessage, ToolMessage


def orphan_results(messages):
    asked, orphans = set(), []
    for message in messages:
        if isinstance(message, AssistantMessage):
            asked.update(call.id for call in message.tool_calls)
        elif isinstance(message, ToolMessage) and message.tool_call_id not in asked:
            orphans.append(message)
    return orphans
