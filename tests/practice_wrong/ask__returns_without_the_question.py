# expect: yours has an assistant message here, the reference a user message
from harness.messages import UserMessage


def ask(model, conversation, question):
    reply = model.complete([*conversation, UserMessage(content=question)])
    return [*conversation, reply.message]
