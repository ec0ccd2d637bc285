from harness.messages import UserMessage


def ask(model, conversation, question):
    conversation.append(UserMessage(content=question))
    return [*conversation, model.complete(conversation).message]
