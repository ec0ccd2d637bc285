"""Bug: call_key leaves paging arguments out, so the next page reads as a repeat."""

import json

EXERCISE = "03_no_progress"
FAILS = {"call_key_tells_calls_apart"}
EXPECT = "an extra argument"


def call_key(name, arguments):
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    kept = {k: v for k, v in arguments.items() if k not in ("page", "offset")}
    return name + json.dumps(kept, sort_keys=True, separators=(",", ":"))
