"""OpenAI Chat Completions adapter: exact request bodies, reply mapping, errors, round trips."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openai.types.chat import ChatCompletion
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from openai.types.shared import ErrorObject
from pydantic import TypeAdapter

from harness.errors import ProviderError
from harness.messages import (
    AssistantMessage,
    Reasoning,
    Reply,
    StopReason,
    Usage,
    UserMessage,
)
from harness.providers import openai_chat
from harness.providers.openai_chat import OpenAIChat

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

PARAMS = TypeAdapter(CompletionCreateParamsNonStreaming)
WIRE_TOOL = {"type": "function", "function": {"name": "get_forecast",
                                              "description": FORECAST.description,
                                              "parameters": FORECAST.parameters}}
USAGE = {"prompt_tokens": 132, "completion_tokens": 23, "total_tokens": 155,
         "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
         "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                                       "accepted_prediction_tokens": 0,
                                       "rejected_prediction_tokens": 0}}


def completion(message: dict[str, Any], finish_reason: str = "stop",
               usage: dict[str, Any] | None = None) -> dict[str, Any]:
    body = {"id": "chatcmpl-D3Sqix10hJ5DCDejQOQklpm4k7cj8", "object": "chat.completion",
            "created": 1769718252, "model": "gpt-5-mini-2025-08-07", "service_tier": "default",
            "system_fingerprint": None,
            "choices": [{"index": 0, "finish_reason": finish_reason,
                         "message": {"role": "assistant", "content": None, "refusal": None,
                                     "annotations": []} | message}],
            "usage": usage or USAGE}
    ChatCompletion.model_validate(body)  # the fixture is a real shape
    return body


ANSWER = completion({"content": "Yes: light rain is forecast in Lisbon tomorrow."})
CALL = completion({"tool_calls": [{"id": "call_aDdJTteHrpMdhdkEkyxjxEHH", "type": "function",
                                   "function": {"name": "get_forecast",
                                                "arguments": json.dumps(LISBON)}}]},
                  "tool_calls")


def send(messages, *, reply=ANSWER, **options):
    recorder = answering(200, reply)
    model = OpenAIChat(client=recorder.client, api_key="sk-test")
    result = model.complete(messages, **options)
    assert_valid_params(PARAMS, recorder.body)
    return recorder, result


def test_umbrella_request_is_exact():
    recorder, reply = send(umbrella(), tools=[FORECAST], tool_choice="auto")
    request = recorder.requests[0]
    assert (request.method, str(request.url)) == ("POST",
                                                  "https://api.openai.com/v1/chat/completions")
    assert request.headers["authorization"] == "Bearer sk-test"
    assert recorder.body == {
        "model": "gpt-5-mini", "store": False, "max_completion_tokens": 1024,
        "messages": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": QUESTION},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function",
                 "function": {"name": "get_forecast",
                              "arguments": '{"city":"Lisbon","day":"tomorrow"}'}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": FORECAST_TEXT}],
        "tools": [WIRE_TOOL], "tool_choice": "auto", "parallel_tool_calls": True}
    assert reply.message.content == "Yes: light rain is forecast in Lisbon tomorrow."
    assert reply.stop_reason is StopReason.END_TURN


def test_closing_call_keeps_tools_with_choice_none():
    recorder, _ = send(umbrella(), tools=[FORECAST], tool_choice="none")
    assert recorder.body["tool_choice"] == "none"
    assert recorder.body["tools"] == [WIRE_TOOL]


def test_required_is_sent_as_required():
    recorder, _ = send(umbrella(), tools=[FORECAST], tool_choice="required")
    assert recorder.body["tool_choice"] == "required"


def test_no_tools_means_no_tool_fields():
    recorder, _ = send([UserMessage(content="Hi")], tool_choice="none")
    assert not {"tools", "tool_choice", "parallel_tool_calls"} & set(recorder.body)


def test_two_parallel_calls_get_one_tool_message_each():
    recorder, _ = send(two_cities(), tools=[FORECAST])
    messages = recorder.body["messages"]
    assert [c["id"] for c in messages[1]["tool_calls"]] == ["call_1", "call_2"]
    assert [(m["role"], m["tool_call_id"]) for m in messages[2:]] == [("tool", "call_1"),
                                                                     ("tool", "call_2")]


def test_error_results_go_as_plain_tool_messages():
    recorder, _ = send(umbrella(is_error=True), tools=[FORECAST])
    # Chat has no error flag; the kit's error results say so in their text.
    assert recorder.body["messages"][-1] == {"role": "tool", "tool_call_id": "call_1",
                                             "content": FORECAST_TEXT}


def test_other_providers_reasoning_is_dropped_and_text_kept():
    thinking = Reasoning(provider="anthropic", data={"type": "thinking", "thinking": "t",
                                                     "signature": "s"})
    recorder, _ = send(umbrella(reasoning=[thinking], content="Checking."), tools=[FORECAST])
    assert recorder.body["messages"][2]["content"] == "Checking."
    assert "reasoning" not in json.dumps(recorder.body)


def test_tool_calls_reply_and_round_trip():
    _, reply = send(umbrella(), reply=CALL, tools=[FORECAST])
    call = reply.message.tool_calls[0]
    assert (call.id, call.name, call.arguments) == ("call_aDdJTteHrpMdhdkEkyxjxEHH",
                                                    "get_forecast", LISBON)
    assert reply.stop_reason is StopReason.TOOL_USE
    assert reply.model == "gpt-5-mini-2025-08-07"
    assert reply.usage == Usage(input_tokens=132, output_tokens=23)


def test_invalid_json_arguments_are_kept_and_sent_back_unchanged():
    broken = '{"city": "Lisbon", "day": '
    body = completion({"tool_calls": [{"id": "call_9", "type": "function",
                                       "function": {"name": "get_forecast",
                                                    "arguments": broken}}]}, "tool_calls")
    reply = openai_chat.from_wire(body)
    assert (reply.message.tool_calls[0].arguments, reply.message.tool_calls[0].raw_arguments) == (
        {}, broken)
    wire = openai_chat.to_wire([UserMessage(content="Hi"), reply.message])
    assert wire["messages"][1]["tool_calls"][0]["function"]["arguments"] == broken


@pytest.mark.parametrize(("finish_reason", "stop"), [
    ("stop", StopReason.END_TURN), ("length", StopReason.MAX_TOKENS),
    ("content_filter", StopReason.REFUSAL), ("function_call", StopReason.OTHER)])
def test_stop_reasons(finish_reason, stop):
    body = completion({"content": "Partial"}, finish_reason)
    assert openai_chat.from_wire(body).stop_reason is stop


def test_refusal_text_becomes_content_with_refusal_stop():
    body = completion({"refusal": "I can't help with that."})
    reply = openai_chat.from_wire(body)
    assert (reply.message.content, reply.stop_reason) == ("I can't help with that.",
                                                          StopReason.REFUSAL)


def test_usage_counts_cached_and_reasoning_tokens():
    usage = USAGE | {"prompt_tokens": 2048, "completion_tokens": 500,
                     "prompt_tokens_details": {"cached_tokens": 1920, "audio_tokens": 0},
                     "completion_tokens_details": {"reasoning_tokens": 384}}
    reply = openai_chat.from_wire(completion({"content": "ok"}, usage=usage))
    assert reply.usage == Usage(input_tokens=2048, output_tokens=500, cached_input_tokens=1920,
                                reasoning_tokens=384)


def test_error_body_becomes_provider_error():
    error = {"message": "Invalid parameter: messages with role 'tool' must be a response to a "
                        "preceeding message with 'tool_calls'.",
             "type": "invalid_request_error", "param": "messages.[3].role", "code": None}
    ErrorObject.model_validate(error)
    recorder = answering(400, {"error": error})
    with pytest.raises(ProviderError) as caught:
        OpenAIChat(client=recorder.client, api_key="sk-test").complete(umbrella()[3:])
    assert (caught.value.status, caught.value.error_type, caught.value.message) == (
        400, "invalid_request_error", error["message"])
    assert (caught.value.provider, caught.value.body) == ("openai_chat", {"error": error})


def test_non_json_error_is_still_clear():
    recorder = answering(502, text="<html><body>Bad gateway</body></html>")
    with pytest.raises(ProviderError) as caught:
        OpenAIChat(client=recorder.client, api_key="sk-test").complete(umbrella())
    assert caught.value.status == 502
    assert "Bad Gateway" in caught.value.message and "<html>" in caught.value.message


def test_no_key_sends_no_auth_header_and_401_is_an_error(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    error = {"message": "You didn't provide an API key.", "type": "invalid_request_error",
             "param": None, "code": None}
    recorder = answering(401, {"error": error})
    with pytest.raises(ProviderError) as caught:
        OpenAIChat(client=recorder.client).complete(umbrella())
    assert "authorization" not in recorder.requests[0].headers
    assert caught.value.status == 401


def test_key_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    recorder = answering(200, ANSWER)
    OpenAIChat(client=recorder.client, base_url="http://emulator/v1/").complete(umbrella())
    assert recorder.requests[0].headers["authorization"] == "Bearer sk-env"
    assert str(recorder.requests[0].url) == "http://emulator/v1/chat/completions"


def wire_events(body: dict[str, Any]) -> list[tuple]:
    events: list[tuple] = []
    for message in body["messages"]:
        for call in message.get("tool_calls", []):
            function = call["function"]
            events.append(("call", call["id"], function["name"],
                           json.loads(function["arguments"])))
        if message["role"] == "tool":
            events.append(("result", message["tool_call_id"], message["content"]))
    return events


@settings(deadline=None)
@given(transcripts())
def test_any_transcript_keeps_calls_and_results_in_order(messages):
    body = openai_chat.to_wire(messages, tools=[FORECAST])
    assert_valid_params(PARAMS, body)
    assert wire_events(body) == [event[:4] if event[0] == "call" else event[:3]
                                 for event in neutral_events(messages)]


@st.composite
def replies(draw: st.DrawFn) -> tuple[Reply, dict[str, Any]]:
    tool_calls = calls(draw, "call_")
    content = draw(st.none() | st.text(min_size=1))
    stops = ([StopReason.TOOL_USE] if tool_calls else [StopReason.END_TURN]) + [
        StopReason.MAX_TOKENS]
    stop = draw(st.sampled_from(stops))
    usage = Usage(**usages(draw))
    reply = Reply(message=AssistantMessage(content=content, tool_calls=tool_calls),
                  stop_reason=stop, usage=usage, model="gpt-5-mini-2025-08-07")
    return reply, render(reply)


def render(reply: Reply) -> dict[str, Any]:
    finish = {StopReason.END_TURN: "stop", StopReason.TOOL_USE: "tool_calls",
              StopReason.MAX_TOKENS: "length"}[reply.stop_reason]
    message: dict[str, Any] = {"content": reply.message.content}
    if reply.message.tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function",
             "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
            for c in reply.message.tool_calls]
    u = reply.usage
    usage = {"prompt_tokens": u.input_tokens, "completion_tokens": u.output_tokens,
             "total_tokens": u.total_tokens,
             "prompt_tokens_details": {"cached_tokens": u.cached_input_tokens},
             "completion_tokens_details": {"reasoning_tokens": u.reasoning_tokens}}
    return completion(message, finish, usage)


@settings(deadline=None)
@given(replies())
def test_any_rendered_reply_maps_back(case):
    reply, body = case
    assert openai_chat.from_wire(body) == reply


def test_a_forced_call_that_ends_with_stop_is_tool_use():
    body = completion({"tool_calls": CALL["choices"][0]["message"]["tool_calls"]}, "stop")
    assert openai_chat.from_wire(body).stop_reason is StopReason.TOOL_USE


def test_unknown_tool_choice_is_refused():
    with pytest.raises(ValueError, match="tool_choice"):
        openai_chat.to_wire(umbrella(), tools=[FORECAST], tool_choice="any")


def test_assistant_without_text_or_calls_sends_empty_text():
    wire = openai_chat.to_wire([UserMessage(content="Hi"), AssistantMessage()])
    assert wire["messages"][1] == {"role": "assistant", "content": ""}

