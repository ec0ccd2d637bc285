# expect: yours declared no tools, the reference ['get_forecast']
from harness.tools import execute


def take_turn(model, toolbox, history):
    reply = model.complete(history)
    history.append(reply.message)
    history.extend(execute(toolbox, call) for call in reply.message.tool_calls)
    return reply
