"""The package contract: the registry, one adapter shape, a neutral core, the loop on top."""

from __future__ import annotations

import inspect
import json
import ssl

import httpx
import pytest

from harness import providers
from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED, run
from harness.messages import Model, SystemMessage, UserMessage
from harness.providers import (
    ADAPTERS,
    PROVIDERS,
    Anthropic,
    Gemini,
    OpenAIChat,
    OpenAIResponses,
    anthropic,
    catalog,
    gemini,
    openai_chat,
    openai_responses,
)
from harness.tools import Toolbox
from harness.trace import Exit

from . import test_anthropic, test_gemini, test_openai_chat, test_openai_responses
from ._support import LISBON, QUESTION, SYSTEM, Recorder

MODULES = {"openai_chat": openai_chat, "openai_responses": openai_responses,
           "anthropic": anthropic, "gemini": gemini}
SHARED_NAMES = ["_to_wire", "_map_messages", "_map_message", "_map_tools", "_map_tool_choice",
                "_from_wire", "_map_stop_reason", "_map_usage", "_map_error", "to_wire",
                "from_wire"]
DEFAULTS = {"openai_chat": ("gpt-5-mini", "https://api.openai.com/v1"),
            "openai_responses": ("gpt-5-mini", "https://api.openai.com/v1"),
            "anthropic": ("claude-sonnet-4-6", "https://api.anthropic.com/v1"),
            "gemini": ("gemini-2.5-flash", "https://generativelanguage.googleapis.com/v1beta")}


def test_registry_names_match_the_classes():
    assert ADAPTERS == {"openai_chat": OpenAIChat, "openai_responses": OpenAIResponses,
                        "anthropic": Anthropic, "gemini": Gemini}
    assert all(cls.name == name for name, cls in ADAPTERS.items())
    assert list(PROVIDERS) == list(ADAPTERS), "one table entry for each adapter, in one order"


def test_every_provider_fact_comes_from_the_table():
    for name, entry in PROVIDERS.items():
        module = MODULES[name]
        assert (module.NAME, module.DEFAULT_MODEL, module.BASE_URL) == (
            entry.name, entry.default_model, entry.base_url)
        assert entry.live_model in catalog.MODELS[entry.family]
        assert entry.default_model in catalog.MODELS[entry.family]
    assert anthropic.API_VERSION == PROVIDERS["anthropic"].api_version
    assert set(catalog.PRICES) <= {m for models in catalog.MODELS.values() for m in models}


def test_get_passes_options_and_rejects_unknown_names():
    model = providers.get("gemini", api_key="k", max_output_tokens=64, thinking_budget=0)
    assert (type(model), model.max_output_tokens, model.thinking_budget) == (Gemini, 64, 0)
    with pytest.raises(ValueError, match="openai_chat, openai_responses, anthropic, gemini"):
        providers.get("openai")


@pytest.mark.parametrize("name", PROVIDERS)
def test_every_adapter_has_the_same_shape(name):
    module, cls = MODULES[name], ADAPTERS[name]
    assert all(callable(getattr(module, attr, None)) for attr in SHARED_NAMES)
    assert inspect.signature(cls.complete) == inspect.signature(Model.complete)
    parameters = inspect.signature(cls).parameters.values()
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters)
    model = cls(api_key="k")
    assert (model.model, model.base_url, model.max_output_tokens) == (*DEFAULTS[name], 1024)
    assert isinstance(model.client, httpx.Client)


def test_default_clients_share_one_verifying_tls_context(monkeypatch):
    from harness.providers import _http

    real, built = ssl.create_default_context, []
    monkeypatch.setattr(ssl, "create_default_context",
                        lambda *args, **kwargs: built.append(real(*args, **kwargs)) or built[-1])
    _http._tls.cache_clear()
    try:
        for cls in [*ADAPTERS.values(), *ADAPTERS.values()]:
            cls(api_key="k").client.close()
        assert len(built) == 1  # httpx builds one per client unless it is handed one
        assert (built[0].verify_mode, built[0].check_hostname) == (ssl.CERT_REQUIRED, True)
    finally:
        _http._tls.cache_clear()


@pytest.mark.parametrize("name", PROVIDERS)
def test_adapter_modules_stay_small(name):
    # About 250 lines: one format's whole client side. A little room over it, so that a typed
    # local goes on a line of its own rather than being packed to fit (Gemini's is 252).
    assert len(inspect.getsource(MODULES[name]).splitlines()) <= 255


def get_forecast(city: str, day: str) -> str:
    """Get the weather forecast for a city and day."""
    return f"{city}, {day}: light rain, 14 C"


# For each adapter: a reply asking for get_forecast, a final answer, and where the tool choice
# sits in the request body.
CASES = {
    "openai_chat": (test_openai_chat.CALL, test_openai_chat.ANSWER,
                    lambda body: body["tool_choice"]),
    "openai_responses": (test_openai_responses.response([test_openai_responses.REASONING,
                                                         test_openai_responses.FUNCTION_CALL]),
                         test_openai_responses.ANSWER, lambda body: body["tool_choice"]),
    "anthropic": (test_anthropic.message([test_anthropic.TOOL_USE], "tool_use"),
                  test_anthropic.ANSWER, lambda body: body["tool_choice"]["type"]),
    "gemini": (test_gemini.generated([{"functionCall": {"name": "get_forecast", "args": LISBON},
                                       "thoughtSignature": test_gemini.SIGNATURE}]),
               test_gemini.ANSWER,
               lambda body: body["toolConfig"]["functionCallingConfig"]["mode"].lower()),
}


@pytest.mark.parametrize("name", PROVIDERS)
def test_the_loop_runs_on_every_adapter_and_closes_at_the_cap(name):
    call, answer, choice = CASES[name]
    recorder = Recorder(httpx.Response(200, json=call), httpx.Response(200, json=answer))
    model = providers.get(name, client=recorder.client, api_key="k")
    result = run(model, Toolbox.of(get_forecast),
                 [SystemMessage(content=SYSTEM), UserMessage(content=QUESTION)], max_turns=1)
    assert (result.status, result.answer) == (
        Exit.TURN_CAP, "Yes: light rain is forecast in Lisbon tomorrow.")
    first, closing = (json.loads(request.content) for request in recorder.requests)
    assert (choice(first), choice(closing)) == ("auto", "none")
    assert CLOSING_INSTRUCTION in json.dumps(closing)
    assert CLOSING_INSTRUCTION not in json.dumps(first)
    assert NOT_EXECUTED in json.dumps(closing)  # the pending call was answered, not run
