# expect: the call names compute_record; yours raised
from harness.messages import ToolMessage


def run_tool(toolbox, call):
    tool = next(iter(toolbox.tools.values()))
    return ToolMessage(tool_call_id=call.id, content=str(tool.function(**call.arguments)))
