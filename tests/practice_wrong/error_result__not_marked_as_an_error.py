# expect: yours is not marked is_error=True
from harness import ToolMessage


def error_result(call, error):
    return ToolMessage(tool_call_id=call.id,
                       content=f"Error: {call.name} raised {type(error).__name__}: {error}. "
                               "Try another approach.")
