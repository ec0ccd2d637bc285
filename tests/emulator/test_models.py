"""The models the emulator serves and what they take, from the provider table, each refusal with
the real status and text: names outside the catalogue, retired ones, the wrong wire format or API
version, and what a served model does not do (output limits, reasoning, thinking modes)."""

from __future__ import annotations

from typing import Any

import pytest

from harness.providers import catalog
from offline.emulator import Emulator
from offline.scripted import ScriptedModel, Step
from tests.emulator.test_emulator import first_request, send

GOOGLE = "https://generativelanguage.googleapis.com/{version}/models/{model}:generateContent"


def answer(api: str, model: str, *, version: str = "v1beta", **fields: Any) -> tuple[int, Any]:
    """(status, error message or None) for the API's first request on `model`, with `fields`."""
    url, body = first_request(api)
    if api == "gemini":
        url = GOOGLE.format(version=version, model=model)
    else:
        body["model"] = model
    emulator = Emulator(ScriptedModel([Step.say("ok")]))
    response = send(emulator, url, json={**body, **fields})
    if response.status_code == 200:
        assert emulator.model.unconsumed == 0
        return 200, None
    assert emulator.model.unconsumed == 1, "refused before the model was asked"
    return response.status_code, response.json()["error"]["message"]


@pytest.mark.parametrize(("api", "model"), [
    ("responses", "gpt-5.6"), ("chat", "gpt-5.5-2026-04-23"), ("chat", "gpt-4.1-mini-2025-04-14"),
    ("responses", "gpt-5-pro"), ("responses", "o3-pro-2025-06-10"), ("responses", "gpt-6-sol"),
    ("anthropic", "claude-opus-4-8"), ("anthropic", "claude-haiku-4-5-20251001"),
    ("anthropic", "claude-fable-5-2"), ("gemini", "gemini-flash-latest"),
    ("gemini", "gemini-3.1-pro-preview-customtools"), ("gemini", "gemma-4-31b-it"),
])
def test_real_names_snapshots_and_aliases_are_served(api: str, model: str) -> None:
    assert answer(api, model) == (200, None)


def test_a_shut_down_openai_model_gets_the_deprecation_text() -> None:
    for api in ("chat", "responses"):
        assert answer(api, "o4-mini") == (404, "The model `o4-mini` has been deprecated, learn "
                                                "more here: https://platform.openai.com/docs/"
                                                "deprecations")


def test_retired_anthropic_and_gemini_models_get_their_not_found_text() -> None:
    assert answer("anthropic", "claude-sonnet-4-20250514") == (
        404, "model: claude-sonnet-4-20250514")
    status, message = answer("gemini", "gemini-2.0-flash")
    assert (status, message.split(" is not found")[0]) == (404, "models/gemini-2.0-flash")


def test_each_openai_format_points_to_the_other_for_a_model_it_does_not_serve() -> None:
    assert answer("chat", "gpt-5-pro") == (
        404, "This model is only supported in v1/responses and not in v1/chat/completions.")
    assert answer("responses", "gpt-audio-mini") == (
        400, "The requested model 'gpt-audio-mini' is not supported with the Responses API.")


def test_gemini_v1_serves_stable_models_but_not_previews_nor_cached_content() -> None:
    assert answer("gemini", "gemini-2.5-flash", version="v1") == (200, None)
    status, message = answer("gemini", "gemini-3-flash-preview", version="v1")
    assert status == 404 and message.startswith(
        "models/gemini-3-flash-preview is not found for API version v1, or is not supported")
    assert answer("gemini", "gemini-3-flash-preview") == (200, None)  # v1beta
    assert answer("gemini", "gemini-2.5-flash", version="v1", cachedContent="cachedContents/c1"
                  ) == (400, 'Invalid JSON payload received. Unknown name "cachedContent": '
                             "Cannot find field.")


