"""The Chat Completions emulator: real error texts, SDK-valid bodies, the neutral view it sends."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from openai.types.chat import ChatCompletion
from openai.types.shared import ErrorObject

from harness.messages import AssistantMessage, StopReason, ToolCall, ToolMessage, UserMessage
from offline.emulator import Emulator
from offline.scripted import ScriptedModel, Step

URL = "https://api.openai.com/v1/chat/completions"
TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "Get the current weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"], "additionalProperties": False}, "strict": True}}]
USER = {"role": "user", "content": "What's the weather in Paris?"}


def post(emulator: Emulator, body: Any) -> httpx.Response:
    with httpx.Client(transport=emulator) as client:
        return client.post(URL, json=body)


def request(messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "gpt-5-mini", "messages": messages, "tools": TOOLS, **extra}


def call(call_id: str, city: str = "Paris") -> dict[str, Any]:
    return {"id": call_id, "type": "function",
            "function": {"name": "get_weather", "arguments": f'{{"city":"{city}"}}'}}


def assistant(*call_ids: str) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": [call(i) for i in call_ids]}


def tool(call_id: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": "Sunny, 22C"}


def rejected(body: Any, *, status: int = 400) -> dict[str, Any]:
    response = post(Emulator(ScriptedModel([])), body)
    assert response.status_code == status
    error = response.json()["error"]
    ErrorObject.model_validate(error)
    assert set(error) == {"message", "type", "param", "code"}
    return error


def test_a_tool_round_trip_renders_valid_chat_completions() -> None:
    model = ScriptedModel([Step.call("get_weather", city="Paris"), Step.say("Sunny, 22C.")])
    emulator = Emulator(model)
    first = post(emulator, request([USER], tool_choice="auto", parallel_tool_calls=True))
    completion = ChatCompletion.model_validate(first.json())
    assert completion.choices[0].finish_reason == "tool_calls"
    wire_call = first.json()["choices"][0]["message"]["tool_calls"][0]
    assert wire_call["function"] == {"name": "get_weather", "arguments": '{"city":"Paris"}'}
    assert wire_call["id"].startswith("call_") and len(wire_call["id"]) == 29
    assert completion.id.startswith("chatcmpl-") and len(completion.id) == 38

    message = first.json()["choices"][0]["message"]
    second = post(emulator, request([USER, message, tool(wire_call["id"])]))
    final = ChatCompletion.model_validate(second.json())
    assert (final.choices[0].finish_reason, final.choices[0].message.content) == (
        "stop", "Sunny, 22C.")
    assert model.requests[1].messages == [
        UserMessage(content="What's the weather in Paris?"),
        AssistantMessage(tool_calls=[ToolCall(id=wire_call["id"], name="get_weather",
                                              arguments={"city": "Paris"})]),
        ToolMessage(tool_call_id=wire_call["id"], content="Sunny, 22C")]
    assert model.requests[1].tools[0].name == "get_weather"
    assert model.requests[0].tool_choice == "auto"


@pytest.mark.parametrize(("stop", "finish"), [(StopReason.MAX_TOKENS, "length"),
                                              (StopReason.REFUSAL, "content_filter")])
def test_stop_reasons_map_to_finish_reasons(stop: StopReason, finish: str) -> None:
    emulator = Emulator(ScriptedModel([Step.say("Partial", stop_reason=stop)]))
    body = post(emulator, request([USER])).json()
    assert ChatCompletion.model_validate(body).choices[0].finish_reason == finish


def test_raw_arguments_are_sent_verbatim() -> None:
    broken = ToolCall(id="", name="get_weather", raw_arguments='{"city": "Par')
    emulator = Emulator(ScriptedModel([Step(calls=(broken,))]))
    body = post(emulator, request([USER])).json()
    assert body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == (
        '{"city": "Par')


def test_tool_message_without_tool_calls_before_it() -> None:
    error = rejected(request([USER, tool("call_x")]))
    assert error == {"message": "Invalid parameter: messages with role 'tool' must be a "
                                "response to a preceeding message with 'tool_calls'.",
                     "type": "invalid_request_error", "param": "messages.[1].role",
                     "code": None}


def test_unanswered_tool_call_ids_are_listed() -> None:
    error = rejected(request([USER, assistant("call_a", "call_b", "call_c"), tool("call_b"),
                              {"role": "user", "content": "And tomorrow?"}]))
    assert error == {"message": "An assistant message with 'tool_calls' must be followed by "
                                "tool messages responding to each 'tool_call_id'. The following "
                                "tool_call_ids did not have response messages: call_a, call_c",
                     "type": "invalid_request_error", "param": "messages.[3].role",
                     "code": None}


def test_a_transcript_ending_with_tool_calls_is_unanswered() -> None:
    error = rejected(request([USER, assistant("call_a")]))
    assert error["message"].endswith("did not have response messages: call_a")
    assert error["param"] == "messages.[1].role"


def test_tool_message_with_an_unknown_id() -> None:
    error = rejected(request([USER, assistant("call_a"), tool("call_zzz")]))
    assert error["message"] == ("Invalid parameter: 'tool_call_id' of 'call_zzz' not found in "
                                "'tool_calls' of previous message.")
    assert error["param"] == "messages.[2].tool_call_id"


@pytest.mark.parametrize("field", ["tool_choice", "parallel_tool_calls"])
def test_tool_settings_without_tools(field: str) -> None:
    value = "none" if field == "tool_choice" else True
    error = rejected({"model": "gpt-5-mini", "messages": [USER], field: value})
    assert error == {"message": f"Invalid value for '{field}': '{field}' is only allowed when "
                                "'tools' are specified.",
                     "type": "invalid_request_error", "param": field, "code": None}


def test_empty_tools_array() -> None:
    error = rejected(request([USER], tools=[]))
    assert error == {"message": "Invalid 'tools': empty array. Expected an array with minimum "
                                "length 1, but got an empty array instead.",
                     "type": "invalid_request_error", "param": "tools", "code": "empty_array"}


def test_assistant_with_empty_tool_calls() -> None:
    error = rejected(request([USER, {"role": "assistant", "content": "Hi", "tool_calls": []}]))
    assert error["message"] == ("Invalid 'messages[1].tool_calls': empty array. Expected an "
                                "array with minimum length 1, but got an empty array instead.")


def test_missing_messages() -> None:
    error = rejected({"model": "gpt-5-mini"})
    assert (error["message"], error["code"]) == ("Missing required parameter: 'messages'.",
                                                 "missing_required_parameter")


def test_invalid_json() -> None:
    with httpx.Client(transport=Emulator(ScriptedModel([]))) as client:
        response = client.post(URL, content=b'{"model": ', headers={
            "content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith(
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't "
        "using your HTTP library correctly.")


def test_a_closing_call_keeps_tools_and_sets_tool_choice_none() -> None:
    model = ScriptedModel([Step.say("Here is what I found.", expect_tool_choice="none")])
    messages = [USER, assistant("call_a"), tool("call_a")]
    response = post(Emulator(model), request(messages, tool_choice="none"))
    assert response.status_code == 200
    assert model.requests[0].tool_choice == "none"
