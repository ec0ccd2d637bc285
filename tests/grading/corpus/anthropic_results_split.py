"""Bug: every tool result gets its own user message instead of one per round."""

EXERCISE = "01_message_ordering"
FAILS = {"to_anthropic_results_in_one_user_message"}
EXPECT = "split over several user messages"


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
                        "input": c["arguments"]} for c in message["tool_calls"]]
            messages.append({"role": "assistant", "content": blocks})
        else:
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": message["tool_call_id"],
                 "content": message["content"]}]})
    return system, messages
