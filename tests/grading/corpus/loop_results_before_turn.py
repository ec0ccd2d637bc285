"""Bug: the tool results are appended before the assistant turn that asked for them."""

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISE = "02_early_exit"
FAILS = {"run_loop_feeds_results_back"}
EXPECT = "comes before the assistant turn"


def run_loop(model, tools, messages, *, max_turns=10):
    history = list(messages)
    for turn in range(max_turns):
        reply = model(history)
        message = reply["message"]
        if reply["stop_reason"] == "max_tokens":
            return "truncated", None
        if not message["tool_calls"]:
            return "done", message["content"]
        if turn == max_turns - 1:
            break
        for call in message["tool_calls"]:
            history.append({"role": "tool", "tool_call_id": call["id"],
                            "content": tools[call["name"]](**call["arguments"])})
        history.append(message)
    history.append(message)
    for call in message["tool_calls"]:
        history.append({"role": "tool", "tool_call_id": call["id"], "content": NOT_EXECUTED})
    if history[0]["role"] == "system":
        sent = [{"role": "system", "content": history[0]["content"] + "\n\n"
                 + CLOSING_INSTRUCTION}, *history[1:]]
    else:
        sent = [{"role": "system", "content": CLOSING_INSTRUCTION}, *history]
    return "turn_cap", _closing_answer(model(sent, tool_choice="none"))


def _closing_answer(reply):
    # A closing reply cut off, or still asking for a tool, is not an answer either.
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        return None
    return reply["message"]["content"]
