"""Valid: a user message after a turn's results goes into the results' message, after the
tool_result blocks (the shape of the kit's Anthropic adapter); string content sent as a block."""

EXERCISE = "01_message_ordering"
FAILS = set()


def to_anthropic(history):
    system = next((m["content"] for m in history if m["role"] == "system"), None)
    messages = []
    for message in history:
        if message["role"] == "system":
            continue
        if message["role"] == "assistant":
            blocks = [{"type": "text", "text": message["content"]}] if message["content"] else []
            blocks += [{"type": "tool_use", "id": c["id"], "name": c["name"],
                        "input": c["arguments"]} for c in message.get("tool_calls") or []]
            messages.append({"role": "assistant", "content": blocks})
            continue
        if message["role"] == "tool":
            block = {"type": "tool_result", "tool_use_id": message["tool_call_id"],
                     "content": message["content"]}
        else:
            block = {"type": "text", "text": message["content"]}
        last = messages[-1] if messages else None
        if last and last["role"] == "user":
            last["content"].append(block)  # after this turn's results: one user message
        else:
            messages.append({"role": "user", "content": [block]})
    return system, messages
