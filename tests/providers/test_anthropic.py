"""Anthropic Messages adapter: exact request bodies, thinking round trip, cache usage, errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from anthropic.types import Message as WireMessage
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
from anthropic.types.shared import ErrorResponse
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from harness.errors import ProviderError
from harness.messages import (
    AssistantMessage,
    Reasoning,
    Reply,
    StopReason,
    ToolCall,
    ToolMessage,
    Usage,
    UserMessage,
)
from harness.providers import anthropic
from harness.providers.anthropic import Anthropic

from ._support import (
    FORECAST,
    FORECAST_TEXT,
    LISBON,
    QUESTION,
    SYSTEM,
    answering,
    assert_valid_params,
    calls,
    neutral_events,
    transcripts,
    two_cities,
    umbrella,
    usages,
)

PARAMS = TypeAdapter(MessageCreateParamsNonStreaming)
WIRE_TOOL = {"name": "get_forecast", "description": FORECAST.description,
             "input_schema": FORECAST.parameters}
THINKING = {"type": "thinking", "thinking": "The user wants the forecast for Lisbon.",
            "signature": "EqEECkYICxgCKkAo3UA4"}
REDACTED = {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}
USAGE = {"input_tokens": 398, "output_tokens": 155, "cache_creation_input_tokens": 0,
         "cache_read_input_tokens": 0,
         "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
         "service_tier": "standard"}


def message(content: list[dict[str, Any]], stop_reason: str | None = "end_turn",
            usage: dict[str, Any] | None = None) -> dict[str, Any]:
    body = {"id": "msg_01WvueFjZVbHcj4H4zUzeGv2", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-6-20250929", "content": content,
            "stop_reason": stop_reason, "stop_sequence": None, "usage": usage or USAGE}
    WireMessage.model_validate(body)  # the fixture is a real shape
    return body


ANSWER = message([{"type": "text", "text": "Yes: light rain is forecast in Lisbon tomorrow."}])
TOOL_USE = {"type": "tool_use", "id": "toolu_01YGzqpRE16Vricda3Aqcejo", "name": "get_forecast",
            "input": LISBON}


def send(messages, *, reply=ANSWER, **options):
    recorder = answering(200, reply)
    result = Anthropic(client=recorder.client, api_key="sk-ant-test").complete(messages, **options)
    assert_valid_params(PARAMS, recorder.body)
    return recorder, result


def test_umbrella_request_is_exact():
    recorder, reply = send(umbrella("toolu_1"), tools=[FORECAST], tool_choice="auto")
    request = recorder.requests[0]
    assert str(request.url) == "https://api.anthropic.com/v1/messages"
    assert (request.headers["x-api-key"], request.headers["anthropic-version"]) == (
        "sk-ant-test", "2023-06-01")
    assert recorder.body == {
        "model": "claude-sonnet-4-6", "max_tokens": 1024, "system": SYSTEM,
        "messages": [
            {"role": "user", "content": QUESTION},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "get_forecast", "input": LISBON}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": FORECAST_TEXT,
                 "is_error": False}]}],
        "tools": [WIRE_TOOL], "tool_choice": {"type": "auto"},
        "cache_control": {"type": "ephemeral"}}
    assert (reply.message.content, reply.stop_reason) == (
        "Yes: light rain is forecast in Lisbon tomorrow.", StopReason.END_TURN)


def test_prompt_cache_false_sends_no_cache_marker():
    recorder = answering(200, ANSWER)
    Anthropic(client=recorder.client, api_key="sk-ant-test", prompt_cache=False).complete(
        umbrella("toolu_1"), tools=[FORECAST])
    assert "cache_control" not in recorder.body
    assert "cache_control" not in json.dumps(recorder.body["messages"])


def test_closing_call_keeps_tools_with_choice_none():
    recorder, _ = send(umbrella(), tools=[FORECAST], tool_choice="none")
    assert (recorder.body["tool_choice"], recorder.body["tools"]) == ({"type": "none"},
                                                                      [WIRE_TOOL])


def test_required_is_any():
    recorder, _ = send(umbrella(), tools=[FORECAST], tool_choice="required")
    assert recorder.body["tool_choice"] == {"type": "any"}


def test_no_tools_means_no_tool_fields():
    recorder, _ = send([UserMessage(content="Hi")])
    assert not {"tools", "tool_choice", "system", "thinking"} & set(recorder.body)


def test_parallel_results_share_one_user_message():
    recorder, _ = send(two_cities("toolu_a", "toolu_b"), tools=[FORECAST])
    messages = recorder.body["messages"]
    assert len(messages) == 3
    assert [b["tool_use_id"] for b in messages[2]["content"]] == ["toolu_a", "toolu_b"]


def test_error_result_sets_is_error():
    recorder, _ = send(umbrella(is_error=True), tools=[FORECAST])
    assert recorder.body["messages"][-1]["content"][0]["is_error"] is True


def test_a_note_after_results_goes_after_them_in_the_same_message():
    history = [*two_cities()[:3], UserMessage(content="Reminder: be brief."),
               two_cities()[3]]
    body = anthropic.to_wire(history, tools=[FORECAST])
    assert [b["type"] for b in body["messages"][2]["content"]] == ["tool_result", "tool_result",
                                                                   "text"]
    assert body["messages"][2]["content"][2]["text"] == "Reminder: be brief."
    assert len(body["messages"]) == 3


def test_thinking_blocks_go_back_first_and_unchanged():
    reply = anthropic.from_wire(message(
        [THINKING, {"type": "text", "text": "Let me check."}, TOOL_USE], "tool_use"))
    assert reply.message.reasoning == [Reasoning(provider="anthropic", data=THINKING)]
    assert (reply.message.content, reply.stop_reason) == ("Let me check.", StopReason.TOOL_USE)
    history = [UserMessage(content=QUESTION), reply.message,
               ToolMessage(tool_call_id=TOOL_USE["id"], content=FORECAST_TEXT)]
    recorder = answering(200, ANSWER)
    Anthropic(client=recorder.client, api_key="k", max_output_tokens=4096,
              thinking_budget=3000).complete(history, tools=[FORECAST])
    assert_valid_params(PARAMS, recorder.body)
    assert recorder.body["thinking"] == {"type": "enabled", "budget_tokens": 3000}
    assert recorder.body["messages"][1]["content"] == [
        THINKING, {"type": "text", "text": "Let me check."}, TOOL_USE]


def test_redacted_thinking_goes_back_too():
    reply = anthropic.from_wire(message([REDACTED, TOOL_USE], "tool_use"))
    body = anthropic.to_wire([UserMessage(content=QUESTION), reply.message])
    assert body["messages"][1]["content"] == [REDACTED, TOOL_USE]


def test_other_providers_reasoning_is_dropped():
    foreign = Reasoning(provider="openai_responses", data={"type": "reasoning", "id": "rs_1"})
    body = anthropic.to_wire(umbrella(reasoning=[foreign]))
    assert [b["type"] for b in body["messages"][1]["content"]] == ["tool_use"]


def test_unparseable_arguments_from_elsewhere_go_as_an_object():
    call = ToolCall(id="call_1", name="get_forecast", raw_arguments="{oops")
    body = anthropic.to_wire([UserMessage(content="Hi"), AssistantMessage(tool_calls=[call])])
    assert body["messages"][1]["content"][0]["input"] == {}


def test_thinking_budget_must_leave_room_for_the_answer():
    with pytest.raises(ValueError, match="thinking_budget"):
        Anthropic(api_key="k", thinking_budget=1024)


@pytest.mark.parametrize(("wire", "stop"), [
    ("end_turn", StopReason.END_TURN), ("stop_sequence", StopReason.END_TURN),
    ("tool_use", StopReason.TOOL_USE), ("max_tokens", StopReason.MAX_TOKENS),
    ("model_context_window_exceeded", StopReason.MAX_TOKENS), ("refusal", StopReason.REFUSAL),
    ("pause_turn", StopReason.OTHER), (None, StopReason.OTHER)])
def test_stop_reasons(wire, stop):
    assert anthropic.from_wire(message([{"type": "text", "text": "x"}], wire)).stop_reason is stop


@pytest.mark.parametrize(("usage", "expected"), [
    (USAGE, Usage(input_tokens=398, output_tokens=155)),
    (USAGE | {"cache_read_input_tokens": 1500, "cache_creation_input_tokens": 200},
     Usage(input_tokens=2098, output_tokens=155, cached_input_tokens=1500,
           cache_write_tokens=200)),
    ({"input_tokens": 12, "output_tokens": 3}, Usage(input_tokens=12, output_tokens=3)),
    ({"input_tokens": 12, "output_tokens": 3, "cache_read_input_tokens": None,
      "cache_creation_input_tokens": None}, Usage(input_tokens=12, output_tokens=3)),
    ({"input_tokens": 12, "output_tokens": 300, "output_tokens_details": {"thinking_tokens": 250}},
     Usage(input_tokens=12, output_tokens=300, reasoning_tokens=250))])
def test_usage_adds_cache_reads_and_writes_to_input(usage, expected):
    reply = anthropic.from_wire(message([{"type": "text", "text": "ok"}], usage=usage))
    assert reply.usage == expected


@pytest.mark.parametrize(("status", "error_type", "text"), [
    (400, "invalid_request_error",
     "messages.5: `tool_use` ids were found without `tool_result` blocks immediately after: "
     "toolu_01SWBkC2GPGhoSfEqTZ6y91b. Each `tool_use` block must have a corresponding "
     "`tool_result` block in the next message."),
    (400, "invalid_request_error",
     "Requests which include `tool_use` or `tool_result` blocks must define tools."),
    (529, "overloaded_error", "Overloaded")])
def test_error_body_becomes_provider_error(status, error_type, text):
    body = {"type": "error", "error": {"type": error_type, "message": text},
            "request_id": "req_011CUsd4b3xVn8JqM7ZWkRTz"}
    ErrorResponse.model_validate(body)
    recorder = answering(status, body)
    with pytest.raises(ProviderError) as caught:
        Anthropic(client=recorder.client, api_key="k").complete(umbrella())
    assert (caught.value.status, caught.value.error_type, caught.value.message,
            caught.value.provider, caught.value.body) == (status, error_type, text, "anthropic",
                                                          body)


def test_non_json_error_is_still_clear():
    recorder = answering(500, text="upstream connect error")
    with pytest.raises(ProviderError) as caught:
        Anthropic(client=recorder.client, api_key="k").complete(umbrella())
    assert (caught.value.status, caught.value.error_type) == (500, "http_500")
    assert "upstream connect error" in caught.value.message


def test_no_key_sends_no_key_header(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    recorder = answering(200, ANSWER)
    Anthropic(client=recorder.client).complete(umbrella())
    assert "x-api-key" not in recorder.requests[0].headers


def test_to_wire_gives_system_apart_from_the_messages():
    body = anthropic.to_wire(umbrella())
    assert body["system"] == SYSTEM
    assert [message["role"] for message in body["messages"]] == ["user", "assistant", "user"]


def wire_events(body: dict[str, Any]) -> list[tuple]:
    events: list[tuple] = []
    for wire in body["messages"]:
        blocks = wire["content"] if isinstance(wire["content"], list) else []
        kinds = [block["type"] for block in blocks]
        # Results lead their message; nothing else comes before them.
        assert kinds == sorted(kinds, key=lambda kind: kind != "tool_result")
        for block in blocks:
            if block["type"] == "tool_use":
                events.append(("call", block["id"], block["name"], block["input"]))
            elif block["type"] == "tool_result":
                events.append(("result", block["tool_use_id"], block["content"],
                               block["is_error"]))
    return events


@settings(deadline=None)
@given(transcripts())
def test_any_transcript_keeps_calls_and_results_in_order(messages):
    body = anthropic.to_wire(messages, tools=[FORECAST])
    assert_valid_params(PARAMS, body)
    assert wire_events(body) == neutral_events(messages)
    roles = [m["role"] for m in body["messages"]]
    assert all(a != b or a == "user" for a, b in zip(roles, roles[1:], strict=False))


@st.composite
def replies(draw: st.DrawFn) -> tuple[Reply, dict[str, Any]]:
    tool_calls = calls(draw, "toolu_")
    thinking = draw(st.lists(st.sampled_from([THINKING, REDACTED]), max_size=2))
    content = draw(st.none() | st.text(min_size=1))
    wire_stop, stop = draw(st.sampled_from([
        ("end_turn", StopReason.END_TURN), ("tool_use", StopReason.TOOL_USE),
        ("max_tokens", StopReason.MAX_TOKENS), ("refusal", StopReason.REFUSAL),
        ("pause_turn", StopReason.OTHER)]))
    numbers = usages(draw)
    written = draw(st.integers(0, numbers["input_tokens"] - numbers["cached_input_tokens"]))
    usage = {"input_tokens": numbers["input_tokens"] - numbers["cached_input_tokens"] - written,
             "cache_read_input_tokens": numbers["cached_input_tokens"],
             "cache_creation_input_tokens": written, "output_tokens": numbers["output_tokens"],
             "output_tokens_details": {"thinking_tokens": numbers["reasoning_tokens"]}}
    blocks = list(thinking) + ([{"type": "text", "text": content}] if content else [])
    blocks += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}
               for c in tool_calls]
    reply = Reply(message=AssistantMessage(
        content=content, tool_calls=tool_calls,
        reasoning=[Reasoning(provider="anthropic", data=block) for block in thinking]),
        stop_reason=stop, usage=Usage(**numbers, cache_write_tokens=written),
        model="claude-sonnet-4-6-20250929")
    return reply, message(blocks, wire_stop, usage)


@settings(deadline=None)
@given(replies())
def test_any_rendered_reply_maps_back(case):
    reply, body = case
    assert anthropic.from_wire(body) == reply
