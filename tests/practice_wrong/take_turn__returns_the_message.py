# expect: yours returned AssistantMessage, the reference the Reply
from harness.tools import execute


def take_turn(model, toolbox, history):
    reply = model.complete(history, tools=toolbox.specs)
    history.append(reply.message)
    history.extend(execute(toolbox, call) for call in reply.message.tool_calls)
    return reply.message
