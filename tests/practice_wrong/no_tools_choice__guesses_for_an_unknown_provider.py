# expect: for 'mistral' yours returned {"tool_choice": "none"}, the reference raised ValueError
"""Right for the four formats, but sends a guess for any other instead of failing."""


def no_tools_choice(provider):
    if provider == "anthropic":
        return {"tool_choice": {"type": "none"}}
    if provider == "gemini":
        return {"toolConfig": {"functionCallingConfig": {"mode": "NONE"}}}
    return {"tool_choice": "none"}
