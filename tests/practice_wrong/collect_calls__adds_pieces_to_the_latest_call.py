# expect: call 1 (get_forecast): yours has arguments none
from harness.messages import ToolCall, parse_arguments
from harness.stream import ArgumentsDelta, ToolCallStart


def collect_calls(deltas):
    calls = []  # [start, text] of each call, in the order they began
    for delta in deltas:
        if isinstance(delta, ToolCallStart):
            calls.append([delta, ""])
        elif isinstance(delta, ArgumentsDelta):
            calls[-1][1] += delta.text  # right when each call's pieces follow its start
    result = []
    for start, text in calls:
        arguments, raw = parse_arguments(text)
        result.append(ToolCall(id=start.id, name=start.name, arguments=arguments,
                               raw_arguments=raw, extra=start.extra))
    return result
