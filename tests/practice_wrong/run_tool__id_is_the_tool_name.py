# expect: yours answers 'get_forecast', the tool's name, where the reference answers 'toolu_01A'
from harness.messages import ToolMessage


def run_tool(toolbox, call):
    output = toolbox.tools[call.name].function(**call.arguments)
    return ToolMessage(tool_call_id=call.name, content=str(output))
