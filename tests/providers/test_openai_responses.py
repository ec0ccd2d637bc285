"""OpenAI Responses adapter (stateless): request bodies, reasoning items, errors, round trips."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openai.types.responses import Response
from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming
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
from harness.providers import openai_responses
from harness.providers.openai_responses import OpenAIResponses

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

PARAMS = TypeAdapter(ResponseCreateParamsNonStreaming)
WIRE_TOOL = {"type": "function", "name": "get_forecast", "description": FORECAST.description,
             "parameters": FORECAST.parameters, "strict": False}
REASONING = {"type": "reasoning", "id": "rs_00bc7d2e", "summary": [],
             "encrypted_content": "gAAAAABpe8H1kQ3xZ"}
FUNCTION_CALL = {"type": "function_call", "id": "fc_00bc7d2e", "call_id": "call_E4xGYcmG4C",
                 "name": "get_forecast", "arguments": json.dumps(LISBON), "status": "completed"}
USAGE = {"input_tokens": 50, "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
         "output_tokens": 81, "output_tokens_details": {"reasoning_tokens": 64},
         "total_tokens": 131}


def response(output: list[dict[str, Any]], *, status: str = "completed",
             reason: str | None = None, usage: dict[str, Any] | None = None) -> dict[str, Any]:
    body = {"id": "resp_00bc7d2e", "object": "response", "created_at": 1769718259,
            "status": status, "model": "gpt-5-mini-2025-08-07", "error": None,
            "incomplete_details": {"reason": reason} if reason else None,
            "previous_response_id": None, "store": False, "parallel_tool_calls": True,
            "tool_choice": "auto", "tools": [WIRE_TOOL], "output": output,
            "usage": usage or USAGE}
    Response.model_validate(body)  # the fixture is a real shape
    return body


def message(text: str, item_id: str = "msg_00bc7d2e") -> dict[str, Any]:
    return {"type": "message", "id": item_id, "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": [],
                         "logprobs": []}]}


ANSWER = response([message("Yes: light rain is forecast in Lisbon tomorrow.")])


def send(messages, *, reply=ANSWER, **options):
    recorder = answering(200, reply)
    model = OpenAIResponses(client=recorder.client, api_key="sk-test")
    result = model.complete(messages, **options)
    assert_valid_params(PARAMS, recorder.body)
    return recorder, result


def test_umbrella_request_is_exact():
    recorder, reply = send(umbrella(), tools=[FORECAST], tool_choice="auto")
    request = recorder.requests[0]
    assert str(request.url) == "https://api.openai.com/v1/responses"
    assert request.headers["authorization"] == "Bearer sk-test"
    assert recorder.body == {
        "model": "gpt-5-mini", "store": False, "include": ["reasoning.encrypted_content"],
        "max_output_tokens": 1024, "instructions": SYSTEM,
        "input": [
            {"role": "user", "content": QUESTION},
            {"type": "function_call", "call_id": "call_1", "name": "get_forecast",
             "arguments": '{"city":"Lisbon","day":"tomorrow"}'},
            {"type": "function_call_output", "call_id": "call_1", "output": FORECAST_TEXT}],
        "tools": [WIRE_TOOL], "tool_choice": "auto", "parallel_tool_calls": True}
    assert (reply.message.content, reply.stop_reason) == (
        "Yes: light rain is forecast in Lisbon tomorrow.", StopReason.END_TURN)


def test_closing_call_instruction_lands_in_instructions_with_tools_kept():
    from harness.loop import CLOSING_INSTRUCTION, _with_instruction

    recorder, _ = send(_with_instruction(umbrella(), CLOSING_INSTRUCTION), tools=[FORECAST],
                       tool_choice="none")
    assert recorder.body["instructions"] == f"{SYSTEM}\n\n{CLOSING_INSTRUCTION}"
    assert (recorder.body["tool_choice"], recorder.body["tools"]) == ("none", [WIRE_TOOL])


def test_no_tools_means_no_tool_fields():
    recorder, _ = send([UserMessage(content="Hi")])
    assert not {"tools", "tool_choice", "parallel_tool_calls", "instructions"} & set(
        recorder.body)


def test_two_parallel_calls_get_one_output_each():
    recorder, _ = send(two_cities(), tools=[FORECAST])
    kinds = [(item.get("type"), item.get("call_id")) for item in recorder.body["input"]]
    assert kinds == [(None, None), ("function_call", "call_1"), ("function_call", "call_2"),
                     ("function_call_output", "call_1"), ("function_call_output", "call_2")]


def test_error_results_go_as_plain_outputs():
    recorder, _ = send(umbrella(is_error=True), tools=[FORECAST])
    assert recorder.body["input"][-1] == {"type": "function_call_output", "call_id": "call_1",
                                          "output": FORECAST_TEXT}


def test_reasoning_item_and_call_id_survive_into_the_next_request():
    reply = openai_responses.from_wire(response([REASONING, FUNCTION_CALL]))
    assert reply.message.reasoning == [Reasoning(provider="openai_responses", data=REASONING)]
    assert reply.message.tool_calls[0].extra == {"item_id": "fc_00bc7d2e"}
    assert reply.stop_reason is StopReason.TOOL_USE
    history = [UserMessage(content=QUESTION), reply.message,
               *umbrella("call_E4xGYcmG4C")[3:]]
    recorder, _ = send(history, tools=[FORECAST])
    assert recorder.body["input"][1:] == [
        REASONING,
        {"type": "function_call", "id": "fc_00bc7d2e", "call_id": "call_E4xGYcmG4C",
         "name": "get_forecast", "arguments": '{"city":"Lisbon","day":"tomorrow"}'},
        {"type": "function_call_output", "call_id": "call_E4xGYcmG4C", "output": FORECAST_TEXT}]


def test_a_message_after_reasoning_goes_back_as_its_item_with_its_id():
    # Without the msg_ id the real API answers 400: the reasoning item lacks its following item.
    answer = message("Take an umbrella.", "msg_00bc7d2f")
    reply = openai_responses.from_wire(response([REASONING, answer]))
    assert reply.message.extra == {"item_id": "msg_00bc7d2f"}
    history = [UserMessage(content=QUESTION), reply.message, UserMessage(content="Thanks!")]
    body = openai_responses.to_wire(history)
    assert body["input"][1:3] == [REASONING, {
        "type": "message", "id": "msg_00bc7d2f", "role": "assistant", "status": "completed",
        "content": [{"type": "output_text", "text": "Take an umbrella.", "annotations": []}]}]
    PARAMS.validate_python(body)  # the official SDK's request type accepts it


def test_status_is_never_sent_on_reasoning_items():
    item = REASONING | {"status": "completed"}
    history = [UserMessage(content=QUESTION),
               AssistantMessage(content="Checking.",
                                reasoning=[Reasoning(provider="openai_responses", data=item)])]
    body = openai_responses.to_wire(history)
    assert body["input"][1:] == [REASONING, {"role": "assistant", "content": "Checking."}]


def test_other_providers_reasoning_is_dropped():
    thinking = Reasoning(provider="anthropic", data={"type": "thinking", "thinking": "t",
                                                     "signature": "s"})
    body = openai_responses.to_wire(umbrella(reasoning=[thinking]))
    assert [item.get("type") for item in body["input"]] == [None, "function_call",
                                                            "function_call_output"]


def test_reasoning_effort_is_sent():
    recorder = answering(200, ANSWER)
    OpenAIResponses(client=recorder.client, api_key="k", reasoning_effort="low",
                    max_output_tokens=300).complete([UserMessage(content="Hi")])
    assert (recorder.body["reasoning"], recorder.body["max_output_tokens"]) == (
        {"effort": "low"}, 300)


@pytest.mark.parametrize(("status", "reason", "output", "stop"), [
    ("incomplete", "max_output_tokens", [REASONING], StopReason.MAX_TOKENS),
    ("incomplete", "max_output_tokens", [REASONING, FUNCTION_CALL], StopReason.MAX_TOKENS),
    ("incomplete", "content_filter", [message("Part")], StopReason.REFUSAL),
    ("completed", None, [FUNCTION_CALL], StopReason.TOOL_USE),
    ("completed", None, [message("Done")], StopReason.END_TURN),
    ("failed", None, [], StopReason.OTHER)])
def test_stop_reasons(status, reason, output, stop):
    reply = openai_responses.from_wire(response(output, status=status, reason=reason))
    assert reply.stop_reason is stop


def test_truncated_by_reasoning_has_no_text():
    reply = openai_responses.from_wire(
        response([REASONING], status="incomplete", reason="max_output_tokens"))
    assert (reply.message.content, reply.message.tool_calls) == (None, [])


def test_refusal_part_is_a_refusal():
    refusal = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
               "content": [{"type": "refusal", "refusal": "I can't help with that."}]}
    reply = openai_responses.from_wire(response([refusal]))
    assert (reply.message.content, reply.stop_reason) == ("I can't help with that.",
                                                          StopReason.REFUSAL)


def test_usage_mapping():
    usage = USAGE | {"input_tokens": 4096, "output_tokens": 900, "total_tokens": 4996,
                     "input_tokens_details": {"cached_tokens": 3968, "cache_write_tokens": 0}}
    reply = openai_responses.from_wire(response([message("ok")], usage=usage))
    assert reply.usage == Usage(input_tokens=4096, output_tokens=900, cached_input_tokens=3968,
                                reasoning_tokens=64)
    assert reply.model == "gpt-5-mini-2025-08-07"


def test_invalid_json_arguments_are_kept():
    broken = FUNCTION_CALL | {"arguments": '{"city": "Lis'}
    call = openai_responses.from_wire(response([broken])).message.tool_calls[0]
    assert (call.arguments, call.raw_arguments) == ({}, '{"city": "Lis')
    body = openai_responses.to_wire([UserMessage(content="Hi"),
                                     AssistantMessage(tool_calls=[call])])
    assert body["input"][1]["arguments"] == '{"city": "Lis'


@pytest.mark.parametrize(("status", "error"), [
    (404, {"message": "Item with id 'rs_00bc7d2e' not found. Items are not persisted when "
                      "`store` is set to false. Try again with `store` set to true, or remove "
                      "this item from your input.",
           "type": "invalid_request_error", "param": "input", "code": None}),
    (400, {"message": "No tool call found for function call output with call_id "
                      "call_uelfkqtHfJDC4Btqeoozq82e.",
           "type": "invalid_request_error", "param": "input", "code": None}),
    (400, {"message": "Unknown parameter: 'input[1].status'.",
           "type": "invalid_request_error", "param": "input[1].status",
           "code": "unknown_parameter"})])
def test_error_body_becomes_provider_error(status, error):
    ErrorObject.model_validate(error)
    recorder = answering(status, {"error": error})
    with pytest.raises(ProviderError) as caught:
        OpenAIResponses(client=recorder.client, api_key="k").complete(umbrella())
    assert (caught.value.status, caught.value.error_type, caught.value.message,
            caught.value.provider) == (status, "invalid_request_error", error["message"],
                                       "openai_responses")


def test_non_json_error_is_still_clear():
    recorder = answering(503, text="")
    with pytest.raises(ProviderError) as caught:
        OpenAIResponses(client=recorder.client, api_key="k").complete(umbrella())
    assert caught.value.status == 503 and "(empty body)" in caught.value.message


def test_no_key_sends_no_auth_header(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    recorder = answering(200, ANSWER)
    OpenAIResponses(client=recorder.client).complete(umbrella())
    assert "authorization" not in recorder.requests[0].headers


def wire_events(body: dict[str, Any]) -> list[tuple]:
    events: list[tuple] = []
    for item in body["input"]:
        if item.get("type") == "function_call":
            events.append(("call", item["call_id"], item["name"], json.loads(item["arguments"])))
        elif item.get("type") == "function_call_output":
            events.append(("result", item["call_id"], item["output"]))
    return events


@settings(deadline=None)
@given(transcripts())
def test_any_transcript_keeps_calls_and_results_in_order(messages):
    body = openai_responses.to_wire(messages, tools=[FORECAST])
    assert_valid_params(PARAMS, body)
    assert wire_events(body) == [event[:4] if event[0] == "call" else event[:3]
                                 for event in neutral_events(messages)]
    assert all("status" not in item for item in body["input"])


@st.composite
def replies(draw: st.DrawFn) -> Reply:
    tool_calls = [c.model_copy(update={"extra": {"item_id": f"fc_{i}"}})
                  for i, c in enumerate(calls(draw, "call_"))]
    reasoning = [Reasoning(provider="openai_responses",
                           data=REASONING | {"id": f"rs_{i}", "encrypted_content": text})
                 for i, text in enumerate(draw(st.lists(st.text(min_size=1), max_size=2)))]
    stops = [StopReason.TOOL_USE if tool_calls else StopReason.END_TURN, StopReason.MAX_TOKENS]
    content = draw(st.none() | st.text(min_size=1))
    return Reply(message=AssistantMessage(content=content, tool_calls=tool_calls,
                                          reasoning=reasoning,
                                          extra={"item_id": "msg_7"} if content else {}),
                 stop_reason=draw(st.sampled_from(stops)), usage=Usage(**usages(draw)),
                 model="gpt-5-mini-2025-08-07")


def render(reply: Reply) -> dict[str, Any]:
    output = [r.data for r in reply.message.reasoning]
    if reply.message.content is not None:
        output.append(message(reply.message.content, reply.message.extra["item_id"]))
    output.extend({"type": "function_call", "id": c.extra["item_id"], "call_id": c.id,
                   "name": c.name, "arguments": json.dumps(c.arguments), "status": "completed"}
                  for c in reply.message.tool_calls)
    u = reply.usage
    usage = {"input_tokens": u.input_tokens, "output_tokens": u.output_tokens,
             "total_tokens": u.total_tokens,
             "input_tokens_details": {"cached_tokens": u.cached_input_tokens,
                                      "cache_write_tokens": 0},
             "output_tokens_details": {"reasoning_tokens": u.reasoning_tokens}}
    if reply.stop_reason is StopReason.MAX_TOKENS:
        return response(output, status="incomplete", reason="max_output_tokens", usage=usage)
    return response(output, usage=usage)


@settings(deadline=None)
@given(replies())
def test_any_rendered_reply_maps_back(reply):
    assert openai_responses.from_wire(render(reply)) == reply
