"""What a served model, or a Gemini API version, does not take: refused as the real API refuses it.

`check(provider, model, body)` raises `WireError` for the first such request, with the real status
and text: more output tokens than the model gives, reasoning on a model that does not reason, a
thinking mode the model lacks, function tools with reasoning on the Chat Completions of the GPT
models that refuse them, and a field the Gemini API version does not have. The facts come from
`harness.providers.catalog`; the rules every request meets, whatever its model, are in each API's
own module.
"""

from __future__ import annotations

from typing import Any

from harness.providers.catalog import PROVIDERS, ModelFacts, model_facts
from offline.emulator import anthropic, gemini, openai_chat
from offline.emulator._errors import WireError
from offline.emulator._models import dated_name
from offline.emulator._proto import read


def check(provider: str, model: str, body: dict[str, Any], *, version: str | None = None) -> None:
    """Raise `WireError` when `body` asks `model` for something it does not do.

    Example: `check("anthropic", "claude-haiku-4-5", {"thinking": {"type": "adaptive"}})` raises
    the API's 400 "adaptive thinking is not supported on this model".
    """
    if provider == "gemini" and version == "v1":
        _check_v1_fields(body)
    facts = model_facts(PROVIDERS[provider].family, model)
    if facts is None:
        return  # a model the emulator answers for without facts: nothing to hold it to
    if provider == "openai_chat":
        _check_chat(model, body, facts)
    elif provider == "openai_responses":
        _check_responses(body, facts)
    elif provider == "anthropic":
        _check_anthropic(model, body, facts)
    else:
        _check_gemini(body, facts)


def _openai(message: str, param: str, code: str | None = None) -> WireError:
    return WireError(400, openai_chat.error_body(400, "invalid_request_error", message,
                                                 param=param, code=code))


def _check_chat(model: str, body: dict[str, Any], facts: ModelFacts) -> None:
    for field in ("max_completion_tokens", "max_tokens"):
        asked = body.get(field)
        if isinstance(asked, int) and facts.max_output and asked > facts.max_output:
            # Real text for max_tokens (quoted in many clients' tests); the same for its successor.
            raise _openai(f"{field} is too large: {asked}. This model supports at most "
                          f"{facts.max_output} completion tokens, whereas you provided {asked}.",
                          field)
    effort = body.get("reasoning_effort")
    if effort is not None and not facts.thinking:
        # Real wording of this refusal for other parameters (temperature, parallel_tool_calls).
        raise _openai("Unsupported parameter: 'reasoning_effort' is not supported with this "
                      "model.", "reasoning_effort", "unsupported_parameter")
    functions = [t for t in body.get("tools") or [] if (t or {}).get("type") == "function"]
    if functions and facts.chat_tools_need_no_reasoning and (
            effort or facts.default_effort) != "none":
        # Real: GEMISIS/leviath#333 (gpt-5.6-terra), onyx-dot-app/onyx#15008 (gpt-6-sol); the
        # models that reason by default refuse even without reasoning_effort (BerriAI#34569).
        raise _openai(f"Function tools with reasoning_effort are not supported for {model} in "
                      "/v1/chat/completions. To use function tools, use /v1/responses or set "
                      "reasoning_effort to 'none'.", "reasoning_effort")


def _check_responses(body: dict[str, Any], facts: ModelFacts) -> None:
    if (body.get("reasoning") or {}).get("effort") is not None and not facts.thinking:
        # Real: BoundaryML/baml#2708 (gpt-4.1).
        raise _openai("Unsupported parameter: 'reasoning.effort' is not supported with this "
                      "model.", "reasoning.effort", "unsupported_parameter")


def _anthropic(message: str) -> WireError:
    return WireError(400, anthropic.error_body(400, "invalid_request_error", message))


def _check_anthropic(model: str, body: dict[str, Any], facts: ModelFacts) -> None:
    asked = body.get("max_tokens")
    if isinstance(asked, int) and facts.max_output and asked > facts.max_output:
        # Real text; it names the dated snapshot of an alias (claude-haiku-4-5-20251001).
        raise _anthropic(f"max_tokens: {asked} > {facts.max_output}, which is the maximum "
                         "allowed number of output tokens for "
                         f"{dated_name('anthropic', model)}")
    kind = (body.get("thinking") or {}).get("type")
    if kind == "adaptive" and kind not in facts.thinking:
        raise _anthropic("adaptive thinking is not supported on this model")  # askalf/dario#273
    if kind == "enabled" and kind not in facts.thinking:
        # Real: observed on claude-sonnet-5 (memberjunction's notes); Gemini-Nexus#42.
        raise _anthropic('"thinking.type.enabled" is not supported for this model. Use '
                         '"thinking.type.adaptive" and "output_config.effort" to control '
                         "thinking behavior.")


def _check_gemini(body: dict[str, Any], facts: ModelFacts) -> None:
    config = read(read(body, "generationConfig"), "thinkingConfig")
    if not isinstance(config, dict):
        return
    budget = read(config, "thinkingBudget")
    asks = budget not in (None, 0) or read(config, "includeThoughts") or read(
        config, "thinkingLevel")
    if not facts.thinking and asks:
        # Real: googleapis/js-genai#681 (the Developer API on a model that does not think).
        raise WireError(400, gemini.error_body(
            400, "INVALID_ARGUMENT", "Unable to submit request because thinking is not "
            "supported by this model. Learn more: "
            "https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini"))
    if budget == 0 and facts.thinking and "off" not in facts.thinking:
        # Real text for gemini-2.5-pro and 3.1 Pro, quoted in many clients' code and notes.
        raise WireError(400, gemini.error_body(
            400, "INVALID_ARGUMENT", "Budget 0 is invalid. This model only works in thinking "
            "mode."))


V1_MISSING = ("cachedContent", "cached_content")
"""Request fields the v1 protos lack. Our reading: the CachedContent resource is served on v1beta
only (ai.google.dev/api/caching); the shape is v1's real one for unknown fields (vercel/ai#2256)."""


def _check_v1_fields(body: dict[str, Any]) -> None:
    for name in V1_MISSING:
        if name in body:
            text = f'Invalid JSON payload received. Unknown name "{name}": Cannot find field.'
            raise WireError(400, gemini.error_body(400, "INVALID_ARGUMENT", text, details=[
                {"@type": "type.googleapis.com/google.rpc.BadRequest",
                 "fieldViolations": [{"description": text}]}]))
