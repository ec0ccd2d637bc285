# expect: yours says None, the reference call 3
# expect: same request as call 1
from harness import call_key


def first_repeat(calls):
    for number in range(2, len(calls) + 1):
        before, this = calls[number - 2], calls[number - 1]
        if call_key(before.name, before.arguments) == call_key(this.name, this.arguments):
            return number
    return None
