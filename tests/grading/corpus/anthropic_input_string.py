"""Bug: the tool_use input is sent as a JSON string (as OpenAI sends arguments)."""

import json

EXERCISE = "01_message_ordering"
FAILS = {"to_anthropic_tool_use_blocks"}
EXPECT = "not a JSON string"


def to_anthropic(history):
    system, messages = None, []
    for message in history:
        if message["role"] == "system":
            system = message["content"]
        elif message["role"] == "user":
            messages.append({"role": "user", "content": message["content"]})
        elif message["role"] == "assistant":
            blocks = [{"type": "text", "text": message["content"]}] if message["content"] else []
            blocks += [{"type": "tool_use", "id": c["id"], "name": c["name"],
                        "input": json.dumps(c["arguments"])} for c in message["tool_calls"]]
            messages.append({"role": "assistant", "content": blocks})
        else:
            result = {"type": "tool_result", "tool_use_id": message["tool_call_id"],
                      "content": message["content"]}
            if messages and messages[-1]["role"] == "user" \
                    and isinstance(messages[-1]["content"], list):
                messages[-1]["content"].append(result)
            else:
                messages.append({"role": "user", "content": [result]})
    return system, messages
