"""Bug: call_key is built from the arguments alone (the detector keys calls its own way)."""

import json

EXERCISE = "03_no_progress"
FAILS = {"call_key_tells_calls_apart"}
EXPECT = 'different'


def call_key(name, arguments):
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    return json.dumps(arguments, sort_keys=True)


class NoProgress:
    def __init__(self, window=6):
        self.window, self.keys = window, []

    def observe(self, name, arguments, *, previous_was_error=False):
        if isinstance(arguments, str):
            arguments = json.loads(arguments)
        key = (name, json.dumps(arguments, sort_keys=True))  # not call_key: its own key
        repeated = bool(self.keys) and self.keys[-1] == key and not previous_was_error
        self.keys = (self.keys + [key])[-self.window:]
        if repeated:
            return True
        return len(self.keys) == self.window and any(
            len(set(self.keys[:p])) == p
            and all(self.keys[i] == self.keys[i - p] for i in range(p, self.window))
            for p in (2, 3))
