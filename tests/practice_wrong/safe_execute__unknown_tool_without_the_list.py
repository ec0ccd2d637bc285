# expect: yours says 'Error: unknown tool.', without ['get_weather', 'get_forecast', 'get_uv_index']
from harness import ToolMessage


def safe_execute(toolbox, call):
    if call.name not in toolbox:
        return ToolMessage(tool_call_id=call.id, is_error=True, content="Error: unknown tool.")
    if call.raw_arguments is not None:
        return ToolMessage(tool_call_id=call.id, is_error=True,
                           content=f"Error: not valid JSON: {call.raw_arguments}.")
    try:
        output = toolbox.tools[call.name].function(**call.arguments)
    except Exception as exc:
        return ToolMessage(tool_call_id=call.id, is_error=True,
                           content=f"Error: {call.name} raised {type(exc).__name__}: {exc}. "
                                   "Try again.")
    return ToolMessage(tool_call_id=call.id, content=str(output))
