def to_anthropic(history):
    """Build the Anthropic request body parts."""
    messages = []
    system = None
    for message in history:
        role = message["role"]
        if role == "assistant":
            blocks = [{"type": "text", "text": message["content"]}] if message.get("content") else []
            blocks += [{"type": "tool_use", "id": call["id"], "name": call["name"],
                        "input": call["arguments"]} for call in message.get("tool_calls") or []]
            messages.append({"role": "assistant", "content": blocks})
        elif role == "user":
            messages.append({"role": "user", "content": message["content"]})
        elif role == "system":
            system = message["content"]
        else:
            previous = messages[-1] if messages else None
            result = {"type": "tool_result", "tool_use_id": message["tool_call_id"],
                      "content": message["content"]}
            if previous and previous["role"] == "user" and isinstance(previous["content"], list):
                previous["content"].append(result)
            else:
                messages.append({"role": "user", "content": [result]})
    return system, messages
