"""Bug: a round's user message opens with a text block, then the results."""

EXERCISE = "01_message_ordering"
FAILS = {"to_anthropic_results_in_one_user_message"}
EXPECT = 'tool_result blocks come'


def to_anthropic(history):
    system, messages = None, []
    for message in history:
        role = message["role"]
        if role == "system":
            system = message["content"]
        elif role == "user":
            messages.append({"role": "user", "content": message["content"]})
        elif role == "assistant":
            text = message.get("content")
            blocks = [{"type": "text", "text": text}] if text else []
            blocks += [{"type": "tool_use", "id": call["id"], "name": call["name"],
                        "input": call["arguments"]} for call in message.get("tool_calls") or []]
            messages.append({"role": "assistant", "content": blocks})
        else:
            result = {"type": "tool_result", "tool_use_id": message["tool_call_id"],
                      "content": message["content"]}
            previous = messages[-1] if messages else None
            if previous and previous["role"] == "user" and isinstance(previous["content"], list):
                previous["content"].append(result)
            else:
                messages.append({"role": "user", "content": [
                    {"type": "text", "text": "Here are the results."}, result]})
    return system, messages
