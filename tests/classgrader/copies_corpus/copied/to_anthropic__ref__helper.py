def to_anthropic(history):
    """(system, messages) for Anthropic."""
    system, messages = None, []
    for item in history:
        kind = item["role"]
        if kind == "system":
            system = item["content"]
        elif kind == "user":
            messages.append({"role": "user", "content": item["content"]})
        elif kind == "assistant":
            messages.append({"role": "assistant", "content": _blocks(item)})
        else:
            result = {"type": "tool_result", "tool_use_id": item["tool_call_id"],
                      "content": item["content"]}
            previous = messages[-1] if messages else None
            if previous and previous["role"] == "user" and isinstance(previous["content"], list):
                previous["content"].append(result)
            else:
                messages.append({"role": "user", "content": [result]})
    return system, messages


def _blocks(item):
    blocks = [{"type": "text", "text": item["content"]}] if item.get("content") else []
    blocks += [{"type": "tool_use", "id": call["id"], "name": call["name"],
                "input": call["arguments"]} for call in item.get("tool_calls") or []]
    return blocks
