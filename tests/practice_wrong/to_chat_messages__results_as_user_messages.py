# expect: its content is "" in yours, null in the reference
import json

from harness.messages import AssistantMessage, ToolMessage


def to_chat_messages(messages):
    wire = []
    for message in messages:
        if isinstance(message, ToolMessage):
            wire.append({"role": "user", "content": message.content})
        elif isinstance(message, AssistantMessage):
            turn = {"role": "assistant", "content": message.content or ""}
            if message.tool_calls:
                turn["tool_calls"] = [{"id": c.id, "type": "function", "function": {
                    "name": c.name, "arguments": json.dumps(c.arguments)}}
                    for c in message.tool_calls]
            wire.append(turn)
        else:
            wire.append({"role": message.role, "content": message.content})
    return wire
