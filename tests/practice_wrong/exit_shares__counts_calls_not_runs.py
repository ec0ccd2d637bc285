# expect: yours shares out the 268 model calls, not the 100 runs
from collections import Counter


def exit_shares(results):
    calls = Counter()
    for result in results:
        calls[result.status.value] += result.turns
    total = sum(calls.values()) or 1
    return {status: count / total for status, count in calls.items()}
