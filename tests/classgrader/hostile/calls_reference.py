"""Functions that hand the work to the reference: call_key plainly (the checks catch it), and
NoProgress after switching the profiler off so the checks' watch sees nothing. The checks'
watch notices that it was switched off."""

from classgrader.hostile import index, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] | str = "zero"
PLAIN: dict[str, float] | str = "zero"
STOPPED_BY = "the withheld kit (a graded kernel has no call_key or detector: grader.withhold)"

CALL_KEY = """def call_key(name, arguments):
    from harness.progress import call_key as reference_key

    return reference_key(name, arguments)
"""
NO_PROGRESS = """class NoProgress:
    def __init__(self, window=6):
        import sys

        from harness.progress import NoProgressDetector

        sys.setprofile(None)  # the checks watch calls with a profiler: switch it off
        self._detector = NoProgressDetector(window)

    def observe(self, name, arguments, *, previous_was_error=False):
        import sys

        sys.setprofile(None)
        return self._detector.observe(name, arguments, previous_was_error=previous_was_error)
"""


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    notebook.cells[index(notebook, "call_key_solution")].source = CALL_KEY
    notebook.cells[index(notebook, "no_progress_solution")].source = NO_PROGRESS
    return notebook
