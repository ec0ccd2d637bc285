def run_loop(model, tools, messages, *, max_turns=10):
    """Run the agent loop; return (status, answer) with status done, truncated or turn_cap."""
    history = messages.copy()

    def execute(calls):
        for call in calls:
            fn = tools[call["name"]]
            history.append({"role": "tool", "tool_call_id": call["id"],
                            "content": fn(**call["arguments"])})

    def skip(calls):
        for call in calls:
            history.append({"role": "tool", "tool_call_id": call["id"], "content": NOT_EXECUTED})

    last_calls = []
    for step in range(max_turns):
        answer = model(history, tool_choice="auto")
        history.append(answer["message"])
        if answer["stop_reason"] == "max_tokens":
            return "truncated", None
        last_calls = answer["message"].get("tool_calls") or []
        if len(last_calls) == 0:
            return "done", answer["message"].get("content")
        if step + 1 < max_turns:
            execute(last_calls)
    skip(last_calls)
    closing = list(history)
    if closing and closing[0]["role"] == "system":
        closing[0] = dict(closing[0], content=closing[0]["content"] + "\n\n"
                          + CLOSING_INSTRUCTION)
    else:
        closing.insert(0, {"role": "system", "content": CLOSING_INSTRUCTION})
    answer = model(closing, tool_choice="none")
    history.append(answer["message"])
    if answer["stop_reason"] != "max_tokens" and not answer["message"].get("tool_calls"):
        return "turn_cap", answer["message"]["content"]
    return "turn_cap", None
