# expect: yours raised IndexError
from harness.messages import ToolCall, parse_arguments
from harness.stream import ArgumentsDelta, ToolCallStart


def collect_calls(deltas):
    starts = [delta for delta in deltas if isinstance(delta, ToolCallStart)]
    texts = [""] * len(starts)
    pieces = [delta for delta in deltas if isinstance(delta, ArgumentsDelta)]
    for position, piece in enumerate(pieces):
        texts[position] += piece.text  # the piece's place in the stream, not its call's index
    calls = []
    for start, text in zip(starts, texts, strict=True):
        arguments, raw = parse_arguments(text)
        calls.append(ToolCall(id=start.id, name=start.name, arguments=arguments,
                              raw_arguments=raw, extra=start.extra))
    return calls
