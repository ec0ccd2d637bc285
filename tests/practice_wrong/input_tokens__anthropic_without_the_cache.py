# expect: yours reads 37 (the block's input_tokens) for anthropic, the reference 1721
"""Takes Anthropic's input_tokens as the whole input: cache reads and writes are outside it."""


def input_tokens(provider, response):
    if provider == "gemini":
        return response["usageMetadata"]["promptTokenCount"]
    usage = response["usage"]
    if provider == "openai_chat":
        return usage["prompt_tokens"]
    return usage["input_tokens"]
