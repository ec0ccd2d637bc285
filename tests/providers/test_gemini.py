"""Gemini adapter: exact request bodies, thought signatures, invented call ids, errors."""

from __future__ import annotations

from typing import Any

import pytest
from google.genai.types import Content, GenerateContentConfig, GenerateContentResponse
from hypothesis import given, settings
from hypothesis import strategies as st

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
from harness.providers import gemini
from harness.providers.gemini import Gemini

from ._support import (
    FORECAST,
    FORECAST_TEXT,
    LISBON,
    QUESTION,
    SYSTEM,
    answering,
    calls,
    neutral_events,
    transcripts,
    two_cities,
    umbrella,
    usages,
)

URL = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
WIRE_TOOLS = [{"functionDeclarations": [{"name": "get_forecast",
                                         "description": FORECAST.description,
                                         "parametersJsonSchema": FORECAST.parameters}]}]
SIGNATURE = "CusBAXLI2nxjqlNF"
TEXT_SIGNATURE = "Es8FCswFAXLI2nxj"
USAGE = {"promptTokenCount": 83, "candidatesTokenCount": 30, "thoughtsTokenCount": 190,
         "totalTokenCount": 303, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 83}]}


def generated(parts: list[dict[str, Any]], finish: str = "STOP",
              usage: dict[str, Any] | None = None) -> dict[str, Any]:
    body = {"candidates": [{"content": {"role": "model", "parts": parts},
                            "finishReason": finish, "index": 0}],
            "modelVersion": "gemini-2.5-flash", "responseId": "wOd8abGuO5rgz7IP5tLEGA",
            "usageMetadata": usage or USAGE}
    GenerateContentResponse.model_validate(body)  # the fixture is a real shape
    return body


ANSWER = generated([{"text": "Yes: light rain is forecast in Lisbon tomorrow."}])


def assert_valid_request(body: dict[str, Any]) -> None:
    """google-genai forbids unknown fields, so this catches misspelt or misplaced keys."""
    for content in body["contents"]:
        Content.model_validate(content)
    config = {key: body[key] for key in ("systemInstruction", "tools", "toolConfig")
              if key in body}
    GenerateContentConfig.model_validate(config | body["generationConfig"])
    assert set(body) <= {"contents", "systemInstruction", "tools", "toolConfig",
                         "generationConfig"}


def send(messages, *, reply=ANSWER, **options):
    recorder = answering(200, reply)
    result = Gemini(client=recorder.client, api_key="g-test").complete(messages, **options)
    assert_valid_request(recorder.body)
    return recorder, result


def test_umbrella_request_is_exact():
    recorder, reply = send(umbrella(), tools=[FORECAST], tool_choice="auto")
    request = recorder.requests[0]
    assert str(request.url) == URL  # the key never goes in the query string
    assert request.headers["x-goog-api-key"] == "g-test"
    assert recorder.body == {
        "systemInstruction": {"parts": [{"text": SYSTEM}]},
        "contents": [
            {"role": "user", "parts": [{"text": QUESTION}]},
            {"role": "model", "parts": [
                {"functionCall": {"name": "get_forecast", "args": LISBON, "id": "call_1"}}]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "get_forecast", "id": "call_1",
                                      "response": {"result": FORECAST_TEXT}}}]}],
        "tools": WIRE_TOOLS, "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
        "generationConfig": {"maxOutputTokens": 1024}}
    assert (reply.message.content, reply.stop_reason) == (
        "Yes: light rain is forecast in Lisbon tomorrow.", StopReason.END_TURN)


def test_closing_call_keeps_tools_with_mode_none():
    recorder, _ = send(umbrella(), tools=[FORECAST], tool_choice="none")
    assert recorder.body["toolConfig"] == {"functionCallingConfig": {"mode": "NONE"}}
    assert recorder.body["tools"] == WIRE_TOOLS


def test_required_is_any():
    recorder, _ = send(umbrella(), tools=[FORECAST], tool_choice="required")
    assert recorder.body["toolConfig"]["functionCallingConfig"]["mode"] == "ANY"


def test_no_tools_means_no_tool_fields():
    recorder, _ = send([UserMessage(content="Hi")])
    assert set(recorder.body) == {"contents", "generationConfig"}


