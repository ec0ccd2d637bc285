"""Bug: the system prompt stays in the message list, as OpenAI would take it."""

EXERCISE = "01_message_ordering"
FAILS = {"to_anthropic_keeps_system_apart"}
EXPECT = "no system role inside messages"


def to_anthropic(history):
    messages = []
    for message in history:
        if message["role"] in ("system", "user"):
            messages.append({"role": message["role"], "content": message["content"]})
        elif message["role"] == "assistant":
            blocks = [{"type": "text", "text": message["content"]}] if message["content"] else []
            blocks += [{"type": "tool_use", "id": c["id"], "name": c["name"],
                        "input": c["arguments"]} for c in message["tool_calls"]]
            messages.append({"role": "assistant", "content": blocks})
        else:
            result = {"type": "tool_result", "tool_use_id": message["tool_call_id"],
                      "content": message["content"]}
            if messages[-1]["role"] == "user" and isinstance(messages[-1]["content"], list):
                messages[-1]["content"].append(result)
            else:
                messages.append({"role": "user", "content": [result]})
    return None, messages
