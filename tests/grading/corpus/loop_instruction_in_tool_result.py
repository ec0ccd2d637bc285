"""Bug: the step-limit instruction is written into the "Not executed" tool results."""

from harness.loop import CLOSING_INSTRUCTION

EXERCISE = "02_early_exit"
FAILS = {"run_loop_instruction_in_system_prompt"}
EXPECT = "inside a tool result"


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
        history.append({"role": "tool", "tool_call_id": call["id"],
                        "content": "Not executed: the step limit was reached. "
                        + CLOSING_INSTRUCTION})
    return "turn_cap", _closing_answer(model(history, tool_choice="none"))


def _closing_answer(reply):
    # A closing reply cut off, or still asking for a tool, is not an answer either.
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        return None
    return reply["message"]["content"]
