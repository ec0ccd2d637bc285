# expect: for anthropic yours writes {"tool_choice": "none"}
# expect: the recorded closing call sent {"tool_choice": {"type": "none"}}
"""Writes OpenAI's spelling for every format: Anthropic wants an object, Gemini a toolConfig."""


def no_tools_choice(provider):
    if provider not in ("openai_chat", "openai_responses", "anthropic", "gemini"):
        raise ValueError(f"unknown provider {provider!r}")
    return {"tool_choice": "none"}
