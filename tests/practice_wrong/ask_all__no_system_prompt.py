# expect: yours has a user message here, the reference a system message
from harness.messages import UserMessage


def ask_all(model, system, questions):
    conversation = []
    for question in questions:
        conversation.append(UserMessage(content=question))
        conversation.append(model.complete(list(conversation)).message)
    return conversation
