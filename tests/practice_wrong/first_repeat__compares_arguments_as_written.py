# expect: yours says None, the reference call 2
# expect: same request as call 1
def first_repeat(calls):
    seen = set()
    for number, call in enumerate(calls, start=1):
        key = call.name + str(call.arguments)
        if key in seen:
            return number
        seen.add(key)
    return None
