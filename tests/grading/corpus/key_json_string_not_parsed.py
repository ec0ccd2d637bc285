"""Bug: call_key uses a JSON argument string as it is, spacing and key order included."""

import json

EXERCISE = "03_no_progress"
FAILS = {"call_key_ignores_order_and_spacing", "no_progress_flags_a_repeat"}
EXPECT = "json.loads"


def call_key(name, arguments):
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, sort_keys=True)
    return f"{name}:{text}"
