"""Bug: the ValueError does not say which id is unmatched."""

EXERCISE = "01_message_ordering"
FAILS = {"append_round_rejects_unmatched_ids"}
EXPECT = "names the id"


def append_round(history, turn, finished):
    results = dict(finished)
    asked = [call["id"] for call in turn["tool_calls"]]
    if set(asked) != set(results):
        raise ValueError("this round is incomplete")
    return history + [turn] + [{"role": "tool", "tool_call_id": i, "content": results[i]}
                               for i in asked]
