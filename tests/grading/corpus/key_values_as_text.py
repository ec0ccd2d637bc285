"""Bug: call_key writes every value as text, so 123 and '123' collide."""

import json

EXERCISE = "03_no_progress"
FAILS = {"call_key_tells_calls_apart"}
EXPECT = 'different'


def call_key(name, arguments):
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    flat = {k: v if isinstance(v, dict) else str(v) for k, v in arguments.items()}
    return name + json.dumps(flat, sort_keys=True)