def test_parallel_results_share_one_content():
    recorder, _ = send(two_cities(), tools=[FORECAST])
    contents = recorder.body["contents"]
    assert len(contents) == 3
    assert [p["functionResponse"]["id"] for p in contents[2]["parts"]] == ["call_1", "call_2"]


def test_error_result_is_sent_under_error():
    recorder, _ = send(umbrella(is_error=True), tools=[FORECAST])
    assert recorder.body["contents"][2]["parts"][0]["functionResponse"]["response"] == {
        "error": FORECAST_TEXT}


def test_a_note_after_results_goes_after_them_in_the_same_content():
    history = [*two_cities()[:3], UserMessage(content="Reminder: be brief."), two_cities()[3]]
    contents = gemini.to_wire(history, tools=[FORECAST])["contents"]
    assert [next(iter(p)) for p in contents[2]["parts"]] == [
        "functionResponse", "functionResponse", "text"]


def test_missing_ids_are_invented_deterministically_and_never_sent():
    reply_body = generated([
        {"functionCall": {"name": "get_forecast", "args": LISBON}, "thoughtSignature": SIGNATURE},
        {"functionCall": {"name": "get_forecast", "args": {"city": "Porto", "day": "tomorrow"}}}])
    history = [UserMessage(content="Lisbon or Porto?")]
    recorder, reply = send(history, reply=reply_body, tools=[FORECAST])
    assert [c.id for c in reply.message.tool_calls] == ["call_1_1", "call_1_2"]
    assert reply == gemini.from_wire(reply_body, turn=0)  # same input, same ids
    assert reply.message.tool_calls[0].extra == {"thoughtSignature": SIGNATURE,
                                                 "invented_id": True}
    history += [reply.message, ToolMessage(tool_call_id="call_1_1", content=FORECAST_TEXT),
                ToolMessage(tool_call_id="call_1_2", content="Porto: sunny")]
    recorder, _ = send(history, tools=[FORECAST])
    model_turn, results = recorder.body["contents"][1:]
    assert model_turn["parts"] == [  # the signature stays on its own part, a sibling
        {"functionCall": {"name": "get_forecast", "args": LISBON}, "thoughtSignature": SIGNATURE},
        {"functionCall": {"name": "get_forecast", "args": {"city": "Porto", "day": "tomorrow"}}}]
    assert results["parts"] == [
        {"functionResponse": {"name": "get_forecast", "response": {"result": FORECAST_TEXT}}},
        {"functionResponse": {"name": "get_forecast", "response": {"result": "Porto: sunny"}}}]


def test_invented_ids_grow_with_the_model_turns_already_sent():
    reply_body = generated([{"functionCall": {"name": "get_forecast", "args": LISBON}}])
    _, reply = send(umbrella(), reply=reply_body, tools=[FORECAST])
    assert reply.message.tool_calls[0].id == "call_2_1"


def test_ids_the_api_gave_are_kept_and_sent_back():
    reply = gemini.from_wire(generated([{"functionCall": {"name": "get_forecast", "args": LISBON,
                                                          "id": "vx_42"}}]))
    call = reply.message.tool_calls[0]
    assert (call.id, call.extra) == ("vx_42", {})
    body = gemini.to_wire([UserMessage(content=QUESTION), reply.message,
                           ToolMessage(tool_call_id="vx_42", content=FORECAST_TEXT)])
    assert body["contents"][1]["parts"][0]["functionCall"]["id"] == "vx_42"
    assert body["contents"][2]["parts"][0]["functionResponse"]["id"] == "vx_42"


def test_text_signature_and_thought_parts_go_back_unchanged():
    thought = {"text": "Thinking about umbrellas.", "thought": True}
    reply = gemini.from_wire(generated([
        thought, {"text": "Yes, pack one.", "thoughtSignature": TEXT_SIGNATURE}]))
    assert reply.message.content == "Yes, pack one."
    assert reply.message.reasoning == [
        Reasoning(provider="gemini", data=thought),
        Reasoning(provider="gemini", data={"thoughtSignature": TEXT_SIGNATURE})]
    body = gemini.to_wire([UserMessage(content=QUESTION), reply.message,
                           UserMessage(content="Thanks")])
    assert_valid_request(body)
    assert body["contents"][1]["parts"] == [
        thought, {"text": "Yes, pack one.", "thoughtSignature": TEXT_SIGNATURE}]


