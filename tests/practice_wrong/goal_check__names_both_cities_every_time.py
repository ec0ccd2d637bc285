# expect: yours names ['Lisbon', 'Porto'], the reference ['Porto']
"""Sends the run on at the right times, but its note names both cities, answered or not."""


def goal_check(answer):
    if "Lisbon" in (answer or "") and "Porto" in (answer or ""):
        return None
    return "Check Lisbon and Porto before you answer."
