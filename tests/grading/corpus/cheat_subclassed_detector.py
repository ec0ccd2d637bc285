"""Cheat: NoProgress is the reference detector with another name."""

from harness.progress import NoProgressDetector

EXERCISE = "03_no_progress"
FAILS = {"no_progress_flags_a_repeat", "no_progress_allows_a_retry_after_error",
         "no_progress_catches_cycles", "no_progress_no_false_alarms"}
EXPECT = "is (or is built on) harness.progress.NoProgressDetector"
EXPECT_GRADED = "is withheld while this notebook is graded"


class NoProgress(NoProgressDetector):
    """Mine, honestly."""
