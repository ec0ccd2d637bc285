# expect: yours says call 3 repeats an earlier call; the reference says 4
# expect: get_order({"order_id": 124})
# expect: get_order({"order_id": 123})
def first_repeat(calls):
    seen = set()
    for number, call in enumerate(calls, start=1):
        key = (call.name, tuple(sorted(call.arguments)))  # the argument names, not their values
        if key in seen:
            return number
        seen.add(key)
    return None
