"""Bug: a reply cut at the output-token limit is retried once before giving up."""

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISE = "02_early_exit"
FAILS = {"run_loop_truncated_is_not_an_answer"}
EXPECT = 'make no further call'


def run_loop(model, tools, messages, *, max_turns=10):
    history = list(messages)
    for turn in range(1, max_turns + 1):
        reply = model(history, tool_choice="auto")
        message = reply["message"]
        history.append(message)
        if reply["stop_reason"] == "max_tokens":
            reply = model(history[:-1], tool_choice="auto")  # try again
            if reply["stop_reason"] == "max_tokens":
                return "truncated", None
            message = reply["message"]
            history[-1] = message
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
        return "turn_cap", None
    return "turn_cap", reply["message"]["content"]
