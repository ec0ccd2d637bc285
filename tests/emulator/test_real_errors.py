"""The errors a first live run meets, as each API really answers them: a missing or wrong key, an
unknown model and a rate limit; and what the adapters and the official SDKs make of them."""

from __future__ import annotations

from typing import Any

import anthropic
import httpx
import openai
import pytest
from anthropic.types.shared import ErrorResponse
from google import genai
from google.genai import errors as genai_errors
from google.genai import types as genai_types
from openai.types.shared import ErrorObject

from harness import providers
from harness.errors import ProviderError
from harness.messages import UserMessage
from offline.emulator import DEFAULT_RETRY_AFTER, OFFLINE_KEY, Emulator, serve
from offline.scripted import ScriptedModel, Step
from tests.emulator.test_emulator import first_request, send

APIS = ["chat", "responses", "anthropic", "gemini"]
ADAPTERS = {"chat": "openai_chat", "responses": "openai_responses", "anthropic": "anthropic",
            "gemini": "gemini"}
GOOGLE = "https://generativelanguage.googleapis.com/v1beta/models/"
RATE_LIMITED = ProviderError(429, "rate_limit_error", "slow down", retry_after=7.0)


def key_headers(api: str, key: str) -> dict[str, str]:
    return {"anthropic": {"x-api-key": key}, "gemini": {"x-goog-api-key": key}}.get(
        api, {"authorization": f"Bearer {key}"})


def with_model(api: str, model: str) -> tuple[str, dict[str, Any]]:
    url, body = first_request(api)
    if api == "gemini":
        return f"{GOOGLE}{model}:generateContent", body
    return url, body | {"model": model}


def message_of(api: str, response: httpx.Response) -> str:
    if api == "anthropic":
        return ErrorResponse.model_validate(response.json()).error.message
    if api == "gemini":
        return response.json()["error"]["message"]
    return ErrorObject.model_validate(response.json()["error"]).message


MISSING_KEY = {
    "chat": (401, "You didn't provide an API key. You need to provide your API key in an "
                  "Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), "
                  "or as the password field (with blank username) if you're accessing the API "
                  "from your browser and are prompted for a username and password. You can "
                  "obtain an API key from https://platform.openai.com/account/api-keys."),
    "anthropic": (401, "x-api-key header is required"),
    "gemini": (403, "Method doesn't allow unregistered callers (callers without established "
                    "identity). Please use API Key or other form of API consumer identity to "
                    "call this API."),
}
MISSING_KEY["responses"] = MISSING_KEY["chat"]
WRONG_KEY = {
    "chat": (401, "Incorrect API key provided: sk-***************7890. You can find your API "
                  "key at https://platform.openai.com/account/api-keys."),
    "anthropic": (401, "invalid x-api-key"),
    "gemini": (400, "API key not valid. Please pass a valid API key."),
}
WRONG_KEY["responses"] = WRONG_KEY["chat"]
UNKNOWN_MODEL = {  # Responses answers 400, naming the param, where Chat answers 404
    "chat": (404, "The model `gpt-9` does not exist or you do not have access to it."),
    "responses": (400, "The requested model 'gpt-9' does not exist."),
    "anthropic": (404, "model: gpt-9"),
    "gemini": (404, "models/gpt-9 is not found for API version v1beta, or is not supported for "
                    "generateContent. Call ModelService.ListModels to see the list of available "
                    "models and their supported methods."),
}


@pytest.mark.parametrize("api", APIS)
def test_a_missing_key_gets_the_real_status_and_text(api: str) -> None:
    url, body = first_request(api)
    response = send(Emulator(ScriptedModel([]), api_key="sk-right"), url, json=body)
    assert (response.status_code, message_of(api, response)) == MISSING_KEY[api]


@pytest.mark.parametrize("api", APIS)
def test_a_wrong_key_gets_the_real_status_and_text(api: str) -> None:
    url, body = first_request(api)
    response = send(Emulator(ScriptedModel([]), api_key="sk-right"), url, json=body,
                    headers=key_headers(api, "sk-abcdefghij1234567890"[:3] + "x" * 15 + "7890"))
    assert (response.status_code, message_of(api, response)) == WRONG_KEY[api]
    if api == "gemini":
        assert response.json()["error"]["status"] == "INVALID_ARGUMENT"
        assert response.json()["error"]["details"][0]["reason"] == "API_KEY_INVALID"


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("key", ["sk-right", OFFLINE_KEY])
def test_the_configured_key_and_the_offline_key_are_accepted(api: str, key: str) -> None:
    url, body = first_request(api)
    emulator = Emulator(ScriptedModel([Step.say("Hi")]), api_key="sk-right")
    assert send(emulator, url, json=body, headers=key_headers(api, key)).status_code == 200


@pytest.mark.parametrize("api", APIS)
def test_an_unknown_model_gets_the_real_status_and_text(api: str) -> None:
    url, body = with_model(api, "gpt-9")
    emulator = Emulator(ScriptedModel([Step.say("never sent")]))
    response = send(emulator, url, json=body)
    assert (response.status_code, message_of(api, response)) == UNKNOWN_MODEL[api]
    assert emulator.model.unconsumed == 1  # refused before the model was asked
    if api in ("chat", "responses"):
        assert response.json()["error"]["code"] == "model_not_found"


