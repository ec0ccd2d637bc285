"""Bug: the ids follow the model's order but the texts follow the finishing order."""

EXERCISE = "01_message_ordering"
FAILS = {"append_round_keeps_model_order"}
EXPECT = "another call's result"


def append_round(history, turn, finished):
    asked = [call["id"] for call in turn["tool_calls"]]
    given = [call_id for call_id, _ in finished]
    for call_id in asked + given:
        if call_id not in asked or call_id not in given:
            raise ValueError(f"unmatched tool call id {call_id}")
    texts = [text for _, text in finished]
    return history + [turn] + [{"role": "tool", "tool_call_id": call_id, "content": text}
                               for call_id, text in zip(asked, texts, strict=True)]
