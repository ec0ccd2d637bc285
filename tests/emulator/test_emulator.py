"""The emulator as a whole: routing, unknown paths, bad JSON, errors, determinism, usage."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from anthropic.types.shared import ErrorResponse
from openai.types.shared import ErrorObject

from harness.errors import ProviderError
from harness.messages import ToolCall
from offline.emulator import Emulator, serve
from offline.errors import ScriptError
from offline.scripted import ScriptedModel, Step

CHAT = "https://api.openai.com/v1/chat/completions"
RESPONSES = "https://api.openai.com/v1/responses"
MESSAGES = "https://api.anthropic.com/v1/messages"
GEMINI = ("https://generativelanguage.googleapis.com/v1beta/models/gemini-3-flash-preview"
          ":generateContent")
TOOL = {"name": "get_weather", "description": "Weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}


def first_request(api: str, text: str = "Weather in Paris?") -> tuple[str, dict[str, Any]]:
    """A first request with one tool, for each API."""
    if api == "chat":
        return CHAT, {"model": "gpt-5-mini", "messages": [{"role": "user", "content": text}],
                      "tools": [{"type": "function", "function": TOOL}]}
    if api == "responses":
        return RESPONSES, {"model": "gpt-5-mini", "input": text, "store": False,
                           "include": ["reasoning.encrypted_content"],
                           "tools": [{"type": "function", **TOOL, "strict": False}]}
    if api == "anthropic":
        schema = {"name": TOOL["name"], "input_schema": TOOL["parameters"]}
        return MESSAGES, {"model": "claude-sonnet-4-6", "max_tokens": 512, "tools": [schema],
                          "messages": [{"role": "user", "content": text}]}
    return GEMINI, {"contents": [{"role": "user", "parts": [{"text": text}]}],
                    "tools": [{"functionDeclarations": [
                        {"name": TOOL["name"], "parametersJsonSchema": TOOL["parameters"]}]}]}


APIS = ["chat", "responses", "anthropic", "gemini"]


def script() -> list[Step]:
    return [Step.call_many(("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Rome"}),
                           thinking="Two cities."), Step.say("Sunny.", thinking="Done.")]


def send(emulator: Emulator, url: str, **options: Any) -> httpx.Response:
    with httpx.Client(transport=emulator) as client:
        return client.post(url, **options)


@pytest.mark.parametrize("api", APIS)
def test_same_seed_same_script_gives_identical_bytes(api: str) -> None:
    url, body = first_request(api)
    runs = [send(Emulator(ScriptedModel(script()), seed="lesson-3"), url, json=body).content
            for _ in range(2)]
    assert runs[0] == runs[1]
    other = send(Emulator(ScriptedModel(script()), seed="lesson-4"), url, json=body).content
    assert other != runs[0]


def test_unknown_paths_answer_in_each_providers_shape() -> None:
    emulator = Emulator(ScriptedModel([]))
    openai_404 = send(emulator, "https://api.openai.com/v1/chat/completion", json={})
    assert openai_404.status_code == 404
    assert ErrorObject.model_validate(openai_404.json()["error"]).message == (
        "Invalid URL (POST /v1/chat/completion)")
    anthropic_404 = send(emulator, "https://api.anthropic.com/v1/complete", json={},
                         headers={"anthropic-version": "2023-06-01"})
    error = ErrorResponse.model_validate(anthropic_404.json())
    assert (anthropic_404.status_code, error.error.type, error.error.message) == (
        404, "not_found_error", "Not Found")
    google_404 = send(emulator, "https://generativelanguage.googleapis.com/v1/models/"
                                "gemini-2.5-flash:countTokens", json={})
    assert google_404.status_code == 404
    assert google_404.json() == {"error": {
        "code": 404, "status": "NOT_FOUND",
        "message": "models/gemini-2.5-flash is not found for API version v1, or is not "
                   "supported for countTokens. Call ModelService.ListModels to see the list "
                   "of available models and their supported methods."}}


def test_an_openai_models_path_gets_the_openai_shape() -> None:
    with httpx.Client(transport=Emulator(ScriptedModel([]))) as client:
        response = client.get("https://api.openai.com/v1/models/gpt-5-mini")
    assert response.json()["error"]["message"] == "Invalid URL (GET /v1/models/gpt-5-mini)"


@pytest.mark.parametrize("api", APIS)
def test_a_request_of_the_wrong_shape_is_a_400_not_a_crash(api: str) -> None:
    url, body = first_request(api)
    key = {"chat": "messages", "responses": "input", "anthropic": "messages",
           "gemini": "contents"}[api]
    body[key] = ["just a string"] if api != "responses" else [{"role": "user"}, 42]
    response = send(Emulator(ScriptedModel([Step.say("Hi")])), url, json=body)
    assert response.status_code == 400
    assert "(emulator) This request does not have the shape" in response.text


def test_get_on_a_known_path_is_not_found() -> None:
    with httpx.Client(transport=Emulator(ScriptedModel([]))) as client:
        response = client.get(CHAT)
    assert response.status_code == 404
    assert response.json()["error"]["message"] == "Invalid URL (GET /v1/chat/completions)"


def test_invalid_json_in_each_providers_shape() -> None:
    emulator = Emulator(ScriptedModel([]))
    anthropic_400 = send(emulator, MESSAGES, content=b'{"model": }')
    assert anthropic_400.json()["error"]["message"] == (
        "The request body is not valid JSON: expecting value: line 1 column 11 (char 10)")
    google_400 = send(emulator, GEMINI, content=b'{"contents": [}')
    assert google_400.json()["error"] == {
        "code": 400, "status": "INVALID_ARGUMENT",
        "message": 'Invalid JSON payload received. Unexpected token.\n{"contents": [}\n'
                   "              ^"}


@pytest.mark.parametrize("api", APIS)
def test_a_scripted_provider_error_keeps_its_status(api: str) -> None:
    error = ProviderError(500, "api_error", "Internal server error.")
    url, body = first_request(api)
    response = send(Emulator(ScriptedModel([Step(error=error)])), url, json=body)
    assert response.status_code == 500
    payload = response.json()
    if api == "anthropic":
        assert ErrorResponse.model_validate(payload).error.type == "api_error"
    elif api == "gemini":
        assert payload["error"]["status"] == "INTERNAL"
    else:
        assert ErrorObject.model_validate(payload["error"]).message == "Internal server error."


def test_a_call_the_script_does_not_have_raises_in_process() -> None:
    url, body = first_request("chat")
    with pytest.raises(ScriptError):
        send(Emulator(ScriptedModel([])), url, json=body)


def test_scripted_ids_are_replaced_by_realistic_ones() -> None:
    step = Step(calls=(ToolCall(id="my_id", name="get_weather", arguments={"city": "Paris"}),))
    url, body = first_request("chat")
    reply = send(Emulator(ScriptedModel([step])), url, json=body).json()
    assert reply["choices"][0]["message"]["tool_calls"][0]["id"] != "my_id"


def grow(api: str, turns: int) -> list[dict[str, Any]]:
    """Send a growing transcript `turns` times; returns the usage blocks."""
    emulator = Emulator(ScriptedModel([Step.say("x" * 400) for _ in range(turns)]))
    url, body = first_request(api, "Tell me about Lisbon. " * 20)
    usages = []
    for _ in range(turns):
        reply = send(emulator, url, json=body).json()
        usages.append(reply.get("usage") or reply.get("usageMetadata"))
        if api == "chat":
            body["messages"] += [reply["choices"][0]["message"],
                                 {"role": "user", "content": "More, please."}]
        else:
            body["contents"] += [reply["candidates"][0]["content"],
                                 {"role": "user", "parts": [{"text": "More, please."}]}]
    return usages


def test_input_grows_with_the_transcript_and_the_cache_starts_at_1024() -> None:
    usages = grow("chat", 12)
    inputs = [usage["prompt_tokens"] for usage in usages]
    assert inputs == sorted(inputs) and len(set(inputs)) == len(inputs)
    cached = [usage["prompt_tokens_details"]["cached_tokens"] for usage in usages]
    first_cached = next(index for index, tokens in enumerate(cached) if tokens)
    assert cached[:first_cached] == [0] * first_cached
    # The shared prefix is at most the previous request, and is counted from 1,024 tokens on.
    assert cached[first_cached] >= 1024 and inputs[first_cached - 1] >= 1024
    assert all(tokens % 128 == 0 and tokens < total
               for tokens, total in zip(cached, inputs, strict=True))
    assert cached == sorted(cached)
    assert usages[0]["completion_tokens"] == 100


def test_gemini_reports_cached_content_once_there_is_some() -> None:
    usages = grow("gemini", 24)  # gemini-2.5-flash caches implicitly from 2,048 tokens
    cached = [usage.get("cachedContentTokenCount", 0) for usage in usages]
    first = next(index for index, tokens in enumerate(cached) if tokens)
    assert cached[:first] == [0] * first and usages[first - 1]["promptTokenCount"] >= 2048
    assert cached[first] >= 2048 and cached == sorted(cached)
    assert any(tokens % 128 for tokens in cached[first:])  # no 128-token steps on Gemini


def test_every_exchange_is_kept() -> None:
    emulator = Emulator(ScriptedModel([Step.say("Hi")]))
    url, body = first_request("anthropic")
    send(emulator, url, json={"model": "claude-sonnet-4-6", "messages": []})
    send(emulator, url, json=body)
    assert [(e.status, e.path) for e in emulator.exchanges] == [(400, "/v1/messages"),
                                                                 (200, "/v1/messages")]
    assert emulator.exchanges[1].request == body


def test_the_loopback_server_reports_a_script_error_without_inviting_retries() -> None:
    url, body = first_request("anthropic")
    with serve(Emulator(ScriptedModel([]))) as base, httpx.Client(base_url=base) as client:
        response = client.post("/v1/messages", json=body)
    assert (response.status_code, response.headers["x-should-retry"]) == (500, "false")
    assert ErrorResponse.model_validate(response.json()).error.message.startswith(
        "ScriptedModel: call 1 was not scripted")


def test_the_loopback_server_reads_chunked_bodies() -> None:
    url, body = first_request("chat")
    chunks = [json.dumps(body).encode()[:20], json.dumps(body).encode()[20:]]
    with serve(Emulator(ScriptedModel([Step.say("Hi")]))) as base, \
            httpx.Client(base_url=base) as client:
        response = client.post("/v1/chat/completions", content=iter(chunks))
    assert response.json()["choices"][0]["message"]["content"] == "Hi"
