from harness.messages import UserMessage


def ask(model, conversation, question):
    question = UserMessage(content=question)
    return [*conversation, question, model.complete([question]).message]
