# expect: yours let it end the run, and it names ['Porto']
"""Checks only the city the first answer forgot: an answer about Porto alone ends the run."""


def goal_check(answer):
    if "Porto" in (answer or ""):
        return None
    return "You were also asked about Porto. Check it before you answer."
