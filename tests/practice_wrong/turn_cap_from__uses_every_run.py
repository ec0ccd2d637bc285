# expect: yours says 12, the reference 8: yours sizes it from every run
import math
import statistics


def turn_cap_from(results):
    turns = sorted(result.turns for result in results)
    if not turns:
        raise ValueError("no runs")
    if len(turns) == 1:
        return 2 * turns[0]
    return math.ceil(2 * statistics.quantiles(turns, n=20, method="inclusive")[-1])
