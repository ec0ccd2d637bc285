# expect: at the 4th identical call yours returns a note, the reference None
def nudge_for(count, name, arguments):
    if count >= 3:
        return f"You have called {name} {count} times in a row with {arguments}."
    return None
