"""The developers' corpus of real accepted requests, as facts: which model names the four real APIs
accepted with which shape of request, and how many such requests we saw.

We studied the recorded cassettes of public projects (pydantic/pydantic-ai, simonw/llm,
simonw/llm-anthropic, simonw/llm-gemini, cloned 2026-12-01): 1,212 non-streamed requests that the
real APIs answered with 200, each sorted into one shape class of `shapes` by the same questions
(does it answer tool calls, several at once, carry reasoning or thinking, lean on server state...).
Nothing of a recording is kept: `shapes.build` writes each request again with our own texts, ids
and values, and the counts weigh each fact as the traffic did. A model retired since it was
recorded (`harness.providers.catalog.RETIRED`) is no longer accepted by the real API either; its
requests are expected to get the retirement answer and are not counted as accepted.
"""

from __future__ import annotations

ACCEPTED: dict[str, dict[str, dict[str, int]]] = {
    "openai_chat": {
        "gpt-4.1-mini": {"text": 1, "tool round trip": 4, "tools, first call": 4},
        "gpt-4.1-nano": {"content parts": 1},
        "gpt-4.5-preview": {"text": 1},
        "gpt-4o": {"content parts": 8, "parallel round trip": 26, "system and text": 2,
                   "text": 39, "tool round trip": 25, "tools, first call": 35},
        "gpt-4o-audio-preview": {"content parts": 2},
        "gpt-4o-mini": {"text": 1, "tool round trip": 6, "tools, first call": 4},
        "gpt-4o-search-preview": {"system and text": 2},
        "gpt-5": {"text": 5, "tool round trip": 4, "tools, first call": 1},
        "gpt-5-mini": {"closing call": 1, "tool round trip": 18, "tools, first call": 35},
        "gpt-5.4-mini": {"tool round trip": 4, "tools, first call": 4},
        "gpt-5.6-sol": {"content parts": 2},
        "muse-spark-1.1": {"tool round trip": 1, "tools, first call": 1},
        "o1-mini": {"text": 1},
        "o3-mini": {"reasoning effort": 1, "system and text": 1, "text": 3},
    },
    "openai_responses": {
        "computer-use-preview": {"text": 1},
        "gpt-4.1": {"instructions and text": 2, "server-side state": 11, "text": 12,
                    "tool round trip": 1, "tools, first call": 4},
        "gpt-4.1-mini": {"text": 1},
        "gpt-4.1-nano": {"text": 3},
        "gpt-4o": {"instructions and text": 3, "text": 11, "tool round trip": 10,
                   "tools, first call": 15},
        "gpt-4o-mini": {"instructions and text": 9},
        "gpt-5": {"reasoning items": 11, "server-side state": 2, "text": 11, "tool round trip": 2,
                  "tools in an input item": 4, "tools, first call": 29},
        "gpt-5-mini": {"reasoning items": 21, "tools, first call": 37},
        "gpt-5-pro": {"text": 1},
        "gpt-5.2": {"instructions and text": 2, "tool round trip": 2, "tools, first call": 5},
        "gpt-5.4": {"client tool search": 15, "tools in an input item": 8,
                    "tools, first call": 11},
        "gpt-5.4-mini": {"client tool search": 2, "text": 1},
        "gpt-5.5": {"reasoning items": 7, "text": 3, "tool round trip": 2, "tools, first call": 6},
        "gpt-5.6": {"client tool search": 7, "tools in an input item": 3, "tools, first call": 4},
        "gpt-5.6-sol": {"client tool search": 4, "text": 8, "tools, first call": 2},
        "o3": {"text": 1},
        "o3-mini": {"text": 6},
        "o4-mini": {"reasoning items": 1, "tools, first call": 3},
    },
    "anthropic": {
        "claude-3-opus-latest": {"system and text": 1},
        "claude-fable-5": {"tool round trip": 4, "tools, first call": 2},
        "claude-haiku-4-5": {"content blocks": 3, "parallel round trip": 1, "text": 3,
                             "tool round trip": 2, "tools, first call": 3},
        "claude-haiku-4-5-20251001": {"parallel round trip": 1, "text": 2,
                                      "thinking enabled, first call": 3,
                                      "thinking round trip": 1, "tool round trip": 1,
                                      "tools, first call": 3},
        "claude-opus-4-1-20250805": {"tools, first call": 2},
        "claude-opus-4-6": {"text": 4, "thinking adaptive, first call": 5},
        "claude-opus-4-7": {"text": 2, "thinking adaptive, first call": 1},
        "claude-opus-4-8": {"server tool blocks": 1, "system and text": 10,
                            "thinking adaptive, first call": 1, "tool round trip": 8,
                            "tools, first call": 5},
        "claude-opus-5": {"thinking adaptive, first call": 1, "tool round trip": 2,
                          "tools, first call": 1},
        "claude-sonnet-4-0": {"server tool blocks": 2, "thinking enabled, first call": 9,
                              "thinking round trip": 2, "tool round trip": 2,
                              "tools, first call": 4},
        "claude-sonnet-4-5": {"content blocks": 7, "parallel round trip": 3,
                              "server tool blocks": 5, "system and text": 5, "text": 13,
                              "thinking enabled, first call": 11, "thinking round trip": 6,
                              "tool round trip": 55, "tools, first call": 71},
        "claude-sonnet-4-5-20250929": {"thinking enabled, first call": 2,
                                       "thinking round trip": 1},
        "claude-sonnet-4-6": {"server tool blocks": 9, "system and text": 6, "text": 2,
                              "thinking enabled, first call": 4, "tool round trip": 12,
                              "tools, first call": 16},
        "claude-sonnet-5": {"server tool blocks": 3, "tool round trip": 2, "tools, first call": 7},
    },
    "gemini": {
        "gemini-1.5-flash": {"system and text": 2, "text": 3},
        "gemini-2.0-flash": {"media parts": 10, "structured output": 9, "system and text": 3,
                             "text": 1, "tool round trip": 3, "tools, first call": 4},
        "gemini-2.0-flash-exp": {"tool round trip": 1, "tools, first call": 1},
        "gemini-2.5-flash": {"media parts": 2, "structured output": 9, "system and text": 2,
                             "text": 4, "thinking off": 2, "tool round trip": 41,
                             "tools, first call": 49},
        "gemini-2.5-flash-image": {"text": 3},
        "gemini-2.5-flash-lite": {"text": 2},
        "gemini-2.5-pro": {"system and text": 1, "tool round trip": 4, "tools, first call": 9},
        "gemini-2.5-pro-preview-03-25": {"system and text": 1},
        "gemini-3-flash-preview": {"parallel round trip": 4, "split call turn": 4,
                                   "tool round trip": 92, "tools, first call": 55},
        "gemini-3-pro-image": {"system and text": 1},
        "gemini-3-pro-image-preview": {"text": 1, "tools, first call": 1},
        "gemini-3-pro-preview": {"text": 1, "tool round trip": 1, "tools, first call": 2},
        "gemini-3.1-flash-lite": {"system and text": 1},
        "gemini-3.5-flash": {"text": 1},
        "gemini-3.6-flash": {"tool round trip": 2, "tools, first call": 1},
    },
}
"""api -> model -> shape class -> how many real accepted requests had that model and shape."""

REMAINING: dict[tuple[str, str], str] = {
    ("openai_chat", "muse-spark-1.1"):
        "a model name no OpenAI source lists, recorded against api.openai.com (a test that "
        "pointed the OpenAI client at another provider's model)",
    ("anthropic", "claude-opus-4-1-20250805"):
        "Claude Opus 4.1: gone from the anthropic SDK's model list and the models overview, but "
        "no retirement date is on record, so the catalogue neither serves nor retires it",
}
"""The false rejections left, by the class each belongs to (each named here, and only these)."""
