"""Bug: at the cap the loop stops dead: no closing call, so the user gets no answer."""

EXERCISE = "02_early_exit"
FAILS = {"run_loop_answers_pending_calls", "run_loop_closing_call_is_text_only",
         "run_loop_instruction_in_system_prompt"}
EXPECT = "made no closing call"


def run_loop(model, tools, messages, *, max_turns=10):
    history = list(messages)
    for turn in range(max_turns):
        reply = model(history)
        message = reply["message"]
        history.append(message)
        if reply["stop_reason"] == "max_tokens":
            return "truncated", None
        if not message["tool_calls"]:
            return "done", message["content"]
        if turn == max_turns - 1:
            return "turn_cap", None
        for call in message["tool_calls"]:
            history.append({"role": "tool", "tool_call_id": call["id"],
                            "content": tools[call["name"]](**call["arguments"])})
    return "turn_cap", None
