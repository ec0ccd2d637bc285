# expect: empty string for a reply that holds no text; the reference None
def read_reply(reply):
    return {"text": reply.message.content or "", "stop_reason": reply.stop_reason.value,
            "input_tokens": reply.usage.input_tokens, "output_tokens": reply.usage.output_tokens}
