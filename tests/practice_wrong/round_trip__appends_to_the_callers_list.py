# expect: the caller gave 2 messages and yours left 4
from harness.tools import execute


def round_trip(model, toolbox, messages):
    reply = model.complete(messages, tools=toolbox.specs)
    messages.append(reply.message)
    if not reply.message.tool_calls:
        return list(messages)
    messages.extend(execute(toolbox, call) for call in reply.message.tool_calls)
    return [*messages, model.complete(messages, tools=toolbox.specs).message]
