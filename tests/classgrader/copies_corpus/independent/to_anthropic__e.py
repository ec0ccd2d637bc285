TEXT, TOOL_USE, TOOL_RESULT = "text", "tool_use", "tool_result"


def to_anthropic(history):
    """(system, messages) for an Anthropic Messages request carrying this history."""
    system_prompt = None
    converted = []
    index = 0
    while index < len(history):
        item = history[index]
        if item["role"] == "system":
            system_prompt = item["content"]
            index += 1
        elif item["role"] == "tool":
            results = []
            while index < len(history) and history[index]["role"] == "tool":
                results.append({"type": TOOL_RESULT, "tool_use_id": history[index]["tool_call_id"],
                                "content": history[index]["content"]})
                index += 1
            converted.append({"role": "user", "content": results})
        elif item["role"] == "assistant":
            body = [{"type": TEXT, "text": item["content"]}] if item.get("content") else []
            body += [{"type": TOOL_USE, "id": c["id"], "name": c["name"], "input": c["arguments"]}
                     for c in (item.get("tool_calls") or [])]
            converted.append({"role": "assistant", "content": body})
            index += 1
        else:
            converted.append({"role": "user", "content": item["content"]})
            index += 1
    return system_prompt, converted
