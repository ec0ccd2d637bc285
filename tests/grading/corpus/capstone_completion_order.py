"""Bug: a batch's results are committed in the order the calls finished, not in model order."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_parallel_batches"}
EXPECT = 'your request differs from the recording'
PATCH = [
    ("""\
                results += pool.map(lambda c: execute(tools, c), batch)""",
     """\
                futures = [pool.submit(execute, tools, c) for c in batch]
                results += [f.result() for f in as_completed(futures)]  # finishing order"""),
    ("""\
from concurrent.futures import ThreadPoolExecutor""",
     """\
from concurrent.futures import ThreadPoolExecutor, as_completed"""),
]
