"""Bug: call_key returns a (name, arguments) tuple, not a string."""

import json

EXERCISE = "03_no_progress"
FAILS = {"call_key_ignores_order_and_spacing"}
EXPECT = 'a string'


def call_key(name, arguments):
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    return (name, json.dumps(arguments, sort_keys=True))
