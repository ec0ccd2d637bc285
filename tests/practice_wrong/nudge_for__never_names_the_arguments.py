# expect: at the 5th call
# expect: without ['123', '5']
def nudge_for(count, name, arguments):
    if count in (3, 5, 8):
        return f"You keep calling {name}. Try something else."
    return None
