# expect: yours ended 'done' with 'Let me look up your bench press history.'
from harness.tools import execute


def run_agent(model, toolbox, messages, max_turns=10):
    history = list(messages)
    for _ in range(max_turns):
        reply = model.complete(history, tools=toolbox.specs)
        history.append(reply.message)
        if reply.message.content:  # "the model said something, so it answered"
            return "done", reply.message.content, history
        history.extend(execute(toolbox, call) for call in reply.message.tool_calls)
    return "turn_cap", None, history
