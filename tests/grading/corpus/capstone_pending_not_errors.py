"""Bug: "Not executed" and "Cancelled" results are written as ordinary results (is_error left
False): nothing failed, after all."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_truncated", "run_agent_turn_cap", "run_agent_token_cap",
         "run_agent_no_progress", "run_agent_interrupted", "run_agent_error"}
EXPECT = "is_error"
PATCH = [
    ("""\
        history.extend(ToolMessage(tool_call_id=c.id, content=text, is_error=True)
                       for c in pending)  # every call gets a result""",
     """\
        history.extend(ToolMessage(tool_call_id=c.id, content=text)
                       for c in pending)  # every call gets a result"""),
    ("""\
    history.extend(ToolMessage(tool_call_id=c.id, content=NOT_EXECUTED, is_error=True)
                   for c in calls)""",
     """\
    history.extend(ToolMessage(tool_call_id=c.id, content=NOT_EXECUTED) for c in calls)"""),
]
