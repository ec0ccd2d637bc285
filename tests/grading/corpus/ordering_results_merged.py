"""Bug: all the results of a round are merged into one tool message."""

EXERCISE = "01_message_ordering"
FAILS = {"append_round_one_result_per_call"}
EXPECT = "merged into one tool message"


def append_round(history, turn, finished):
    results = dict(finished)
    asked = [call["id"] for call in turn["tool_calls"]]
    missing = [i for i in asked if i not in results] + [i for i in results if i not in asked]
    if missing:
        raise ValueError(f"unmatched id {missing[0]}")
    merged = "\n".join(results[i] for i in asked)
    return history + [turn, {"role": "tool", "tool_call_id": asked[0], "content": merged}]
