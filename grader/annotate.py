"""What a graded notebook shows of the grading process's findings (`grader.verdict`).

The kernel that ran a submission had no reference (`grader.withhold`), so what its checks printed
there means nothing; the merge puts the grading process's findings in its place, as outputs a
student reads in their feedback: a failed test's message, rendered as the check renders it in a
notebook (`CheckFailed`), a note on a test whose record was at fault, and each self-check cell's
true output. It decides no score and touches no gradebook.
"""

from __future__ import annotations

from typing import Any

import nbformat

from grader.kernel_log import digest

CAPPED = "GraderCapped"
"""The error name of a note from the grader (as opposed to a check's own failure)."""


def note_output(message: str) -> Any:
    """An error output that says something from the grader, not from the checks."""
    return nbformat.v4.new_output("error", ename=CAPPED, evalue=message,
                                  traceback=[f"\x1b[0;31m{CAPPED}\x1b[0m: {message}"])


def self_check_output(cell: dict[str, Any], printed: dict[str, Any]) -> bool:
    """Give a self-check cell what the grading process printed for it (the kernel, which has no
    reference, printed only that it was graded elsewhere). True if the cell changed."""
    found = printed.get(digest(cell.get("source") or ""))
    if not isinstance(found, dict):
        return False
    outputs = [o for o in cell.get("outputs", [])
               if not (o.get("output_type") == "stream" and o.get("name") == "stdout")]
    if found.get("text"):
        outputs.insert(0, nbformat.v4.new_output("stream", name="stdout",
                                                 text=str(found["text"])))
    if found.get("error") and not any(o.get("output_type") == "error" for o in outputs):
        outputs.append(note_output(f"the grader could not run this check on your work: "
                                   f"{found['error']}"))
    if outputs == cell.get("outputs", []):
        return False
    cell["outputs"] = outputs
    return True


def verdict_output(found: dict[str, Any]) -> Any:
    """The error output a failed test shows: the check's own failure as the notebook shows one
    (`CheckFailed`, rendered as in the kernel), or why the test scored 0."""
    from course.exercises.report import CheckFailed

    if found.get("note"):
        return note_output(str(found["note"]))
    message = str(found.get("message") or "the test failed")
    return nbformat.v4.new_output("error", ename=CheckFailed.__name__, evalue=message,
                                  traceback=CheckFailed(message)._render_traceback_())
