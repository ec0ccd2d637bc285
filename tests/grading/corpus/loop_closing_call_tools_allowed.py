"""Bug: the closing call still lets the model ask for tools (tool_choice left at "auto")."""

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISE = "02_early_exit"
FAILS = {"run_loop_closing_call_is_text_only"}
EXPECT = "tool_choice='none'"


def run_loop(model, tools, messages, *, max_turns=10):
    history = list(messages)
    for turn in range(1, max_turns + 1):
        reply = model(history)
        message = reply["message"]
        history.append(message)
        if reply["stop_reason"] == "max_tokens":
            return "truncated", None
        if not message["tool_calls"]:
            return "done", message["content"]
        if turn == max_turns:
            break
        for call in message["tool_calls"]:
            history.append({"role": "tool", "tool_call_id": call["id"],
                            "content": tools[call["name"]](**call["arguments"])})
    for call in message["tool_calls"]:
        history.append({"role": "tool", "tool_call_id": call["id"], "content": NOT_EXECUTED})
    if history[0]["role"] == "system":
        sent = [{"role": "system", "content": history[0]["content"] + "\n\n"
                 + CLOSING_INSTRUCTION}, *history[1:]]
    else:
        sent = [{"role": "system", "content": CLOSING_INSTRUCTION}, *history]
    return "turn_cap", _closing_answer(model(sent))


def _closing_answer(reply):
    # A closing reply cut off, or still asking for a tool, is not an answer either.
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        return None
    return reply["message"]["content"]
