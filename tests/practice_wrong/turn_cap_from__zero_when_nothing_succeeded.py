# expect: yours returned 0, the reference raised ValueError
import math
import statistics

from harness.trace import Exit


def turn_cap_from(results):
    turns = sorted(r.turns for r in results if r.status is Exit.DONE)
    if not turns:
        return 0
    p95 = turns[0] if len(turns) == 1 else statistics.quantiles(turns, n=20,
                                                                 method="inclusive")[-1]
    return math.ceil(2 * p95)
