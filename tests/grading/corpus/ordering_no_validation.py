"""Bug: an unmatched id is not refused: a missing result is skipped, an orphan one kept."""

EXERCISE = "01_message_ordering"
FAILS = {"append_round_rejects_unmatched_ids"}
EXPECT = "must raise ValueError"


def append_round(history, turn, finished):
    results = dict(finished)
    order = [call["id"] for call in turn["tool_calls"]]
    order += [call_id for call_id in results if call_id not in order]
    return [*history, turn, *({"role": "tool", "tool_call_id": i, "content": results[i]}
                              for i in order if i in results)]
