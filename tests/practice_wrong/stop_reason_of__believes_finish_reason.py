# expect: for anthropic's a stop sequence yours says 'stop_sequence', the reference 'end_turn'
def stop_reason_of(provider, body):
    if provider == "anthropic":
        return body.get("stop_reason")
    if provider == "openai_chat":
        reason = body["choices"][0].get("finish_reason")
        return {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens",
                "content_filter": "refusal"}.get(reason, "other")
    if provider == "openai_responses":
        return "end_turn" if body.get("status") == "completed" else "max_tokens"
    reason = body["candidates"][0].get("finishReason")
    neutral = {"STOP": "end_turn", "MAX_TOKENS": "max_tokens", "SAFETY": "refusal"}
    return neutral.get(reason, "other")
