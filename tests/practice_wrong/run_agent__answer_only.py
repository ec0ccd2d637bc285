# expect: return a tuple (exit, answer, history), not str
from harness.tools import execute


def run_agent(model, toolbox, messages, max_turns=10):
    history = list(messages)
    for _ in range(max_turns):
        reply = model.complete(history, tools=toolbox.specs)
        history.append(reply.message)
        if not reply.message.tool_calls:
            return reply.message.content
        history.extend(execute(toolbox, call) for call in reply.message.tool_calls)
    return None
