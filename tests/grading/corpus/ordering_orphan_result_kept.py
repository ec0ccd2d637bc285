"""Bug: a missing result is refused, but a result that answers no call slips through."""

EXERCISE = "01_message_ordering"
FAILS = {"append_round_rejects_unmatched_ids"}
EXPECT = 'must raise ValueError'


def append_round(history, turn, finished):
    results = dict(finished)
    for call in turn["tool_calls"]:
        if call["id"] not in results:
            raise ValueError(f"call {call['id']} has no result")
    return history + [turn] + [{"role": "tool", "tool_call_id": call["id"],
                                "content": results[call["id"]]} for call in turn["tool_calls"]]
