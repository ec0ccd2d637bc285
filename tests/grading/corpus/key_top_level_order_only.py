"""Bug: call_key sorts the top-level keys only; nested objects keep their order."""

import json

EXERCISE = "03_no_progress"
FAILS = {"call_key_ignores_order_and_spacing"}
EXPECT = 'Key order must not change the key'


def call_key(name, arguments):
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    return name + json.dumps(dict(sorted(arguments.items())))
