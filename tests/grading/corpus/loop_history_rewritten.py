"""Bug: the instruction is added by editing the caller's system message in place."""

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISE = "02_early_exit"
FAILS = {"run_loop_instruction_in_system_prompt"}
EXPECT = "append-only"


def run_loop(model, tools, messages, *, max_turns=10):
    for turn in range(1, max_turns + 1):
        reply = model(messages)
        message = reply["message"]
        messages.append(message)
        if reply["stop_reason"] == "max_tokens":
            return "truncated", None
        if not message["tool_calls"]:
            return "done", message["content"]
        if turn == max_turns:
            break
        for call in message["tool_calls"]:
            messages.append({"role": "tool", "tool_call_id": call["id"],
                             "content": tools[call["name"]](**call["arguments"])})
    for call in message["tool_calls"]:
        messages.append({"role": "tool", "tool_call_id": call["id"], "content": NOT_EXECUTED})
    if messages[0]["role"] == "system":
        messages[0]["content"] += "\n\n" + CLOSING_INSTRUCTION
    else:
        messages.insert(0, {"role": "system", "content": CLOSING_INSTRUCTION})
    return "turn_cap", _closing_answer(model(messages, tool_choice="none"))


def _closing_answer(reply):
    # A closing reply cut off, or still asking for a tool, is not an answer either.
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        return None
    return reply["message"]["content"]
