# expect: without ['JSON', '"day": tomorrow']
from harness import ToolMessage


def safe_execute(toolbox, call):
    if call.name not in toolbox:
        return ToolMessage(tool_call_id=call.id, is_error=True,
                           content=f"Error: no tool named {call.name}. Available: "
                                   f"{', '.join(toolbox.tools)}.")
    try:
        output = toolbox.tools[call.name].function(**call.arguments)
    except Exception as exc:
        return ToolMessage(tool_call_id=call.id, is_error=True,
                           content=f"Error: {call.name} raised {type(exc).__name__}: {exc}. "
                                   "Try again.")
    return ToolMessage(tool_call_id=call.id, content=str(output))
