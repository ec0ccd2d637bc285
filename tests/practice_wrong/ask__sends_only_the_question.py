# expect: yours sent 1 message(s), the reference 2
# expect: a user message here, the reference a system message
from harness.messages import UserMessage


def ask(model, conversation, question):
    question = UserMessage(content=question)
    return [*conversation, question, model.complete([question]).message]
