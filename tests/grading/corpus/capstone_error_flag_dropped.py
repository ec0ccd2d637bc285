"""Bug: error results are put in the history without is_error (the text alone says it failed)."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_errors_as_results", "run_agent_no_progress"}
EXPECT = 'index 3, is_error'
PATCH = [
    ("""\
        history.extend(results)""",
     """\
        history.extend(ToolMessage(tool_call_id=r.tool_call_id, content=r.content)
                       for r in results)  # is_error dropped"""),
]
