"""Bug: summarize_exits breaks ties between tools in the order they were first called, not by
name (Counter.most_common)."""

from collections import Counter

EXERCISE = "05_capstone"
FAILS = {"summarize_exits_matches"}
EXPECT = "top_tools"


def summarize_exits(results):
    runs = Counter(str(result.status) for result in results)
    tools = {status: Counter() for status in runs}
    for result in results:
        tools[str(result.status)].update(result.tool_names)
    return {status: {"share": count / len(results), "top_tools": tools[status].most_common(3)}
            for status, count in runs.items()}
