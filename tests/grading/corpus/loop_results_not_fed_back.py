"""Bug: the tools run, but their results never reach the transcript."""

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISE = "02_early_exit"
FAILS = {"run_loop_feeds_results_back"}
EXPECT = "does not carry the result"


def run_loop(model, tools, messages, *, max_turns=10):
    history = list(messages)
    for turn in range(max_turns):
        reply = model(history)
        history.append(reply["message"])
        if reply["stop_reason"] == "max_tokens":
            return "truncated", None
        calls = reply["message"]["tool_calls"]
        if not calls:
            return "done", reply["message"]["content"]
        if turn == max_turns - 1:
            break
        for call in calls:
            tools[call["name"]](**call["arguments"])  # the result is dropped
    for call in calls:
        history.append({"role": "tool", "tool_call_id": call["id"], "content": NOT_EXECUTED})
    first = history[0]
    if first["role"] == "system":
        sent = [{"role": "system", "content": first["content"] + "\n\n" + CLOSING_INSTRUCTION},
                *history[1:]]
    else:
        sent = [{"role": "system", "content": CLOSING_INSTRUCTION}, *history]
    return "turn_cap", _closing_answer(model(sent, tool_choice="none"))


def _closing_answer(reply):
    # A closing reply cut off, or still asking for a tool, is not an answer either.
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        return None
    return reply["message"]["content"]
