# expect: yours has raw_arguments
from harness.messages import ToolCall, parse_arguments
from harness.stream import ArgumentsDelta, ToolCallStart


def collect_calls(deltas):
    starts, pieces, held = {}, {}, None
    for delta in deltas:
        if isinstance(delta, ToolCallStart):
            starts[delta.index], pieces[delta.index] = delta, []
        elif isinstance(delta, ArgumentsDelta):
            if held is not None:  # a piece is kept only once the next one arrives
                pieces[held.index].append(held.text)
            held = delta
    calls = []
    for index, start in starts.items():
        arguments, raw = parse_arguments("".join(pieces[index]))
        calls.append(ToolCall(id=start.id, name=start.name, arguments=arguments,
                              raw_arguments=raw, extra=start.extra))
    return calls
