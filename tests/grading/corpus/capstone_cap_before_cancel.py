"""Bug: cancel is looked at again only once the reply's calls are about to run, after the budget and
the turn cap: a stop pressed on the last turn still makes the closing call, and a reply over the
budget ends token_cap instead of interrupted."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_interrupted"}
EXPECT = "bench_press_capped (cancel set once call 3 has replied)"
PATCH = [
    ("""\
        if stopped():
            return end(Exit.INTERRUPTED, pending=calls, text=CANCELLED)
""",
     """\
"""),
    ("""\
        if turn == max_turns:
            break  # these calls stay pending
""",
     """\
        if turn == max_turns:
            break  # these calls stay pending
        if stopped():  # last thing before the tools run
            return end(Exit.INTERRUPTED, pending=calls, text=CANCELLED)
"""),
]
