"""The Responses emulator: real error texts, SDK-valid bodies, reasoning items and store false."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from openai.types.responses import Response
from openai.types.shared import ErrorObject

from harness.messages import StopReason, ToolMessage
from offline.emulator import Emulator
from offline.scripted import ScriptedModel, Step

URL = "https://api.openai.com/v1/responses"
TOOLS = [{"type": "function", "name": "get_weather", "description": "Get the weather.",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                         "required": ["city"], "additionalProperties": False},
          "strict": True}]
USER = {"role": "user", "content": "What's the weather in Paris?"}
STATELESS = {"store": False, "include": ["reasoning.encrypted_content"]}


def post(emulator: Emulator, body: Any) -> httpx.Response:
    with httpx.Client(transport=emulator) as client:
        return client.post(URL, json=body)


def request(items: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "gpt-5-mini", "input": items, "tools": TOOLS, **extra}


def function_call(call_id: str) -> dict[str, Any]:
    return {"type": "function_call", "id": "fc_1", "call_id": call_id, "name": "get_weather",
            "arguments": '{"city":"Paris"}'}


def output(call_id: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": "Sunny"}


def rejected(body: Any, *, status: int = 400) -> dict[str, Any]:
    response = post(Emulator(ScriptedModel([])), body)
    assert response.status_code == status
    error = response.json()["error"]
    ErrorObject.model_validate(error)
    return error


def test_a_stateless_round_trip_with_encrypted_reasoning() -> None:
    model = ScriptedModel([Step.call_many(("get_weather", {"city": "Paris"}),
                                          thinking="The user wants the weather."),
                           Step.say("Sunny in Paris.")])
    emulator = Emulator(model)
    first = post(emulator, request([USER], tool_choice="auto", **STATELESS)).json()
    response = Response.model_validate(first)
    assert [item.type for item in response.output] == ["reasoning", "function_call"]
    reasoning, call = first["output"]
    assert reasoning["id"].startswith("rs_") and len(reasoning["id"]) == 53
    assert reasoning["encrypted_content"].startswith("gAAAAA")
    assert reasoning["summary"] == []
    assert call["id"].startswith("fc_") and call["call_id"].startswith("call_")
    assert first["id"][5:21] == reasoning["id"][3:19]  # one response shares a prefix
    assert (first["status"], first["store"], first["tool_choice"]) == (
        "completed", False, "auto")
    assert first["usage"]["output_tokens_details"]["reasoning_tokens"] == 7

    second = post(emulator, request([USER, *first["output"], output(call["call_id"])],
                                    **STATELESS)).json()
    final = Response.model_validate(second)
    assert final.output_text == "Sunny in Paris."
    sent = model.requests[1].messages
    assert sent[1].tool_calls[0].extra == {"item_id": call["id"]}
    assert sent[1].reasoning[0].data["encrypted_content"] == reasoning["encrypted_content"]
    assert sent[2] == ToolMessage(tool_call_id=call["call_id"], content="Sunny")


def test_a_reasoning_summary_only_when_asked() -> None:
    emulator = Emulator(ScriptedModel([Step.say("Hi", thinking="Greet them.")]))
    body = post(emulator, request([USER], reasoning={"effort": "low", "summary": "auto"})).json()
    assert body["output"][0]["summary"] == [{"type": "summary_text", "text": "Greet them."}]
    assert "encrypted_content" not in body["output"][0]
    Response.model_validate(body)


def test_the_token_cap_is_incomplete() -> None:
    emulator = Emulator(ScriptedModel([Step.say("Half an ans", stop_reason=StopReason.MAX_TOKENS)]))
    body = post(emulator, request([USER], max_output_tokens=16)).json()
    response = Response.model_validate(body)
    assert (response.status, response.incomplete_details.reason) == (
        "incomplete", "max_output_tokens")
    assert body["output"][0]["status"] == "incomplete"


def test_a_refusal_is_a_refusal_part() -> None:
    emulator = Emulator(ScriptedModel([Step.say("I can't help.", stop_reason=StopReason.REFUSAL)]))
    body = post(emulator, request([USER])).json()
    assert body["output"][0]["content"] == [{"type": "refusal", "refusal": "I can't help."}]
    Response.model_validate(body)


def test_a_function_call_without_its_output() -> None:
    error = rejected(request([USER, function_call("call_Zyy2")]))
    assert error == {"message": "No tool output found for function call call_Zyy2.",
                     "type": "invalid_request_error", "param": "input", "code": None}


def test_an_output_without_its_call() -> None:
    error = rejected(request([USER, output("call_uelf")]))
    assert error == {"message": "No tool call found for function call output with call_id "
                                "call_uelf.",
                     "type": "invalid_request_error", "param": "input", "code": None}


def test_a_reasoning_item_by_id_only_under_store_false_is_not_found() -> None:
    error = rejected(request([USER, {"type": "reasoning", "id": "rs_abc", "summary": []},
                              function_call("call_a"), output("call_a")], store=False),
                     status=404)
    assert error == {"message": "Item with id 'rs_abc' not found. Items are not persisted when "
                                "`store` is set to false. Try again with `store` set to true, or "
                                "remove this item from your input.",
                     "type": "invalid_request_error", "param": "input", "code": None}


def test_a_reasoning_item_without_its_following_item() -> None:
    reasoning = {"type": "reasoning", "id": "rs_abc", "summary": [], "encrypted_content": "gA"}
    error = rejected(request([USER, reasoning, output("call_a")], store=False))
    assert error["message"] == ("Item 'rs_abc' of type 'reasoning' was provided without its "
                                "required following item.")
    assert error["param"] == "input"


def test_an_unknown_field_on_an_input_item() -> None:
    reasoning = {"type": "reasoning", "id": "rs_abc", "summary": [], "status": None}
    error = rejected(request([USER, reasoning, function_call("call_a"), output("call_a")]))
    assert error == {"message": "Unknown parameter: 'input[1].status'.",
                     "type": "invalid_request_error", "param": "input[1].status",
                     "code": "unknown_parameter"}


def test_tool_choice_without_tools() -> None:
    error = rejected({"model": "gpt-5-mini", "input": "Hi", "tool_choice": "none"})
    assert error["message"] == ("Invalid value for 'tool_choice': 'tool_choice' is only allowed "
                                "when 'tools' are specified.")
    assert error["param"] == "tool_choice"


@pytest.mark.parametrize("choice", ["none", "required", {"type": "function", "name": "x"}])
def test_tool_choice_reaches_the_model(choice: Any) -> None:
    model = ScriptedModel([Step.say("ok")])
    body = post(Emulator(model), request([USER], tool_choice=choice)).json()
    assert model.requests[0].tool_choice == ("none" if choice == "none" else "required")
    assert Response.model_validate(body).tool_choice is not None