def test_function_tools_with_reasoning_are_refused_on_chat_for_the_newest_gpt_models() -> None:
    refusal = ("Function tools with reasoning_effort are not supported for {} in "
               "/v1/chat/completions. To use function tools, use /v1/responses or set "
               "reasoning_effort to 'none'.")
    assert answer("chat", "gpt-5.6-terra") == (400, refusal.format("gpt-5.6-terra"))  # default
    assert answer("chat", "gpt-5.6-terra", reasoning_effort="none") == (200, None)
    assert answer("chat", "gpt-5.4", reasoning_effort="low") == (400, refusal.format("gpt-5.4"))
    assert answer("chat", "gpt-5.4") == (200, None)  # its default effort is none
    assert answer("chat", "gpt-5-mini", reasoning_effort="high") == (200, None)
    assert answer("responses", "gpt-5.6-terra", reasoning={"effort": "high"}) == (200, None)


def test_reasoning_on_a_model_that_does_not_reason_is_an_unsupported_parameter() -> None:
    assert answer("chat", "gpt-4o", reasoning_effort="low") == (
        400, "Unsupported parameter: 'reasoning_effort' is not supported with this model.")
    assert answer("responses", "gpt-4.1", reasoning={"effort": "low"}) == (
        400, "Unsupported parameter: 'reasoning.effort' is not supported with this model.")


def test_more_output_than_the_model_gives_names_its_limit() -> None:
    assert answer("anthropic", "claude-haiku-4-5", max_tokens=999_999) == (
        400, "max_tokens: 999999 > 64000, which is the maximum allowed number of output tokens "
             "for claude-haiku-4-5-20251001")
    assert answer("chat", "gpt-4o", max_completion_tokens=65_536) == (
        400, "max_completion_tokens is too large: 65536. This model supports at most 16384 "
             "completion tokens, whereas you provided 65536.")


def test_each_claude_takes_only_its_own_thinking_modes() -> None:
    adaptive, enabled = {"type": "adaptive"}, {"type": "enabled", "budget_tokens": 1024}
    assert answer("anthropic", "claude-haiku-4-5", max_tokens=2048, thinking=adaptive) == (
        400, "adaptive thinking is not supported on this model")
    assert answer("anthropic", "claude-sonnet-5", max_tokens=2048, thinking=enabled) == (
        400, '"thinking.type.enabled" is not supported for this model. Use '
             '"thinking.type.adaptive" and "output_config.effort" to control thinking behavior.')
    for thinking in (adaptive, enabled):
        assert answer("anthropic", "claude-sonnet-4-6", max_tokens=2048,
                      thinking=thinking) == (200, None)


def test_gemini_thinking_where_the_model_cannot_or_must_think() -> None:
    def thinking(budget: int) -> dict[str, Any]:
        return {"generationConfig": {"thinkingConfig": {"thinkingBudget": budget}}}

    status, message = answer("gemini", "gemini-2.5-flash-image", **thinking(512))
    assert (status, message.split(". Learn more")[0]) == (
        400, "Unable to submit request because thinking is not supported by this model")
    assert answer("gemini", "gemini-2.5-pro", **thinking(0)) == (
        400, "Budget 0 is invalid. This model only works in thinking mode.")
    assert answer("gemini", "gemini-2.5-flash", **thinking(0)) == (200, None)


def test_the_table_holds_together() -> None:
    for family, aliases in catalog.ALIASES.items():
        assert set(aliases.values()) <= set(catalog.MODELS[family]), family
        assert not set(aliases) & set(catalog.MODELS[family]), family
    for family, retired in catalog.RETIRED.items():
        assert not {m for m in retired if catalog.canonical(family, m)}, family
        assert all(date <= catalog.AS_OF for date in retired.values()), family
    for entry in catalog.PROVIDERS.values():  # the kit's own models are all served
        assert catalog.model_facts(entry.family, entry.default_model)
        assert catalog.model_facts(entry.family, entry.live_model)
