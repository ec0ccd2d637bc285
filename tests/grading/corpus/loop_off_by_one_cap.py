"""Bug: off by one: the loop allows max_turns + 1 calls with tools before closing."""

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISE = "02_early_exit"
FAILS = {"run_loop_stops_at_the_cap", "run_loop_answers_pending_calls",
         "run_loop_closing_call_is_text_only", "run_loop_instruction_in_system_prompt"}
EXPECT = "Off by one"


def run_loop(model, tools, messages, *, max_turns=10):
    history = list(messages)
    turn = 0
    while True:
        reply = model(history)
        message = reply["message"]
        history.append(message)
        if reply["stop_reason"] == "max_tokens":
            return "truncated", None
        if not message["tool_calls"]:
            return "done", message["content"]
        if turn == max_turns:  # counted from 0: one call too many
            break
        turn += 1
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
    return "turn_cap", _closing_answer(model(sent, tool_choice="none"))


def _closing_answer(reply):
    # A closing reply cut off, or still asking for a tool, is not an answer either.
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        return None
    return reply["message"]["content"]
