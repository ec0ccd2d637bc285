from collections import Counter

from harness.trace import Exit


def stuck_on(results):
    calls = Counter()
    for result in results:
        if result.status is Exit.NO_PROGRESS:
            calls.update(result.tool_names)
    return dict(calls.most_common())
