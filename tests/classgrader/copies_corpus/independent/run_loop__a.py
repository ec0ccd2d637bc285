def run_loop(model, tools, messages, *, max_turns=10):
    """Run the agent loop; return (status, answer) with status done, truncated or turn_cap."""
    convo = [*messages]
    pending = []
    turns = 0
    while turns < max_turns:
        turns += 1
        out = model(convo, tool_choice="auto")
        convo.append(out["message"])
        if out["stop_reason"] == "max_tokens":
            return "truncated", None
        pending = list(out["message"].get("tool_calls") or [])
        if not pending:
            return "done", out["message"].get("content")
        if turns < max_turns:
            for call in pending:
                value = tools[call["name"]](**call["arguments"])
                convo.append({"role": "tool", "tool_call_id": call["id"], "content": value})
            pending = []
    convo.extend({"role": "tool", "tool_call_id": c["id"], "content": NOT_EXECUTED}
                 for c in pending)
    head, rest = (convo[0], convo[1:]) if convo and convo[0]["role"] == "system" else (None, convo)
    instruction = CLOSING_INSTRUCTION if head is None else \
        head["content"] + "\n\n" + CLOSING_INSTRUCTION
    final = model([{"role": "system", "content": instruction}, *rest], tool_choice="none")
    convo.append(final["message"])
    cut = final["stop_reason"] == "max_tokens"
    return ("turn_cap", None) if cut or final["message"].get("tool_calls") else \
        ("turn_cap", final["message"]["content"])
