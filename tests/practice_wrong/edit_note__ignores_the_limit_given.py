# expect: with limit=2 yours notes calls [10, 12], the reference [6, 8, 10, 12]
def edit_note(counts, name, arguments, *, limit=4):
    if name != "edit_file":
        return None
    path = arguments["path"]
    counts[path] = counts.get(path, 0) + 1
    if counts[path] > 4:
        return f"You have edited {path} {counts[path]} times. Try another approach."
    return None
