# expect: yours has [["run_tests", 6]], which the reference does not count
def edit_note(counts, name, arguments, *, limit=4):
    path = arguments.get("path", name)
    counts[path] = counts.get(path, 0) + 1
    if counts[path] > limit:
        return f"You have edited {path} {counts[path]} times. Try another approach."
    return None
