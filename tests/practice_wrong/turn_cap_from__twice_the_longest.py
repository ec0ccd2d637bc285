from harness.trace import Exit


def turn_cap_from(results):
    return 2 * max(result.turns for result in results if result.status is Exit.DONE)
