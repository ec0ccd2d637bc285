"""What each API answers before it reads a request, and when the account is over its limit.

A missing or wrong key, a model the provider does not serve (unknown, retired, served by another
wire format or API version: `_models.unserved`), and a rate limit: the commonest ends
of a first live run. Each provider has its own status, envelope, text and headers for them (real
texts from public bug reports and recordings, quoted in the comments); OpenAI Chat and Responses
share OpenAI's. `REFUSALS` maps a provider family (`api.FAMILY`) to its answers. The numbers in
the 429 texts describe the emulated account, not a real one.
"""

from __future__ import annotations

import math
from typing import Any

from offline.emulator import anthropic, gemini, openai_chat
from offline.emulator._errors import WireError
from offline.emulator._models import Reason


def _bearer(headers: dict[str, str]) -> str:
    scheme, _, key = headers.get("authorization", "").partition(" ")
    return key.strip() if scheme == "Bearer" else ""


class OpenAI:
    """Chat Completions and Responses."""

    TOKENS_PER_MINUTE = 30_000

    @staticmethod
    def api_key(headers: dict[str, str], query: dict[str, str]) -> str | None:
        return _bearer(headers) or None  # `Authorization: Bearer <key>`

    @staticmethod
    def authentication_error(key: str | None) -> WireError:
        if not key:  # real text: the 401 without an Authorization header
            return _openai(401, "You didn't provide an API key. You need to provide your API key "
                           "in an Authorization header using Bearer auth (i.e. Authorization: "
                           "Bearer YOUR_KEY), or as the password field (with blank username) if "
                           "you're accessing the API from your browser and are prompted for a "
                           "username and password. You can obtain an API key from "
                           "https://platform.openai.com/account/api-keys.")
        # Real text; the key is shown masked, short keys in full.
        shown = key if len(key) <= 8 else key[:3] + "*" * (len(key) - 7) + key[-4:]
        return _openai(401, f"Incorrect API key provided: {shown}. You can find your API key at "
                       "https://platform.openai.com/account/api-keys.", code="invalid_api_key")

    @staticmethod
    def model_error(model: str, reason: Reason, *, provider: str, version: str | None = None
                    ) -> WireError:
        """A model the API does not answer for, as Chat Completions and Responses word it."""
        chat = provider == "openai_chat"
        if reason == "retired":  # real: seratch/ChatGPT-in-Slack#103 (a shut-down snapshot)
            return _openai(404, f"The model `{model}` has been deprecated, learn more here: "
                           "https://platform.openai.com/docs/deprecations", code="model_not_found")
        if reason == "other_api" and chat:  # real: alvinunreal/tmuxai#82, docker-agent#313
            return _openai(404, "This model is only supported in v1/responses and not in "
                           "v1/chat/completions.", param="model")
        if reason == "other_api":  # real: Laisky/one-api#88 (a Chat-only model on Responses)
            return _openai(400, f"The requested model '{model}' is not supported with the "
                           "Responses API.", param="model", code="model_not_found")
        if chat:  # real: pydantic-ai's test_model_name_suggestion[openai-chat] cassette
            return _openai(404, f"The model `{model}` does not exist or you do not have access "
                           "to it.", code="model_not_found")
        # Real: the same cassette on Responses: a 400 naming `param`, in other words.
        return _openai(400, f"The requested model '{model}' does not exist.", param="model",
                       code="model_not_found")

    @staticmethod
    def rate_limit_error(model: str, *, retry_after: float, requested: int) -> WireError:
        """The 429 of a tokens-per-minute limit, with OpenAI's x-ratelimit-* headers."""
        wait, limit = f"{retry_after:g}s", OpenAI.TOKENS_PER_MINUTE
        body = openai_chat.error_body(
            429, "tokens", f"Rate limit reached for {model} in organization org-emulator on "
            f"tokens per min (TPM): Limit {limit}, Used {limit}, Requested {requested}. Please "
            f"try again in {wait}. Visit https://platform.openai.com/account/rate-limits to learn "
            "more.", code="rate_limit_exceeded")
        return WireError(429, body, headers={
            "retry-after": f"{retry_after:g}", "x-ratelimit-limit-tokens": str(limit),
            "x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": wait})


def _openai(status: int, message: str, *, code: str | None = None, param: str | None = None
            ) -> WireError:
    return WireError(status, openai_chat.error_body(status, "invalid_request_error", message,
                                                    param=param, code=code))


