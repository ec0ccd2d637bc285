# expect: yours made 2 model calls, the reference 1
from harness.tools import execute


def round_trip(model, toolbox, messages):
    reply = model.complete(messages, tools=toolbox.specs)
    history = [*messages, reply.message]
    history += [execute(toolbox, call) for call in reply.message.tool_calls]
    return [*history, model.complete(history, tools=toolbox.specs).message]
