# expect: yours has the result for call_1_1 here, the reference an assistant message
from harness.tools import execute


def take_turn(model, toolbox, history):
    reply = model.complete(history, tools=toolbox.specs)
    history.extend(execute(toolbox, call) for call in reply.message.tool_calls)
    history.append(reply.message)
    return reply
