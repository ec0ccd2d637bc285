# expect: on call 2 yours sent 4 message(s), the reference 5
# expect: the result for call_1_2
from harness.tools import execute


def round_trip(model, toolbox, messages):
    reply = model.complete(messages, tools=toolbox.specs)
    history = [*messages, reply.message]
    if not reply.message.tool_calls:
        return history
    history.append(execute(toolbox, reply.message.tool_calls[0]))
    return [*history, model.complete(history, tools=toolbox.specs).message]
