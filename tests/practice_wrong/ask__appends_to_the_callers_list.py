# expect: list had 1 message(s) and yours left it with 2
from harness.messages import UserMessage


def ask(model, conversation, question):
    conversation.append(UserMessage(content=question))
    return [*conversation, model.complete(conversation).message]
