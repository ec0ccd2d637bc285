# expect: yours says 8, the reference 4: twice the longest successful run (4 calls), not the p95
from harness.trace import Exit


def turn_cap_from(results):
    return 2 * max(result.turns for result in results if result.status is Exit.DONE)
