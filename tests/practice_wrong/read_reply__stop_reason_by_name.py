# expect: the member's .name, 'END_TURN'; the reference its .value, 'end_turn'
def read_reply(reply):
    return {"text": reply.message.content, "stop_reason": reply.stop_reason.name,
            "input_tokens": reply.usage.input_tokens, "output_tokens": reply.usage.output_tokens}
