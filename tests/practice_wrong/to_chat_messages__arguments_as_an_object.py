# expect: its tool_calls[0].function.arguments is {"city": "Lisbon", "day": "tomorrow"} in yours
# expect: yours sends the arguments as an object
from harness.messages import AssistantMessage, ToolMessage


def to_chat_messages(messages):
    wire = []
    for message in messages:
        if isinstance(message, ToolMessage):
            wire.append({"role": "tool", "tool_call_id": message.tool_call_id,
                         "content": message.content})
        elif isinstance(message, AssistantMessage):
            turn = {"role": "assistant", "content": message.content}
            if message.tool_calls:
                turn["tool_calls"] = [{"id": c.id, "type": "function",
                                       "function": {"name": c.name, "arguments": c.arguments}}
                                      for c in message.tool_calls]
            wire.append(turn)
        else:
            wire.append({"role": message.role, "content": message.content})
    return wire
