# expect: yours says call 3 repeats an earlier call; the reference says None
# expect: "limit": 6
def first_repeat(calls):
    seen = set()
    for number, call in enumerate(calls, start=1):
        last = sorted(call.arguments)[-1] if call.arguments else None
        key = (call.name, call.arguments.get(last))  # one argument's value, not all of them
        if key in seen:
            return number
        seen.add(key)
    return None
