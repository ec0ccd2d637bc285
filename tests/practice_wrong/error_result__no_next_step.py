# expect: yours ends with the exception's own words
from harness import ToolMessage


def error_result(call, error):
    return ToolMessage(tool_call_id=call.id, is_error=True,
                       content=f"Error: {call.name} raised {type(error).__name__}: {error}")
