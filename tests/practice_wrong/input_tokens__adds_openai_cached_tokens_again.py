# expect: yours reads 4981, 3317 and its prompt_tokens_details.cached_tokens (1664) once more
"""Adds the cached tokens on every format: OpenAI and Gemini already count them in the input."""


def input_tokens(provider, response):
    if provider == "gemini":
        meta = response["usageMetadata"]
        return meta["promptTokenCount"] + meta.get("cachedContentTokenCount", 0)
    usage = response["usage"]
    if provider == "openai_chat":
        return usage["prompt_tokens"] + usage["prompt_tokens_details"]["cached_tokens"]
    if provider == "openai_responses":
        return usage["input_tokens"] + usage["input_tokens_details"]["cached_tokens"]
    return (usage["input_tokens"] + usage.get("cache_read_input_tokens", 0)
            + usage.get("cache_creation_input_tokens", 0))
