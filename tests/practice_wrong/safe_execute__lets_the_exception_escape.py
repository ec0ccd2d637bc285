# expect: yours let ConnectionError escape
from harness import ToolMessage


def safe_execute(toolbox, call):
    if call.name not in toolbox:
        return ToolMessage(tool_call_id=call.id, is_error=True,
                           content=f"Error: no tool named {call.name}. Available: "
                                   f"{', '.join(toolbox.tools)}.")
    if call.raw_arguments is not None:
        return ToolMessage(tool_call_id=call.id, is_error=True,
                           content=f"Error: not valid JSON: {call.raw_arguments}.")
    output = toolbox.tools[call.name].function(**call.arguments)
    return ToolMessage(tool_call_id=call.id, content=str(output))
