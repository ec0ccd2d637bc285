"""Bug: the results are appended before the assistant turn that asked for them."""

EXERCISE = "01_message_ordering"
FAILS = {"append_round_adds_turn_then_results"}
EXPECT = "comes before the assistant turn"


def append_round(history, turn, finished):
    results = dict(finished)
    asked = [call["id"] for call in turn["tool_calls"]]
    for call_id in asked:
        if call_id not in results:
            raise ValueError(f"call {call_id} has no result")
    for call_id in results:
        if call_id not in asked:
            raise ValueError(f"result {call_id} answers no call")
    tool_messages = [{"role": "tool", "tool_call_id": i, "content": results[i]} for i in asked]
    return history + tool_messages + [turn]
