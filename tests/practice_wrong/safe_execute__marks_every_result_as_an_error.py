# expect: its is_error is true in yours, not set in the reference
from harness.messages import ToolMessage


def safe_execute(toolbox, call):
    if call.name not in toolbox.tools:
        return ToolMessage(tool_call_id=call.id, is_error=True,
                           content=f"Error: no tool {call.name}; there are {list(toolbox.tools)}")
    if call.raw_arguments is not None:
        return ToolMessage(tool_call_id=call.id, is_error=True,
                           content=f"Error: {call.raw_arguments} is not JSON; send a JSON object")
    try:
        output = toolbox.tools[call.name].function(**call.arguments)
    except Exception as error:
        return ToolMessage(tool_call_id=call.id, is_error=True,
                           content=f"Error: {call.name} raised {type(error).__name__}: {error}. "
                                   "Try again later.")
    return ToolMessage(tool_call_id=call.id, content=str(output), is_error=True)
