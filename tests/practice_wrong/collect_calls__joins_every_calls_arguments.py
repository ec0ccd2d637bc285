# expect: yours has raw_arguments
from harness.messages import ToolCall, parse_arguments
from harness.stream import ArgumentsDelta, ToolCallStart


def collect_calls(deltas):
    starts, text = [], ""
    for delta in deltas:
        if isinstance(delta, ToolCallStart):
            starts.append(delta)
        elif isinstance(delta, ArgumentsDelta):
            text += delta.text  # one string for every call's pieces
    arguments, raw = parse_arguments(text)
    return [ToolCall(id=start.id, name=start.name, arguments=arguments, raw_arguments=raw,
                     extra=start.extra) for start in starts]
