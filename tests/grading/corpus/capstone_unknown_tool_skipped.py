"""Bug: a call to a tool the toolbox does not have gets no result."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_errors_as_results"}
EXPECT = 'there is no tool'
PATCH = [
    ("""\
        history.extend(results)""",
     """\
        history.extend(r for r, c in zip(results, calls, strict=True)
                       if c.name in tools)  # an unknown tool's result is left out"""),
]