def test_other_providers_reasoning_is_dropped():
    thinking = Reasoning(provider="anthropic", data={"type": "thinking", "thinking": "t",
                                                     "signature": "s"})
    body = gemini.to_wire(umbrella(reasoning=[thinking], content="Checking."))
    assert body["contents"][1]["parts"][0] == {"text": "Checking."}


def test_thinking_budget_and_model_prefix():
    recorder = answering(200, ANSWER)
    Gemini(client=recorder.client, api_key="k", model="models/gemini-2.5-pro",
           thinking_budget=0, max_output_tokens=256).complete([UserMessage(content="Hi")])
    assert recorder.body["generationConfig"] == {"maxOutputTokens": 256,
                                                 "thinkingConfig": {"thinkingBudget": 0}}
    assert recorder.requests[0].url.path == "/v1beta/models/gemini-2.5-pro:generateContent"


@pytest.mark.parametrize(("finish", "parts", "stop"), [
    ("STOP", [{"text": "Done."}], StopReason.END_TURN),
    ("STOP", [{"functionCall": {"name": "get_forecast", "args": {}}}], StopReason.TOOL_USE),
    ("MAX_TOKENS", [{"text": "Par"}], StopReason.MAX_TOKENS),
    ("SAFETY", [], StopReason.REFUSAL), ("RECITATION", [], StopReason.REFUSAL),
    ("BLOCKLIST", [], StopReason.REFUSAL), ("PROHIBITED_CONTENT", [], StopReason.REFUSAL),
    ("SPII", [], StopReason.REFUSAL),
    ("UNEXPECTED_TOOL_CALL", [], StopReason.OTHER),
    ("MALFORMED_FUNCTION_CALL", [], StopReason.OTHER), ("OTHER", [], StopReason.OTHER)])
def test_stop_reasons(finish, parts, stop):
    assert gemini.from_wire(generated(parts, finish)).stop_reason is stop


def test_a_blocked_prompt_is_a_refusal():
    body = {"promptFeedback": {"blockReason": "SAFETY"}, "modelVersion": "gemini-2.5-flash",
            "usageMetadata": {"promptTokenCount": 9, "totalTokenCount": 9}}
    GenerateContentResponse.model_validate(body)
    reply = gemini.from_wire(body)
    assert (reply.stop_reason, reply.message.content, reply.usage.input_tokens) == (
        StopReason.REFUSAL, None, 9)


def test_usage_counts_thoughts_as_output_and_tool_prompts_as_input():
    usage = USAGE | {"cachedContentTokenCount": 64, "toolUsePromptTokenCount": 17}
    reply = gemini.from_wire(generated([{"text": "ok"}], usage=usage))
    assert reply.usage == Usage(input_tokens=100, output_tokens=220, cached_input_tokens=64,
                                reasoning_tokens=190)
    assert reply.model == "gemini-2.5-flash"


@pytest.mark.parametrize("text", [
    "Please ensure that the number of function response parts is equal to the number of "
    "function call parts of the function call turn.",
    "Function call is missing a thought_signature in functionCall parts. This is required for "
    "tools to work correctly, and missing thought_signature may lead to degraded model "
    "performance. Additional data, function call `default_api:get_forecast` , position 2."])
@pytest.mark.parametrize("wrapped", [False, True])
def test_error_body_becomes_provider_error(text, wrapped):
    body = {"error": {"code": 400, "message": text, "status": "INVALID_ARGUMENT"}}
    recorder = answering(400, [body] if wrapped else body)
    with pytest.raises(ProviderError) as caught:
        Gemini(client=recorder.client, api_key="k").complete(umbrella())
    assert (caught.value.status, caught.value.error_type, caught.value.message,
            caught.value.provider) == (400, "INVALID_ARGUMENT", text, "gemini")


def test_non_json_error_is_still_clear():
    recorder = answering(404, text="Not Found")
    with pytest.raises(ProviderError) as caught:
        Gemini(client=recorder.client, api_key="k").complete(umbrella())
    assert (caught.value.status, caught.value.error_type) == (404, "http_404")


@pytest.mark.parametrize(("env", "expected"), [
    ({"GEMINI_API_KEY": "g1", "GOOGLE_API_KEY": "g2"}, "g1"), ({"GOOGLE_API_KEY": "g2"}, "g2"),
    ({}, None)])
