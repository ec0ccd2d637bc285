"""Bug: a second call to the same tool is taken for a duplicate and its result is skipped."""

EXERCISE = "01_message_ordering"
FAILS = {"append_round_one_result_per_call"}
EXPECT = "was skipped"


def append_round(history, turn, finished):
    results = dict(finished)
    asked = [call["id"] for call in turn["tool_calls"]]
    for call_id in asked + list(results):
        if call_id not in results or call_id not in asked:
            raise ValueError(f"unmatched id {call_id}")
    out, seen_tools = history + [turn], set()
    for call in turn["tool_calls"]:
        if call["name"] in seen_tools:
            continue  # "already answered"
        seen_tools.add(call["name"])
        out.append({"role": "tool", "tool_call_id": call["id"], "content": results[call["id"]]})
    return out
