# expect: yours stops here, where the reference goes on with an assistant message
def round_trip(model, toolbox, messages):
    history = list(messages)
    reply = model.complete(history, tools=toolbox.specs)
    history.append(reply.message)
    if not reply.message.tool_calls:
        return history
    for call in reply.message.tool_calls:
        output = toolbox.tools[call.name].function(**call.arguments)
        from harness.messages import ToolMessage
        history.append(ToolMessage(tool_call_id=call.id, content=str(output)))
    model.complete(history, tools=toolbox.specs)
    return history
