"""Bug: the results go back in the order the tools finished, not the order the model asked."""

EXERCISE = "01_message_ordering"
FAILS = {"append_round_keeps_model_order"}
EXPECT = "in the order they finished"


def append_round(history, turn, finished):
    asked = {call["id"] for call in turn["tool_calls"]}
    given = {call_id for call_id, _ in finished}
    for call_id in sorted(asked ^ given):
        raise ValueError(f"unmatched id {call_id}")
    messages = list(history)
    messages.append(turn)
    for call_id, text in finished:
        messages.append({"role": "tool", "tool_call_id": call_id, "content": text})
    return messages
