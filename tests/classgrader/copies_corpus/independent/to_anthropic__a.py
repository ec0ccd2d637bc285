def to_anthropic(history):
    """(system, messages) for an Anthropic Messages request carrying this history."""
    def assistant_blocks(entry):
        out = []
        text = entry.get("content")
        if text:
            out.append({"type": "text", "text": text})
        for call in entry.get("tool_calls") or ():
            out.append({"type": "tool_use", "id": call["id"], "name": call["name"],
                        "input": call["arguments"]})
        return out

    system = None
    turns = []
    for entry in history:
        kind = entry["role"]
        if kind == "system":
            system = entry["content"]
            continue
        if kind == "tool":
            block = {"type": "tool_result", "tool_use_id": entry["tool_call_id"],
                     "content": entry["content"]}
            if turns and turns[-1]["role"] == "user" and type(turns[-1]["content"]) is list:
                turns[-1]["content"].append(block)
            else:
                turns.append({"role": "user", "content": [block]})
            continue
        if kind == "assistant":
            turns.append({"role": "assistant", "content": assistant_blocks(entry)})
        else:
            turns.append({"role": "user", "content": entry["content"]})
    return system, turns
