def to_anthropic(history):
    """(system, messages) for an Anthropic Messages request carrying this history."""
    system = next((m["content"] for m in history if m["role"] == "system"), None)
    messages, pending = [], []

    def flush():
        if pending:
            messages.append({"role": "user", "content": list(pending)})
            pending.clear()

    for m in history:
        if m["role"] == "system":
            continue
        if m["role"] == "tool":
            pending.append({"type": "tool_result", "tool_use_id": m["tool_call_id"],
                            "content": m["content"]})
            continue
        flush()
        if m["role"] == "user":
            messages.append({"role": "user", "content": m["content"]})
            continue
        content = []
        if m.get("content"):
            content.append({"type": "text", "text": m["content"]})
        content.extend({"type": "tool_use", "id": c["id"], "name": c["name"],
                        "input": c["arguments"]} for c in m.get("tool_calls") or [])
        messages.append({"role": "assistant", "content": content})
    flush()
    return system, messages
