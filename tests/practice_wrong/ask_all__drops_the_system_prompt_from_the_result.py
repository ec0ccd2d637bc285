# expect: yours has a user message here, the reference a system message
from harness.messages import SystemMessage, UserMessage


def ask_all(model, system, questions):
    conversation = [SystemMessage(content=system)]
    for question in questions:
        conversation.append(UserMessage(content=question))
        conversation.append(model.complete(list(conversation)).message)
    return conversation[1:]
