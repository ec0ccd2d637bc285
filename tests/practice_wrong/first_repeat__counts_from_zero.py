# expect: yours says call 1, the reference call 2: the same call counted from 0
from harness import call_key


def first_repeat(calls):
    seen = set()
    for index, call in enumerate(calls):
        key = call_key(call.name, call.arguments)
        if key in seen:
            return index
        seen.add(key)
    return None
