"""Bug: the turn and its results are appended to the caller's history list itself."""

EXERCISE = "01_message_ordering"
FAILS = {"append_round_adds_turn_then_results"}
EXPECT = 'Return a NEW list'


def append_round(history, turn, finished):
    results = dict(finished)
    asked = [call["id"] for call in turn["tool_calls"]]
    for call_id in asked + list(results):
        if call_id not in results or call_id not in asked:
            raise ValueError(f"unmatched tool call id {call_id}")
    history.append(turn)
    history.extend({"role": "tool", "tool_call_id": i, "content": results[i]} for i in asked)
    return history
