import itertools


def to_anthropic(history):
    """(system, messages) for an Anthropic Messages request carrying this history."""
    system = None
    messages = []
    for is_tool, group in itertools.groupby(history, key=lambda m: m["role"] == "tool"):
        group = list(group)
        if is_tool:
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": g["tool_call_id"], "content": g["content"]}
                for g in group]})
            continue
        for m in group:
            if m["role"] == "system":
                system = m["content"]
            elif m["role"] == "user":
                messages.append({"role": "user", "content": m["content"]})
            else:
                blocks = [{"type": "text", "text": m["content"]}] if m.get("content") else []
                for call in m.get("tool_calls") or []:
                    blocks.append({"type": "tool_use", "id": call["id"], "name": call["name"],
                                   "input": call["arguments"]})
                messages.append({"role": "assistant", "content": blocks})
    return system, messages
