"""Provider adapters: the neutral transcript in `harness.messages` to four wire formats and back.

One module per API (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini
generateContent), each a `Model` over one injected `httpx.Client`, so tests, the emulator and
replay can swap the transport. They do not stream, retry or keep state between calls (the
Anthropic adapter marks each request for prompt caching; the other APIs cache by themselves); an
error status becomes a `ProviderError`, with the wait a rate limit asks for. The neutral core
never imports from here.
"""

from __future__ import annotations

from typing import Any

from harness.messages import Model
from harness.providers.anthropic import Anthropic
from harness.providers.gemini import Gemini
from harness.providers.openai_chat import OpenAIChat
from harness.providers.openai_responses import OpenAIResponses

PROVIDERS: dict[str, type[OpenAIChat | OpenAIResponses | Anthropic | Gemini]] = {
    "openai_chat": OpenAIChat,
    "openai_responses": OpenAIResponses,
    "anthropic": Anthropic,
    "gemini": Gemini,
}


def get(name: str, **options: Any) -> Model:
    """An adapter by its name; `options` go to its constructor.

    Example:
        >>> get("anthropic", api_key="sk-ant-test", max_output_tokens=2048).name
        'anthropic'
    """
    if name not in PROVIDERS:
        raise ValueError(f"unknown provider {name!r}; choose one of: {', '.join(PROVIDERS)}")
    return PROVIDERS[name](**options)


__all__ = ["PROVIDERS", "Anthropic", "Gemini", "OpenAIChat", "OpenAIResponses", "get"]
