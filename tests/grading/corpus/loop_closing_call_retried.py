"""Bug: a closing reply that is no answer gets a second closing call."""

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISE = "02_early_exit"
FAILS = {"run_loop_closing_call_is_text_only"}
EXPECT = 'Make ONE closing call'


def run_loop(model, tools, messages, *, max_turns=10):
    history = list(messages)
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
            break
        for call in calls:
            result = tools[call["name"]](**call["arguments"])
            history.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    for call in calls:
        history.append({"role": "tool", "tool_call_id": call["id"], "content": NOT_EXECUTED})
    if history[0]["role"] == "system":
        system = {"role": "system", "content": history[0]["content"] + "\n\n" + CLOSING_INSTRUCTION}
        sent = [system, *history[1:]]
    else:
        sent = [{"role": "system", "content": CLOSING_INSTRUCTION}, *history]
    reply = model(sent, tool_choice="none")
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        reply = model(sent, tool_choice="none")  # one more try
        if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
            return "turn_cap", None
    return "turn_cap", reply["message"]["content"]