@pytest.mark.parametrize("api", ["chat", "anthropic", "gemini"])
def test_a_dated_snapshot_of_a_known_model_is_served(api: str) -> None:
    snapshot = {"chat": "gpt-5-mini-2025-08-07", "anthropic": "claude-haiku-4-5-20251001",
                "gemini": "gemini-2.5-flash"}[api]
    url, body = with_model(api, snapshot)
    assert send(Emulator(ScriptedModel([Step.say("Hi")])), url, json=body).status_code == 200


def test_a_rate_limit_answers_like_each_provider() -> None:
    answers = {}
    for api in APIS:
        url, body = first_request(api)
        answers[api] = send(Emulator(ScriptedModel([Step(error=RATE_LIMITED)])), url, json=body)
    chat = answers["chat"]
    assert chat.status_code == 429 and chat.headers["retry-after"] == "7"
    assert chat.headers["x-ratelimit-remaining-tokens"] == "0"
    error = ErrorObject.model_validate(chat.json()["error"])
    assert (error.type, error.code) == ("tokens", "rate_limit_exceeded")
    assert error.message.startswith("Rate limit reached for gpt-5-mini in organization ")
    assert "Please try again in 7s." in error.message
    claude = answers["anthropic"]
    assert claude.headers["retry-after"] == "7"
    assert claude.headers["anthropic-ratelimit-input-tokens-remaining"] == "0"
    assert ErrorResponse.model_validate(claude.json()).error.type == "rate_limit_error"
    assert message_of("anthropic", claude).startswith(
        "This request would exceed the rate limit for your organization (")
    google = answers["gemini"].json()["error"]
    assert "retry-after" not in answers["gemini"].headers  # Google puts the wait in the body
    assert (google["code"], google["status"]) == (429, "RESOURCE_EXHAUSTED")
    assert google["message"].startswith("You exceeded your current quota, please check your "
                                        "plan and billing details.")
    assert google["details"][-1] == {"@type": "type.googleapis.com/google.rpc.RetryInfo",
                                     "retryDelay": "7s"}


@pytest.mark.parametrize("api", APIS)
def test_the_adapter_turns_a_429_into_a_provider_error_with_its_wait(api: str) -> None:
    script = [Step(error=RATE_LIMITED), Step(error=ProviderError(429, "x", "no wait given"))]
    emulator = Emulator(ScriptedModel(script))
    with httpx.Client(transport=emulator) as client:
        model = providers.get(ADAPTERS[api], client=client, api_key=OFFLINE_KEY)
        waits = []
        for _ in script:
            with pytest.raises(ProviderError) as caught:
                model.complete([UserMessage(content="Hi")])
            assert caught.value.status == 429 and caught.value.provider == ADAPTERS[api]
            waits.append(caught.value.retry_after)
    assert waits == [7.0, DEFAULT_RETRY_AFTER]


@pytest.mark.parametrize("api", APIS)
def test_the_adapter_reports_a_wrong_key_and_an_unknown_model(api: str) -> None:
    emulator = Emulator(ScriptedModel([]), api_key="sk-right")
    with httpx.Client(transport=emulator) as client:
        wrong = providers.get(ADAPTERS[api], client=client, api_key="sk-wrong")
        with pytest.raises(ProviderError) as caught:
            wrong.complete([UserMessage(content="Hi")])
        assert (caught.value.status, caught.value.message) == WRONG_KEY[api][:1] + (
            message_of(api, httpx.Response(caught.value.status, json=caught.value.body)),)
        assert caught.value.retry_after is None
        unknown = providers.get(ADAPTERS[api], client=client, api_key="sk-right", model="gpt-9")
        with pytest.raises(ProviderError) as caught:
            unknown.complete([UserMessage(content="Hi")])
        assert (caught.value.status, caught.value.message) == UNKNOWN_MODEL[api]


def test_the_official_clients_raise_their_own_errors() -> None:
    question = [{"role": "user", "content": "Hi"}]
    emulator = Emulator(ScriptedModel([Step(error=RATE_LIMITED)] * 2), api_key="sk-right")
    with serve(emulator) as url:
        with openai.OpenAI(base_url=url + "/v1", api_key="sk-wrong", max_retries=0) as client, \
                pytest.raises(openai.AuthenticationError):
            client.chat.completions.create(model="gpt-5-mini", messages=question)
        with openai.OpenAI(base_url=url + "/v1", api_key="sk-right", max_retries=0) as client, \
                pytest.raises(openai.NotFoundError):
            client.chat.completions.create(model="gpt-9", messages=question)
        with anthropic.Anthropic(base_url=url, api_key="sk-right", max_retries=0) as client, \
                pytest.raises(anthropic.RateLimitError) as caught:
            client.messages.create(model="claude-sonnet-4-6", max_tokens=64, messages=question)
        assert caught.value.response.headers["retry-after"] == "7"
        client = genai.Client(api_key="sk-right", http_options=genai_types.HttpOptions(
            base_url=url, api_version="v1beta"))
        with pytest.raises(genai_errors.ClientError) as google:
            client.models.generate_content(model="gemini-2.5-flash", contents="Hi")
        assert (google.value.code, google.value.status) == (429, "RESOURCE_EXHAUSTED")


@pytest.mark.parametrize("provider", list(ADAPTERS.values()))
def test_the_recorded_rate_limit_ends_the_loop_with_error_and_the_wait(provider: str) -> None:
    from harness.trace import Exit
    from offline.replay import replay_scenario

    result = replay_scenario(provider, "rate_limited")
    assert result.status is Exit.ERROR and result.turns == 2  # no retry inside the loop
    assert (result.error.status, result.error.retry_after) == (429, 20.0)
    assert result.calls[-1].error is result.error and result.calls[-1].reply is None
