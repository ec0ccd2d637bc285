# expect: where the reference goes on with the result for call_1_2
from harness.tools import execute


def take_turn(model, toolbox, history):
    reply = model.complete(history, tools=toolbox.specs)
    history.append(reply.message)
    if reply.message.tool_calls:
        history.append(execute(toolbox, reply.message.tool_calls[0]))
    return reply
