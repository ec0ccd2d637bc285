"""Bug: a user message that follows a turn's results is folded into the results' message, but at
its front, so its text comes before the tool_result blocks."""

EXERCISE = "01_message_ordering"
FAILS = {"to_anthropic_results_in_one_user_message"}
EXPECT = "tool_result blocks come"


def to_anthropic(history):
    system, messages = None, []
    for message in history:
        role = message["role"]
        previous = messages[-1] if messages else None
        if role == "system":
            system = message["content"]
        elif role == "user":
            if previous and previous["role"] == "user":
                # two user messages in a row: keep it one message, as Anthropic wants
                previous["content"].insert(0, {"type": "text", "text": message["content"]})
            else:
                messages.append({"role": "user", "content": message["content"]})
        elif role == "assistant":
            blocks = [{"type": "text", "text": message["content"]}] if message["content"] else []
            for call in message.get("tool_calls") or []:
                blocks.append({"type": "tool_use", "id": call["id"], "name": call["name"],
                               "input": call["arguments"]})
            messages.append({"role": "assistant", "content": blocks})
        else:
            result = {"type": "tool_result", "tool_use_id": message["tool_call_id"],
                      "content": message["content"]}
            if previous and previous["role"] == "user" and isinstance(previous["content"], list):
                previous["content"].append(result)
            else:
                messages.append({"role": "user", "content": [result]})
    return system, messages
