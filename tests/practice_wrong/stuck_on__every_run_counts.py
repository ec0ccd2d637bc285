from collections import Counter


def stuck_on(results):
    return dict(Counter(r.tool_names[-1] for r in results if r.tool_names).most_common())
