"""Bug: summarize_exits gives each exit's number of runs, not its share of them."""

from collections import Counter

EXERCISE = "05_capstone"
FAILS = {"summarize_exits_matches"}
EXPECT = "share"


def summarize_exits(results):
    runs = Counter(str(result.status) for result in results)
    tools = {status: Counter() for status in runs}
    for result in results:
        tools[str(result.status)].update(result.tool_names)
    return {status: {"share": count,  # a count, not a fraction of the runs
                     "top_tools": sorted(tools[status].items(), key=lambda p: (-p[1], p[0]))[:3]}
            for status, count in runs.items()}
