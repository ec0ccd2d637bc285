def to_anthropic(history):
    """(system, messages) for an Anthropic Messages request carrying this history."""
    system, messages = None, []
    for message in history:
        role = message["role"]
        if role == "system":
            system = message["content"]
        elif role == "user":
            messages.append({"role": "user", "content": message["content"]})
        elif role == "assistant":
            blocks = [{"type": "text", "text": message["content"]}] if message.get("content") else []
            blocks += [{"type": "tool_use", "id": call["id"], "name": call["name"],
                        "input": call["arguments"]} for call in message.get("tool_calls") or []]
            messages.append({"role": "assistant", "content": blocks})
        else:
            result = {"type": "tool_result", "tool_use_id": message["tool_call_id"],
                      "content": message["content"]}
            previous = messages[-1] if messages else None
            if previous and previous["role"] == "user" and isinstance(previous["content"], list):
                previous["content"].append(result)  # the same turn: the same user message
            else:
                messages.append({"role": "user", "content": [result]})
    return system, messages
