"""What the instructor is told about one submission: the `Incident` record the summary and the
`--report` file list, and `notices`, the incidents of a merged submission that nbgrader met or
the gradebook knows (nbgrader's warnings, cells stopped at the time limit, lateness), each in
plain words with what to do. It decides no score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Incident:
    """One thing the instructor should look at, as the report and the summary show it."""

    student: str
    assignment: str
    what: str
    notebook: str = ""
    cell: str = ""
    score: float | None = None
    capped_to: float | None = None
    kind: str = ""
    """What sort of case it is ("late", "timeout", "edited cell", ...; "" for the grader's own
    findings about a test's record), so a report can be sorted and counted."""



def notices(result: dict[str, Any], submission: Any) -> list[Incident]:
    """What nbgrader met in this submission (`grader.nbgrader_log`), the cells stopped at the
    time limit and the lateness, each an incident in plain words with what to do."""
    student, assignment = result["student"], result["assignment"]
    found: list[Incident] = []
    for item in result.get("warnings", []):
        found.append(Incident(student, assignment, item["what"], item["notebook"],
                                       item["cell"], kind=item["kind"]))
    for item in result.get("timeouts", []):
        cell = item.get("cell") or (f"the notebook's cell {item['index'] + 1} (one of the "
                                    "student's own)" if item.get("index") is not None
                                    else "a cell of the student's own")
        found.append(Incident(student, assignment, (
            f"{cell} ran past the time limit ({item.get('seconds')} s a cell) and was "
            "stopped: a test scores 0, and a retry did not run it again. Nothing to do, "
            "unless honest work needs longer (--timeout)"), item.get("notebook") or "",
            item.get("cell") or "", kind="timeout"))
    late = submission.total_seconds_late
    if late > 0:
        penalty = sum(n.late_submission_penalty or 0 for n in submission.notebooks)
        found.append(Incident(student, assignment, (
            f"handed in {_duration(late)} after the due date: the course's late penalty "
            f"took {penalty:g} point(s). To excuse it, give the student an extension "
            f"(formgrader's gradebook, or nbgrader db) and regrade with --student {student}"),
            kind="late"))
    return found


def _duration(seconds: float) -> str:
    """`1 d 2 h 5 min` for people, down to the minute (a minute at least).

    Example:
        >>> _duration(93_900), _duration(20)
        ('1 d 2 h 5 min', '1 min')
    """
    minutes = max(1, round(seconds / 60))
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    return " ".join(f"{n} {unit}" for n, unit in ((days, "d"), (hours, "h"), (mins, "min"))
                    if n) or "1 min"
