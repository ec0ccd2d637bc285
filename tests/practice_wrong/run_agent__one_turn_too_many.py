# expect: yours made 2 model calls, the reference 1
# expect: max_turns=1
from harness.tools import execute


def run_agent(model, toolbox, messages, max_turns=10):
    history = list(messages)
    turn = 0
    while turn <= max_turns:
        reply = model.complete(history, tools=toolbox.specs)
        history.append(reply.message)
        if not reply.message.tool_calls:
            return "done", reply.message.content, history
        history.extend(execute(toolbox, call) for call in reply.message.tool_calls)
        turn += 1
    return "turn_cap", None, history
