"""Bug: call_key keeps the arguments' key order, so a reordered repeat looks new."""

import json

EXERCISE = "03_no_progress"
FAILS = {"call_key_ignores_order_and_spacing", "no_progress_flags_a_repeat"}
EXPECT = "Key order must not change the key"


def call_key(name, arguments):
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    return name + json.dumps(arguments)
