# expect: yours counts 105, input and output together; the reference 96
def read_reply(reply):
    return {"text": reply.message.content, "stop_reason": reply.stop_reason.value,
            "input_tokens": reply.usage.total_tokens, "output_tokens": reply.usage.output_tokens}
