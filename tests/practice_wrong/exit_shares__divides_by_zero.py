# expect: yours raised ZeroDivisionError where the reference returned {}
# expect: return {}
from collections import Counter


def exit_shares(results):
    counts = Counter(result.status.value for result in results)
    total = len(results)
    return {status: counts[status] / total for status in counts} if total else 1 / total
