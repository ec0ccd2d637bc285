"""Bug: the run ends right after the first tool result, which becomes the "answer"."""

EXERCISE = "02_early_exit"
FAILS = {"run_loop_feeds_results_back", "run_loop_truncated_is_not_an_answer",
         "run_loop_stops_at_the_cap", "run_loop_answers_pending_calls",
         "run_loop_closing_call_is_text_only", "run_loop_instruction_in_system_prompt"}
EXPECT = "ended right after the tool ran"


def run_loop(model, tools, messages, *, max_turns=10):
    history = list(messages)
    reply = model(history)
    history.append(reply["message"])
    if reply["stop_reason"] == "max_tokens":
        return "truncated", None
    if not reply["message"]["tool_calls"]:
        return "done", reply["message"]["content"]
    for call in reply["message"]["tool_calls"]:
        result = tools[call["name"]](**call["arguments"])
        history.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    return "done", result
