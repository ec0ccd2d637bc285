def run_loop(model, tools, messages, *, max_turns=10):
    """Run the agent loop; return (status, answer) with status done, truncated or turn_cap."""
    history = list(messages)  # the caller's list stays as it was
    for turn in range(1, max_turns + 1):
        reply = model(history, tool_choice="auto")
        message = reply["message"]
        history.append(message)
        if reply["stop_reason"] == "max_tokens":
            return "truncated", None
        calls = message.get("tool_calls") or []
        if not calls:
            return "done", message.get("content")
        if turn == max_turns:
            break  # these calls stay pending
        for call in calls:
            result = tools[call["name"]](**call["arguments"])
            history.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    for call in calls:
        history.append({"role": "tool", "tool_call_id": call["id"], "content": NOT_EXECUTED})
    if history and history[0]["role"] == "system":
        system = {"role": "system",
                  "content": history[0]["content"] + "\n\n" + CLOSING_INSTRUCTION}
        closing = [system, *history[1:]]
    else:
        closing = [{"role": "system", "content": CLOSING_INSTRUCTION}, *history]
    reply = model(closing, tool_choice="none")
    history.append(reply["message"])
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        return "turn_cap", None  # cut off, or a call made anyway: not an answer either
    return "turn_cap", reply["message"]["content"]
