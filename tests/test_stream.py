"""The neutral stream deltas: collecting tool calls from their pieces and assembling a reply."""

from __future__ import annotations

import pytest

from harness.messages import Reasoning, StopReason, ToolCall, Usage
from harness.stream import ArgumentsDelta, Finish, TextDelta, ToolCallStart, assemble, collect_calls

END = Finish(stop_reason=StopReason.TOOL_USE, usage=Usage(input_tokens=9, output_tokens=4))


def test_each_calls_pieces_join_by_its_index_even_when_calls_take_turns() -> None:
    deltas = [ToolCallStart(index=0, id="call_a", name="get_forecast"),
              ToolCallStart(index=1, id="call_b", name="get_forecast"),
              ArgumentsDelta(index=1, text='{"city"'), ArgumentsDelta(index=0, text='{"city"'),
              ArgumentsDelta(index=0, text=': "Lisbon"}'), TextDelta(text="ignored here"),
              ArgumentsDelta(index=1, text=': "Porto"}'), END]
    assert collect_calls(deltas) == [
        ToolCall(id="call_a", name="get_forecast", arguments={"city": "Lisbon"}),
        ToolCall(id="call_b", name="get_forecast", arguments={"city": "Porto"})]


def test_calls_come_out_in_index_order_with_their_extra() -> None:
    deltas = [ToolCallStart(index=1, id="b", name="second", extra={"item_id": "fc_2"}),
              ToolCallStart(index=0, id="a", name="first"), END]
    assert [(c.id, c.arguments, c.extra) for c in collect_calls(deltas)] == [
        ("a", {}, {}), ("b", {}, {"item_id": "fc_2"})]


def test_arguments_that_are_not_a_json_object_are_kept_as_written() -> None:
    deltas = [ToolCallStart(index=0, id="a", name="get_forecast"),
              ArgumentsDelta(index=0, text='{"city": "Lis'), END]  # cut short
    [call] = collect_calls(deltas)
    assert (call.arguments, call.raw_arguments) == ({}, '{"city": "Lis')


def test_assemble_joins_the_text_and_takes_the_rest_from_the_finish() -> None:
    thinking = Reasoning(provider="anthropic", data={"type": "thinking", "thinking": "Hm."})
    finish = Finish(stop_reason=StopReason.END_TURN, usage=Usage(output_tokens=3), model="m",
                    reasoning=[thinking], extra={"item_id": "msg_1"})
    reply = assemble([TextDelta(text="Rain "), TextDelta(text="later."), finish])
    assert reply.message.content == "Rain later."
    assert (reply.stop_reason, reply.usage, reply.model) == (StopReason.END_TURN,
                                                             Usage(output_tokens=3), "m")
    assert (reply.message.reasoning, reply.message.extra) == ([thinking], {"item_id": "msg_1"})


def test_a_reply_with_no_text_has_none_as_complete_gives_it() -> None:
    deltas = [ToolCallStart(index=0, id="a", name="f"), ArgumentsDelta(index=0, text="{}"), END]
    reply = assemble(iter(deltas))
    assert reply.message.content is None and [c.id for c in reply.message.tool_calls] == ["a"]


@pytest.mark.parametrize("deltas", [[], [TextDelta(text="Rain")], [END, TextDelta(text="x")]])
def test_a_stream_that_did_not_finish_is_not_a_reply(deltas) -> None:
    with pytest.raises(ValueError, match="ended before its Finish"):
        assemble(deltas)
