"""Valid: the solution's loop with a pool of two workers: a batch of four calls runs two at a
time, which is together (more than one call in flight), not one after another."""

EXERCISE = "05_capstone"
FAILS: set[str] = set()
PATCH = [
    ("""\
        with ThreadPoolExecutor(max_workers=8) as pool:""",
     """\
        with ThreadPoolExecutor(max_workers=2) as pool:  # two at a time is enough"""),
]
