"""Bug: an orphan result is refused, but a call without a result is skipped silently."""

EXERCISE = "01_message_ordering"
FAILS = {"append_round_rejects_unmatched_ids"}
EXPECT = 'was skipped silently'


def append_round(history, turn, finished):
    results = dict(finished)
    asked = [call["id"] for call in turn["tool_calls"]]
    for call_id in results:
        if call_id not in asked:
            raise ValueError(f"result {call_id} answers no call")
    return history + [turn] + [{"role": "tool", "tool_call_id": i, "content": results[i]}
                               for i in asked if i in results]