class Anthropic:
    """Messages."""

    INPUT_TOKENS_PER_MINUTE = 30_000
    ORGANIZATION = "00000000-0000-4000-8000-000000000000"

    @staticmethod
    def api_key(headers: dict[str, str], query: dict[str, str]) -> str | None:
        # `x-api-key`, or `Authorization: Bearer <key>`, which anthropic 2.14.0 sends instead.
        return headers.get("x-api-key") or _bearer(headers) or None

    @staticmethod
    def authentication_error(key: str | None) -> WireError:
        # Real texts, status 401 for both (authentication_error).
        return _anthropic(401, "invalid x-api-key" if key else "x-api-key header is required")

    @staticmethod
    def model_error(model: str, reason: Reason, *, provider: str, version: str | None = None
                    ) -> WireError:
        # Real text (not_found_error), for unknown and retired names alike: the cassette
        # test_model_name_suggestion[anthropic] of pydantic-ai; zed-industries/zed#59424.
        return _anthropic(404, f"model: {model}")

    @staticmethod
    def rate_limit_error(model: str, *, retry_after: float, requested: int) -> WireError:
        """The 429 of an input-tokens-per-minute limit, with `retry-after` and the
        anthropic-ratelimit-* headers the real API sends."""
        limit = Anthropic.INPUT_TOKENS_PER_MINUTE
        error = _anthropic(429, (
            f"This request would exceed the rate limit for your organization "
            f"({Anthropic.ORGANIZATION}) of {limit:,} input tokens per minute. For details, "
            "refer to: https://docs.claude.com/en/api/rate-limits. You can see the response "
            "headers for current usage. Please reduce the prompt length or the maximum tokens "
            "requested, or try again later. You may also contact sales at "
            "https://www.anthropic.com/contact-sales to discuss your options for a rate limit "
            "increase."))
        error.headers.update({"retry-after": f"{math.ceil(retry_after)}",
                              "anthropic-ratelimit-input-tokens-limit": str(limit),
                              "anthropic-ratelimit-input-tokens-remaining": "0"})
        return error


def _anthropic(status: int, message: str) -> WireError:
    return WireError(status, anthropic.error_body(status, "", message))


class Gemini:
    """generateContent."""

    REQUESTS_PER_DAY = 20

    @staticmethod
    def api_key(headers: dict[str, str], query: dict[str, str]) -> str | None:
        return headers.get("x-goog-api-key") or query.get("key") or None  # header or `?key=`

    @staticmethod
    def authentication_error(key: str | None) -> WireError:
        if not key:  # real: 403 PERMISSION_DENIED, Google's text for a call without identity
            return _gemini(403, "Method doesn't allow unregistered callers (callers without "
                           "established identity). Please use API Key or other form of API "
                           "consumer identity to call this API.")
        # Real: a wrong key is a 400 INVALID_ARGUMENT here, not a 401, with an ErrorInfo detail.
        text = "API key not valid. Please pass a valid API key."
        return _gemini(400, text, details=[
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
             "domain": "googleapis.com",
             "metadata": {"service": "generativelanguage.googleapis.com"}},
            {"@type": "type.googleapis.com/google.rpc.LocalizedMessage", "locale": "en-US",
             "message": text}])

    @staticmethod
    def model_error(model: str, reason: Reason, *, provider: str, version: str | None = None
                    ) -> WireError:
        # One real text for every reason; it names the version the path asked for.
        return gemini.model_not_found_error(model, version or "v1beta")

    @staticmethod
    def rate_limit_error(model: str, *, retry_after: float, requested: int) -> WireError:
        """The 429 of a spent quota. Google sends no retry-after header: the wait is in the text
        and in a `google.rpc.RetryInfo` detail."""
        metric = "generativelanguage.googleapis.com/generate_content_free_tier_requests"
        quota = Gemini.REQUESTS_PER_DAY
        return _gemini(429, (
            "You exceeded your current quota, please check your plan and billing details. For "
            "more information on this error, head to: "
            "https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, "
            "head to: https://ai.dev/rate-limit. \n* Quota exceeded for metric: "
            f"{metric}, limit: {quota}, model: {model}\nPlease retry in {retry_after:g}s."),
            details=[
                {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [
                    {"quotaMetric": metric,
                     "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
                     "quotaDimensions": {"location": "global", "model": model},
                     "quotaValue": str(quota)}]},
                {"@type": "type.googleapis.com/google.rpc.Help", "links": [
                    {"description": "Learn more about Gemini API quotas",
                     "url": "https://ai.google.dev/gemini-api/docs/rate-limits"}]},
                {"@type": "type.googleapis.com/google.rpc.RetryInfo",
                 "retryDelay": f"{int(retry_after)}s"}])


def _gemini(status: int, message: str, *, details: list[dict[str, Any]] | None = None
            ) -> WireError:
    return WireError(status, gemini.error_body(status, gemini.STATUS[status], message,
                                               details=details))


REFUSALS: dict[str, type[OpenAI] | type[Anthropic] | type[Gemini]] = {
    "openai": OpenAI, "anthropic": Anthropic, "gemini": Gemini}
"""Each provider family's answers, by the family's name in the provider table."""
