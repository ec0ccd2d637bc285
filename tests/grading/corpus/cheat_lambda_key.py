"""Cheat: call_key is a lambda around the reference, so the detector uses it too."""

from harness.progress import call_key as _reference_key

EXERCISE = "03_no_progress"
FAILS = {"call_key_ignores_order_and_spacing", "call_key_tells_calls_apart",
         "no_progress_flags_a_repeat", "no_progress_allows_a_retry_after_error",
         "no_progress_catches_cycles", "no_progress_no_false_alarms"}
EXPECT = "calls harness.progress.call_key"
EXPECT_GRADED = "is withheld while this notebook is graded"


def call_key(name, arguments):
    return (lambda n, a: _reference_key(n, a))(name, arguments)
