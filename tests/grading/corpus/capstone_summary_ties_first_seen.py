"""Bug: summarize_exits breaks ties between tools in the order they were first called (as
Counter.most_common does), not by name."""

EXERCISE = "05_capstone"
FAILS = {"summarize_exits_matches"}
EXPECT = "top_tools"
PATCH = [
    ("""\
                     "top_tools": sorted(tools.items(), key=lambda p: (-p[1], p[0]))[:3]}
""",
     """\
                     "top_tools": sorted(tools.items(), key=lambda p: -p[1])[:3]}
"""),
]
