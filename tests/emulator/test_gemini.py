"""The generateContent emulator: real error texts, SDK-valid bodies, thought signatures."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest
from google.genai import errors, types

from harness.messages import StopReason, ToolMessage
from offline.emulator import Emulator
from offline.scripted import ScriptedModel, Step

BASE = "https://generativelanguage.googleapis.com/v1beta/models/"
TOOLS = [{"functionDeclarations": [{
    "name": "get_weather", "description": "Get the current weather for a city.",
    "parametersJsonSchema": {"type": "object", "properties": {"city": {"type": "string"}},
                             "required": ["city"], "additionalProperties": False}}]}]
USER = {"role": "user", "parts": [{"text": "Weather in Paris and Rome?"}]}
TWO_CALLS = Step.call_many(("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Rome"}))


def post(emulator: Emulator, body: Any, model: str = "gemini-3-flash-preview") -> httpx.Response:
    with httpx.Client(transport=emulator) as client:
        return client.post(f"{BASE}{model}:generateContent", json=body)


def request(contents: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"contents": contents, "tools": TOOLS, **extra}


def call(city: str, **extra: Any) -> dict[str, Any]:
    return {"functionCall": {"name": "get_weather", "args": {"city": city}}, **extra}


def answer(city: str, name: str = "get_weather") -> dict[str, Any]:
    return {"functionResponse": {"name": name, "response": {"result": f"Sunny in {city}"}}}


def results(*cities: str) -> dict[str, Any]:
    return {"role": "user", "parts": [answer(city) for city in cities]}


def rejected(body: Any, *, emulator: Emulator | None = None) -> errors.ClientError:
    response = post(emulator or Emulator(ScriptedModel([])), body)
    assert response.status_code == 400
    with pytest.raises(errors.ClientError) as caught:
        errors.APIError.raise_for_response(response)
    assert (caught.value.code, caught.value.status) == (400, "INVALID_ARGUMENT")
    assert set(response.json()["error"]) <= {"code", "message", "status", "details"}
    return caught.value


def first_turn(emulator: Emulator, model: str = "gemini-3-flash-preview") -> dict[str, Any]:
    body = post(emulator, request([USER]), model).json()
    types.GenerateContentResponse.model_validate(body)
    return body["candidates"][0]["content"]


def test_a_gemini_3_round_trip_with_a_thought_signature() -> None:
    model = ScriptedModel([TWO_CALLS, Step.say("Sunny in both.")])
    emulator = Emulator(model)
    content = first_turn(emulator)
    first, second = content["parts"]
    assert first["thoughtSignature"] and "thoughtSignature" not in second
    assert "id" not in first["functionCall"]
    response = post(emulator, request([USER, content, results("Paris", "Rome")])).json()
    parsed = types.GenerateContentResponse.model_validate(response)
    assert parsed.candidates[0].finish_reason == types.FinishReason.STOP
    assert parsed.candidates[0].content.parts[0].text == "Sunny in both."
    calls = model.requests[1].messages[1].tool_calls
    assert calls[0].extra == {"thoughtSignature": first["thoughtSignature"]}
    assert model.requests[1].messages[2:] == [
        ToolMessage(tool_call_id=calls[0].id, content="Sunny in Paris"),
        ToolMessage(tool_call_id=calls[1].id, content="Sunny in Rome")]


def test_a_missing_thought_signature_is_rejected() -> None:
    emulator = Emulator(ScriptedModel([TWO_CALLS]))
    content = first_turn(emulator)
    del content["parts"][0]["thoughtSignature"]
    error = rejected(request([USER, content, results("Paris", "Rome")]), emulator=emulator)
    assert error.message == (
        "Function call is missing a thought_signature in functionCall parts. This is required "
        "for tools to work correctly, and missing thought_signature may lead to degraded model "
        "performance. Additional data, function call `default_api:get_weather` , position 2. "
        "Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more "
        "details.")


def test_the_same_calls_signed_once_and_then_unsigned_go_back_as_they_came() -> None:
    # Gemini 2.5 signs a turn only when it thought: the same call made again without thinking
    # comes back unsigned, and sending both turns back as received is no missing signature.
    again = Step.call("get_weather", city="Paris")
    thought = Step(calls=again.calls, thinking="Paris first.", stop_reason=StopReason.TOOL_USE)
    emulator = Emulator(ScriptedModel([thought, again, Step.say("Sunny.")]))
    model = "gemini-2.5-flash"
    thinking = {"generationConfig": {"thinkingConfig": {"includeThoughts": True}}}
    first = post(emulator, request([USER], **thinking), model).json()["candidates"][0]["content"]
    sent = [USER, first, results("Paris")]
    second = post(emulator, request(sent, **thinking), model).json()["candidates"][0]["content"]
    assert _signed(first) and not _signed(second)
    final = post(emulator, request([*sent, second, results("Paris")], **thinking), model)
    assert final.status_code == 200, final.text
    stripped = copy.deepcopy(first)
    for part in stripped["parts"]:
        part.pop("thoughtSignature", None)
    assert rejected(request([USER, stripped, results("Paris"), second, results("Paris")],
                            **thinking), emulator=emulator).message.startswith(
        "Function call is missing a thought_signature")


def _signed(content: dict[str, Any]) -> bool:
    return any("thoughtSignature" in part for part in content["parts"] if "functionCall" in part)


def test_only_the_current_turn_needs_its_signature() -> None:
    emulator = Emulator(ScriptedModel([TWO_CALLS, Step.say("Both sunny."), Step.say("Yes.")]))
    content = first_turn(emulator)
    post(emulator, request([USER, content, results("Paris", "Rome")]))
    stripped = copy.deepcopy(content)
    del stripped["parts"][0]["thoughtSignature"]
    later = [USER, stripped, results("Paris", "Rome"),
             {"role": "model", "parts": [{"text": "Both sunny."}]},
             {"role": "user", "parts": [{"text": "Sure?"}]}]
    assert post(emulator, request(later)).status_code == 200


def test_gemini_2_5_signs_only_replies_with_thinking() -> None:
    plain = first_turn(Emulator(ScriptedModel([TWO_CALLS])), "gemini-2.5-flash")
    assert all("thoughtSignature" not in part for part in plain["parts"])
    step = Step.call_many(("get_weather", {"city": "Paris"}), thinking="One call.")
    signed = first_turn(Emulator(ScriptedModel([step])), "gemini-2.5-flash")
    assert "thoughtSignature" in signed["parts"][0]


def test_snake_case_request_keys_are_accepted() -> None:
    model = ScriptedModel([Step.call("get_weather", city="Paris"), Step.say("Sunny.")])
    emulator = Emulator(model)
    part = first_turn(emulator)["parts"][0]
    turn = {"role": "model", "parts": [{"function_call": part["functionCall"],
                                        "thought_signature": part["thoughtSignature"]}]}
    reply = {"role": "user", "parts": [{"function_response": answer("Paris")["functionResponse"]}]}
    body = {"contents": [USER, turn, reply], "tools": [{"function_declarations": [
        {"name": "get_weather", "parameters_json_schema": {"type": "object"}}]}],
        "tool_config": {"function_calling_config": {"mode": "NONE"}}}
    assert post(emulator, body).status_code == 200
    assert model.requests[1].tool_choice == "none"


def test_thought_parts_and_usage() -> None:
    step = Step.say("Sunny.", thinking="Think first.", stop_reason=StopReason.MAX_TOKENS)
    body = post(Emulator(ScriptedModel([step])), request(
        [USER], generationConfig={"thinkingConfig": {"includeThoughts": True}})).json()
    parsed = types.GenerateContentResponse.model_validate(body)
    parts = parsed.candidates[0].content.parts
    assert (parts[0].thought, parts[0].text, parts[1].text) == (True, "Think first.", "Sunny.")
    assert parts[1].thought_signature  # a text-only reply carries it on its last part
    assert parsed.candidates[0].finish_reason == types.FinishReason.MAX_TOKENS
    usage = body["usageMetadata"]
    assert usage["thoughtsTokenCount"] == 3
    assert usage["totalTokenCount"] == (usage["promptTokenCount"] + usage["candidatesTokenCount"]
                                        + usage["thoughtsTokenCount"])


def test_a_call_to_an_undeclared_function_is_an_unexpected_tool_call() -> None:
    step = Step.call_many(("get_forecast", {"city": "Lisbon"}), text="Let me check.")
    body = post(Emulator(ScriptedModel([step])), request([USER]), "gemini-2.5-flash").json()
    candidate = types.GenerateContentResponse.model_validate(body).candidates[0]
    assert candidate.finish_reason == types.FinishReason.UNEXPECTED_TOOL_CALL
    assert candidate.finish_message == ("Unexpected tool call: Model tried to call an "
                                        "undeclared function: get_forecast")
    assert [part.text for part in candidate.content.parts] == ["Let me check."]


def test_response_count_must_match_the_call_count() -> None:
    turn = {"role": "model", "parts": [call("Paris"), call("Rome")]}
    error = rejected(request([USER, turn, results("Paris")]))
    assert error.message == ("Please ensure that the number of function response parts is "
                             "equal to the number of function call parts of the function call "
                             "turn.")


def test_a_call_turn_must_follow_a_user_or_response_turn() -> None:
    # Real: google-gemini/gemini-cli#11814, a history that starts with a function call. (A model
    # text content right before the call content is one turn with it: see tests/conformance.)
    turn = {"role": "model", "parts": [call("Paris")]}
    error = rejected(request([turn, results("Paris")]))
    assert error.message == ("Please ensure that function call turn comes immediately after a "
                             "user turn or after a function response turn.")


def test_a_response_turn_must_follow_a_call_turn() -> None:
    error = rejected(request([USER, results("Paris")]))
    assert error.message == ("Please ensure that function response turn comes immediately "
                             "after a function call turn.")


def test_a_response_sent_as_a_list() -> None:
    turn = {"role": "model", "parts": [call("Paris")]}
    listed = {"role": "user", "parts": [{"functionResponse": {"name": "get_weather",
                                                              "response": ["Sunny"]}}]}
    error = rejected(request([USER, turn, listed]))
    assert error.message == ("Invalid JSON payload received. Unknown name \"response\" at "
                             "'contents[2].parts[0].function_response': Proto field is not "
                             "repeating, cannot start list.")


def test_json_schema_keys_in_parameters() -> None:
    tools = [{"functionDeclarations": [{"name": "get_weather", "parameters": {
        "type": "object", "additionalProperties": False,
        "properties": {"city": {"type": "string"},
                       "when": {"type": "object", "additionalProperties": False}}}}]}]
    error = rejected({"contents": [USER], "tools": tools})
    assert error.message == (
        "Invalid JSON payload received. Unknown name \"additionalProperties\" at "
        "'tools[0].function_declarations[0].parameters': Cannot find field.\n"
        "Invalid JSON payload received. Unknown name \"additionalProperties\" at "
        "'tools[0].function_declarations[0].parameters.properties[1].value': Cannot find field.")
    violations = error.details["error"]["details"][0]["fieldViolations"]
    assert [v["field"] for v in violations] == [
        "tools[0].function_declarations[0].parameters",
        "tools[0].function_declarations[0].parameters.properties[1].value"]


@pytest.mark.parametrize("case", ["duplicate ids", "undeclared name"])
def test_bare_invalid_argument(case: str) -> None:
    if case == "duplicate ids":
        turn = {"role": "model", "parts": [
            {"functionCall": {"name": "get_weather", "args": {}, "id": "c1"}},
            {"functionCall": {"name": "get_weather", "args": {}, "id": "c1"}}]}
        contents = [USER, turn, results("Paris", "Rome")]
    else:
        contents = [USER, {"role": "model", "parts": [call("Paris")]},
                    {"role": "user", "parts": [answer("Paris", name="get_forecast")]}]
    assert rejected(request(contents)).message == "Request contains an invalid argument."


def test_a_call_turn_left_unanswered_is_rejected():
    import httpx

    from offline import ScriptedModel, Step
    from offline.emulator import Emulator

    body = {"contents": [
        {"role": "user", "parts": [{"text": "Umbrella for Lisbon?"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "get_forecast", "args": {}}}]}],
        "tools": [{"functionDeclarations": [{"name": "get_forecast", "description": "d"}]}]}
    url = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
    for contents in (body["contents"], [*body["contents"],
                                        {"role": "user", "parts": [{"text": "well?"}]}]):
        with httpx.Client(transport=Emulator(ScriptedModel([Step.say("x")]))) as client:
            answer = client.post(url, json=body | {"contents": contents})
        assert answer.status_code == 400
        assert answer.json()["error"]["message"].startswith(
            "Please ensure that the number of function response parts")
