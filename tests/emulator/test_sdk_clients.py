"""The official SDK clients talk to the emulator on loopback: parsed replies, proper exceptions.

Retries are off (`max_retries=0`) so a rejected request is one request; the SDKs send through
`httpx2`, which reaches the loopback server like any other client.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import pytest
from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from offline.emulator import Emulator, serve
from offline.scripted import ScriptedModel, Step

SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
QUESTION = "What's the weather in Paris?"


@pytest.fixture
def weather() -> ScriptedModel:
    return ScriptedModel([Step.call_many(("get_weather", {"city": "Paris"}),
                                         thinking="Look it up."),
                          Step.say("Sunny, 22C in Paris.")])


@pytest.fixture
def url(weather: ScriptedModel) -> Iterator[str]:
    with serve(Emulator(weather, seed="sdk")) as base_url:
        yield base_url


def test_openai_chat_completions(url: str, weather: ScriptedModel) -> None:
    tools: Any = [{"type": "function", "function": {"name": "get_weather",
                                                    "parameters": SCHEMA}}]
    messages: Any = [{"role": "user", "content": QUESTION}]
    with openai.OpenAI(base_url=url + "/v1", api_key="test", max_retries=0) as client:
        first = client.chat.completions.create(model="gpt-5-mini", messages=messages,
                                               tools=tools)
        call = first.choices[0].message.tool_calls[0]
        assert (call.function.name, call.function.arguments) == (
            "get_weather", '{"city":"Paris"}')
        assert first.usage.completion_tokens_details.reasoning_tokens == 3
        with pytest.raises(openai.BadRequestError) as caught:
            client.chat.completions.create(model="gpt-5-mini", tools=tools,
                                           messages=[*messages, first.choices[0].message])
        assert caught.value.status_code == 400
        assert caught.value.body["param"] == "messages.[1].role"
        answered = [*messages, first.choices[0].message,
                    {"role": "tool", "tool_call_id": call.id, "content": "Sunny, 22C"}]
        final = client.chat.completions.create(model="gpt-5-mini", messages=answered,
                                               tools=tools)
    assert final.choices[0].message.content == "Sunny, 22C in Paris."
    assert len(weather.requests) == 2


def test_openai_responses(url: str) -> None:
    tools: Any = [{"type": "function", "name": "get_weather", "parameters": SCHEMA,
                   "strict": True}]
    with openai.OpenAI(base_url=url + "/v1", api_key="test", max_retries=0) as client:
        first = client.responses.create(model="gpt-5-mini", input=QUESTION, tools=tools,
                                        store=False, include=["reasoning.encrypted_content"])
        assert [item.type for item in first.output] == ["reasoning", "function_call"]
        reasoning, call = first.output
        history: Any = [{"role": "user", "content": QUESTION},
                        {"type": "reasoning", "id": reasoning.id, "summary": []}, call]
        with pytest.raises(openai.NotFoundError) as caught:
            client.responses.create(model="gpt-5-mini", tools=tools, store=False, input=[
                *history, {"type": "function_call_output", "call_id": call.call_id,
                           "output": "Sunny"}])
        assert "Items are not persisted when `store` is set to false" in caught.value.message
        history[1] = reasoning.model_dump(exclude_none=True)
        final = client.responses.create(model="gpt-5-mini", tools=tools, store=False, input=[
            *history, {"type": "function_call_output", "call_id": call.call_id,
                       "output": "Sunny"}])
    assert final.output_text == "Sunny, 22C in Paris."


def test_anthropic_messages(url: str) -> None:
    tools: Any = [{"name": "get_weather", "input_schema": SCHEMA}]
    question: Any = [{"role": "user", "content": QUESTION}]
    with anthropic.Anthropic(base_url=url, api_key="test", max_retries=0) as client:
        first = client.messages.create(model="claude-sonnet-4-6", max_tokens=1024,
                                       messages=question, tools=tools)
        assert [block.type for block in first.content] == ["thinking", "tool_use"]
        use = first.content[1]
        with pytest.raises(anthropic.BadRequestError) as caught:
            client.messages.create(model="claude-sonnet-4-6", max_tokens=1024, tools=tools,
                                   messages=[*question, {"role": "assistant",
                                                         "content": first.content}])
        assert caught.value.body["error"]["message"].startswith(
            "messages.1: `tool_use` ids were found without `tool_result` blocks")
        assert caught.value.request_id == caught.value.body["request_id"]
        final = client.messages.create(
            model="claude-sonnet-4-6", max_tokens=1024, tools=tools,
            messages=[*question, {"role": "assistant", "content": first.content},
                      {"role": "user", "content": [{"type": "tool_result",
                                                    "tool_use_id": use.id, "content": "Sunny"}]}])
    assert final.content[0].text == "Sunny, 22C in Paris."


def test_google_genai_generate_content(url: str) -> None:
    options = types.HttpOptions(base_url=url, api_version="v1beta")
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=[types.FunctionDeclaration(
            name="get_weather", parameters_json_schema=SCHEMA)])],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
    question = types.Content(role="user", parts=[types.Part(text=QUESTION)])
    answer = types.Content(role="user", parts=[types.Part.from_function_response(
        name="get_weather", response={"result": "Sunny"})])
    with genai.Client(api_key="test", http_options=options) as client:
        first = client.models.generate_content(model="gemini-2.5-flash", contents=[question],
                                               config=config)
        turn = first.candidates[0].content
        assert turn.parts[0].function_call.args == {"city": "Paris"}
        assert turn.parts[0].thought_signature  # the step has thinking
        unsigned = turn.model_copy(deep=True)
        unsigned.parts[0].thought_signature = None
        with pytest.raises(genai_errors.ClientError) as caught:
            client.models.generate_content(model="gemini-2.5-flash", config=config,
                                           contents=[question, unsigned, answer])
        assert (caught.value.code, caught.value.status) == (400, "INVALID_ARGUMENT")
        assert "missing a thought_signature" in caught.value.message
        final = client.models.generate_content(model="gemini-2.5-flash", config=config,
                                               contents=[question, turn, answer])
    assert final.candidates[0].content.parts[0].text == "Sunny, 22C in Paris."
