# expect: On call 2 yours sent 2 message(s), the reference 4
from harness.messages import SystemMessage, UserMessage


def ask_all(model, system, questions):
    conversation = [SystemMessage(content=system)]
    for question in questions:
        asked = UserMessage(content=question)
        reply = model.complete([conversation[0], asked])
        conversation += [asked, reply.message]
    return conversation
