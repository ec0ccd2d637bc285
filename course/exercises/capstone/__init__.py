"""Exercise 5, the capstone: `checks` grades `run_agent` on recorded scenarios (`replays`,
`verdicts`) and per-student variants of them (`scenario_variants`), and `summarize_exits`."""

WITHHELD = (
    "harness.loop",
    "harness.trace.summarize",
    "harness.trace._most_called",
    "harness.tools.run_calls",
    "harness.tools.plan_batches",
)
"""What a graded kernel of the capstone does not get (`grader.withhold`): the library's loop,
its batching and its summary of many runs, the reference for `run_agent` and `summarize_exits`.
(The batch cell's plans and the student's variants are made ahead by the class grader.)"""
