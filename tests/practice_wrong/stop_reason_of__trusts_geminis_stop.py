# expect: for gemini's a tool call yours says 'end_turn', the reference 'tool_use'
def stop_reason_of(provider, body):
    if provider == "anthropic":
        reason = body.get("stop_reason")
        return {"end_turn": "end_turn", "stop_sequence": "end_turn", "tool_use": "tool_use",
                "max_tokens": "max_tokens", "refusal": "refusal"}.get(reason, "other")
    if provider == "openai_chat":
        choice = body["choices"][0]
        if choice["message"].get("tool_calls"):
            return "tool_use"
        return {"stop": "end_turn", "length": "max_tokens",
                "content_filter": "refusal"}.get(choice.get("finish_reason"), "other")
    if provider == "openai_responses":
        if body.get("status") == "incomplete":
            return "max_tokens"
        if any(item.get("type") == "function_call" for item in body.get("output", [])):
            return "tool_use"
        return "end_turn"
    reason = body["candidates"][0].get("finishReason")
    neutral = {"STOP": "end_turn", "MAX_TOKENS": "max_tokens", "SAFETY": "refusal"}
    return neutral.get(reason, "other")
