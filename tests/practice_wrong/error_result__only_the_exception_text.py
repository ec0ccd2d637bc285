# expect: without ['get_uv_index', 'ConnectionError']
from harness import ToolMessage


def error_result(call, error):
    return ToolMessage(tool_call_id=call.id, content=f"Error: {error}", is_error=True)
