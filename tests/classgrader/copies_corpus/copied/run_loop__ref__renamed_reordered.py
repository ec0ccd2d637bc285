def run_loop(model, tools, messages, *, max_turns=10):
    msgs = list(messages)
    for i in range(1, max_turns + 1):
        resp = model(msgs, tool_choice="auto")
        m = resp["message"]
        msgs.append(m)
        if resp["stop_reason"] == "max_tokens":
            return "truncated", None
        tcs = m.get("tool_calls") or []
        if not tcs:
            return "done", m.get("content")
        if i == max_turns:
            break
        for tc in tcs:
            out = tools[tc["name"]](**tc["arguments"])
            msgs.append({"role": "tool", "tool_call_id": tc["id"], "content": out})
    for tc in tcs:
        msgs.append({"role": "tool", "tool_call_id": tc["id"], "content": NOT_EXECUTED})
    if not (msgs and msgs[0]["role"] == "system"):
        final = [{"role": "system", "content": CLOSING_INSTRUCTION}, *msgs]
    else:
        sysm = {"role": "system", "content": msgs[0]["content"] + "\n\n" + CLOSING_INSTRUCTION}
        final = [sysm, *msgs[1:]]
    resp = model(final, tool_choice="none")
    msgs.append(resp["message"])
    if resp["stop_reason"] == "max_tokens" or resp["message"].get("tool_calls"):
        return "turn_cap", None
    return "turn_cap", resp["message"]["content"]
