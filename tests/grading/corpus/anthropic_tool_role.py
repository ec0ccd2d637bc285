"""Bug: results keep the neutral tool role, which Anthropic does not have."""

EXERCISE = "01_message_ordering"
FAILS = {"to_anthropic_results_in_one_user_message"}
EXPECT = "Anthropic has no tool role"


def to_anthropic(history):
    system, messages = None, []
    for message in history:
        if message["role"] == "system":
            system = message["content"]
        elif message["role"] == "assistant":
            blocks = [{"type": "text", "text": message["content"]}] if message["content"] else []
            blocks += [{"type": "tool_use", "id": c["id"], "name": c["name"],
                        "input": c["arguments"]} for c in message["tool_calls"]]
            messages.append({"role": "assistant", "content": blocks})
        else:
            messages.append(dict(message))
    return system, messages
