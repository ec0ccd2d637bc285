"""Broken: the NoProgress cell raises before the class exists, so every test meets a NameError
(the feedback must still not quote the hidden tests of those cells)."""

EXERCISE = "03_no_progress"
FAILS = {"no_progress_flags_a_repeat", "no_progress_allows_a_retry_after_error",
         "no_progress_catches_cycles", "no_progress_no_false_alarms"}
EXPECT = "NoProgress' is not defined"


class NoProgress:
    raise RuntimeError("half-written: the class body stops here")
