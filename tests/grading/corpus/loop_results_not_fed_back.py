"""Bug: the tools run, but their results never reach the transcript."""

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISE = "02_early_exit"
FAILS = {"run_loop_feeds_results_back", "run_loop_truncated_is_not_an_answer",
         "run_loop_stops_at_the_cap", "run_loop_closing_call_is_text_only"}
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
    return "turn_cap", model(sent, tool_choice="none")["message"]["content"]
