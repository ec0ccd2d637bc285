# expect: yours has the result for call_1_1 here
# expect: the reference an assistant message asking for get_forecast
from harness.tools import execute


def round_trip(model, toolbox, messages):
    reply = model.complete(messages, tools=toolbox.specs)
    if not reply.message.tool_calls:
        return [*messages, reply.message]
    results = [execute(toolbox, call) for call in reply.message.tool_calls]
    history = [*messages, *results, reply.message]
    return [*history, model.complete(history, tools=toolbox.specs).message]
