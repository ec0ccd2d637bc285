"""Valid: a user message after a turn's results goes into the results' message, after the
tool_result blocks (the shape of the kit's Anthropic adapter); string content sent as a block.
append_round checks the ids first, then builds the results by the turn's order."""

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


def append_round(history, turn, finished):
    by_id = dict(finished)
    wanted = [call["id"] for call in turn["tool_calls"]]
    strays = sorted(set(by_id) - set(wanted))
    if strays:
        raise ValueError(f"no call of this turn has the id {strays[0]}")
    lacking = [call_id for call_id in wanted if call_id not in by_id]
    if lacking:
        raise ValueError(f"the call {lacking[0]} finished without a result")
    tool_messages = []
    for call_id in wanted:
        tool_messages.append({"content": by_id[call_id], "role": "tool", "tool_call_id": call_id})
    return list(history) + [turn] + tool_messages
