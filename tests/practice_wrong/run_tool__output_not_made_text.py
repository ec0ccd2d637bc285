# expect: 3 as a number
# expect: str(output) == '3'
from harness.messages import ToolMessage


def run_tool(toolbox, call):
    output = toolbox.tools[call.name].function(**call.arguments)
    return ToolMessage(tool_call_id=call.id, content=output)
