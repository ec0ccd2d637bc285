# expect: yours declared no tools, the reference ['get_forecast']
from harness.tools import execute


def round_trip(model, toolbox, messages):
    reply = model.complete(messages, tools=toolbox.specs)
    history = [*messages, reply.message]
    if not reply.message.tool_calls:
        return history
    history += [execute(toolbox, call) for call in reply.message.tool_calls]
    return [*history, model.complete(history).message]
