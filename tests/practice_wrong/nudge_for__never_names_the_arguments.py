def nudge_for(count, name, arguments):
    if count in (3, 5, 8):
        return f"You keep calling {name}. Try something else."
    return None
