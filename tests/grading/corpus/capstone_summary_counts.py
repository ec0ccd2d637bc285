"""Bug: summarize_exits gives each exit's number of runs, not its share of them."""

EXERCISE = "05_capstone"
FAILS = {"summarize_exits_matches"}
EXPECT = "share"
PATCH = [
    ("""\
    return {status: {"share": runs / total,
""",
     """\
    return {status: {"share": runs,  # a count, not a fraction of the runs
"""),
]
