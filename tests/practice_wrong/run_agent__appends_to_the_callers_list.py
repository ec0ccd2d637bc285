# expect: the caller gave 2 messages and yours left 5
from harness.tools import execute


def run_agent(model, toolbox, messages, max_turns=10):
    for _ in range(max_turns):
        reply = model.complete(messages, tools=toolbox.specs)
        messages.append(reply.message)
        if not reply.message.tool_calls:
            return "done", reply.message.content, messages
        messages.extend(execute(toolbox, call) for call in reply.message.tool_calls)
    return "turn_cap", None, messages