def test_key_from_the_environment(monkeypatch, env, expected):
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    recorder = answering(200, ANSWER)
    Gemini(client=recorder.client).complete([UserMessage(content="Hi")])
    assert recorder.requests[0].headers.get("x-goog-api-key") == expected
    assert "key" not in recorder.requests[0].url.params


def wire_events(body: dict[str, Any]) -> list[tuple]:
    events: list[tuple] = []
    for content in body["contents"]:
        for part in content["parts"]:
            if "functionCall" in part:
                call = part["functionCall"]
                events.append(("call", call["id"], call["name"], call["args"]))
            elif "functionResponse" in part:
                response = part["functionResponse"]
                is_error = "error" in response["response"]
                events.append(("result", response["id"],
                               response["response"]["error" if is_error else "result"], is_error))
    return events


@settings(deadline=None)
@given(transcripts())
def test_any_transcript_keeps_calls_and_results_in_order(messages):
    body = gemini.to_wire(messages, tools=[FORECAST])
    assert_valid_request(body)
    assert wire_events(body) == neutral_events(messages)
    names = {c.id: c.name for m in messages if isinstance(m, AssistantMessage)
             for c in m.tool_calls}
    for content in body["contents"]:
        for part in content["parts"]:
            if "functionResponse" in part:  # named after the call it answers
                assert part["functionResponse"]["name"] == names[part["functionResponse"]["id"]]


@st.composite
def replies(draw: st.DrawFn) -> tuple[Reply, dict[str, Any], int]:
    turn = draw(st.integers(0, 5))
    given_ids = draw(st.booleans())
    tool_calls = [
        c.model_copy(update={"id": c.id if given_ids else f"call_{turn + 1}_{i}",
                             "extra": ({} if given_ids else {"invented_id": True})
                             | ({"thoughtSignature": SIGNATURE} if i == 1 else {})})
        for i, c in enumerate(calls(draw, "vx_"), start=1)]
    content = draw(st.none() | st.text(min_size=1))
    signed = content is not None and draw(st.booleans())
    parts: list[dict[str, Any]] = []
    if content is not None:
        parts.append({"text": content} | ({"thoughtSignature": TEXT_SIGNATURE} if signed else {}))
    for c in tool_calls:
        function = {"name": c.name, "args": c.arguments} | ({"id": c.id} if given_ids else {})
        parts.append({"functionCall": function} | (
            {"thoughtSignature": c.extra["thoughtSignature"]} if "thoughtSignature" in c.extra
            else {}))
    finish, stop = draw(st.sampled_from([
        ("STOP", StopReason.TOOL_USE if tool_calls else StopReason.END_TURN),
        ("MAX_TOKENS", StopReason.MAX_TOKENS), ("SAFETY", StopReason.REFUSAL),
        ("MALFORMED_FUNCTION_CALL", StopReason.OTHER)]))
    numbers = usages(draw)
    usage = {"promptTokenCount": numbers["input_tokens"],
             "cachedContentTokenCount": numbers["cached_input_tokens"],
             "candidatesTokenCount": numbers["output_tokens"] - numbers["reasoning_tokens"],
             "thoughtsTokenCount": numbers["reasoning_tokens"]}
    reasoning = [Reasoning(provider="gemini", data={"thoughtSignature": TEXT_SIGNATURE})]
    reply = Reply(message=AssistantMessage(content=content, tool_calls=tool_calls,
                                           reasoning=reasoning if signed else []),
                  stop_reason=stop, usage=Usage(**numbers), model="gemini-2.5-flash")
    return reply, generated(parts, finish, usage), turn


@settings(deadline=None)
@given(replies())
def test_any_rendered_reply_maps_back(case):
    reply, body, turn = case
    assert gemini.from_wire(body, turn=turn) == reply


def test_unknown_tool_choice_is_refused():
    with pytest.raises(ValueError, match="tool_choice"):
        gemini.to_wire(umbrella(), tools=[FORECAST], tool_choice="any")


def test_unparseable_arguments_from_elsewhere_go_as_an_object():
    call = ToolCall(id="call_1", name="get_forecast", raw_arguments="{oops")
    body = gemini.to_wire([UserMessage(content="Hi"), AssistantMessage(tool_calls=[call])])
    assert body["contents"][1]["parts"][0]["functionCall"]["args"] == {}
