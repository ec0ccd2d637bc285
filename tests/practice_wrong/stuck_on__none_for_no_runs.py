# expect: for no runs yours gives None, the reference {}
from collections import Counter

from harness.trace import Exit


def stuck_on(results):
    if not results:
        return None
    stuck = Counter(r.tool_names[-1] for r in results if r.status is Exit.NO_PROGRESS)
    return dict(stuck.most_common())
