"""Provider adapters: the neutral transcript in `harness.messages` to four wire formats and back.

One module per API (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini
generateContent), each a `Model` over one injected `httpx.Client`, so tests, the emulator and
replay can swap the transport. Each can also `stream` a call (its events read in `streams`), as
`harness.stream` deltas. They do not retry or keep state between calls (the Anthropic adapter
marks each request for prompt caching; the other APIs cache by themselves); an error status
becomes a `ProviderError`, with the wait a rate limit asks for. What each API is
(its base URL, version, key variables, models and prices) is in `catalog`, the one provider
table. The neutral core never imports from here.
"""

from __future__ import annotations

from typing import Any

from harness.messages import Model
from harness.providers.anthropic import Anthropic
from harness.providers.catalog import PROVIDERS, provider
from harness.providers.gemini import Gemini
from harness.providers.openai_chat import OpenAIChat
from harness.providers.openai_responses import OpenAIResponses

ADAPTERS: dict[str, type[OpenAIChat | OpenAIResponses | Anthropic | Gemini]] = {
    "openai_chat": OpenAIChat,
    "openai_responses": OpenAIResponses,
    "anthropic": Anthropic,
    "gemini": Gemini,
}
"""The adapter class of each provider in the table, by the same name."""


def get(name: str, **options: Any) -> Model:
    """An adapter by its name; `options` go to its constructor.

    Example:
        >>> get("anthropic", api_key="sk-ant-test", max_output_tokens=2048).name
        'anthropic'
    """
    return ADAPTERS[provider(name).name](**options)


__all__ = [
    "ADAPTERS",
    "PROVIDERS",
    "Anthropic",
    "Gemini",
    "OpenAIChat",
    "OpenAIResponses",
    "get",
    "provider",
]
