"""A class that hands in through an LMS (Canvas): its download collected, its grades sent back.

The roster, a CSV the instructor keeps beside the course (git-ignored: it holds the class), maps
each nbgrader student id to the LMS's: the columns `student_id` and `canvas_id` (Canvas's user
ID, the number in its submission file names and the "ID" column of its gradebook) are needed;
`name`, `sis_user_id`, `sis_login_id` and `section` are copied into the grades file if present.

- `CanvasCollector`, a plugin of `nbgrader zip_collect`: Canvas names each downloaded file by
  the student's name, `LATE` if late, the Canvas id and a file id, then the original name (a
  resubmission's original name gains "-1"), joined by `_`; it
  reads the Canvas id, maps it to the student through the roster and restores the notebook's own
  name. A file whose id the roster lacks is skipped with an error naming the file and the id.
- `CanvasExport`, a plugin of `nbgrader export`: grades in the layout Canvas's gradebook imports
  (Student, ID, SIS User ID, SIS Login ID, Section, then a column per assignment, and a "Points
  Possible" row), each score after nbgrader's late penalty; work never handed in is left blank
  (Canvas shows it as missing, not as 0). A graded student the roster lacks stops the export,
  named, so no grade is silently left out.

Both are nbgrader's own plugin points (`--collector`, `--exporter`); nothing here grades.
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass
from typing import Any

from nbgrader.api import MissingEntry
from nbgrader.plugins import ExportPlugin
from nbgrader.plugins.zipcollect import FileNameCollectorPlugin
from traitlets import Dict, Unicode

NEEDED = ("student_id", "canvas_id")
CANVAS_FILE = re.compile(r"^(?P<name>[^_]+)_(?:LATE_)?(?P<canvas_id>\d+)_(?P<file>\d+)_"
                         r"(?P<original>.+?)(?:-\d+)?(?P<ext>\.[^.]+)$")
"""A Canvas download's file name: who, whether late, Canvas's user id, its file id, the name."""
HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
COLUMNS = ("name", "canvas_id", "sis_user_id", "sis_login_id", "section")


@dataclass
class Roster:
    """The class as the LMS knows it: one row per student, by nbgrader id and by Canvas id."""

    rows: list[dict[str, str]]

    @classmethod
    def read(cls, path: str) -> Roster:
        """Read and check the roster; a clear error names the file, the row and the fix."""
        if not path:
            raise ValueError("no roster given: set the roster's path (a CSV with the columns "
                             "student_id,canvas_id), e.g. --CanvasCollector.roster=roster.csv")
        try:
            with open(path, newline="", encoding="utf-8-sig") as handle:
                rows = list(csv.DictReader(handle))
                fields = rows[0].keys() if rows else []
        except OSError as exc:
            raise ValueError(f"cannot read the roster {path}: {exc}") from None
        missing = [name for name in NEEDED if name not in fields]
        if missing:
            raise ValueError(f"{path}: the roster needs the columns {', '.join(NEEDED)} "
                             f"(missing: {', '.join(missing)}; the first line names them)")
        seen: dict[str, dict[str, int]] = {name: {} for name in NEEDED}
        for number, row in enumerate(rows, start=2):
            for name in NEEDED:
                value = (row.get(name) or "").strip()
                if not value:
                    raise ValueError(f"{path}, line {number}: {name} is empty")
                if value in seen[name]:
                    raise ValueError(f"{path}, line {number}: {name} {value!r} is already on "
                                     f"line {seen[name][value]}: each student once")
                seen[name][value] = number
                row[name] = value
        return cls(rows)

    def by(self, column: str) -> dict[str, dict[str, str]]:
        return {row[column]: row for row in self.rows}


class CanvasCollector(FileNameCollectorPlugin):
    """`nbgrader zip_collect --collector=grader.lms.CanvasCollector`: Canvas's file names, mapped
    to nbgrader's student ids through the roster."""

    roster = Unicode("", help="The roster CSV (student_id,canvas_id,...)").tag(config=True)

    def collect(self, submitted_file: str) -> dict[str, Any] | None:
        match = CANVAS_FILE.match(os.path.basename(submitted_file))
        if not match or match.group("ext") not in self.valid_ext:
            self.log.warning("Not a Canvas submission file name, skipped: %s", submitted_file)
            return None
        if not hasattr(self, "_students"):
            self._students = Roster.read(self.roster).by("canvas_id")
        student = self._students.get(match.group("canvas_id"))
        if student is None:
            self.log.error("Canvas id %s (%s) is not in the roster %s: %s is skipped; add a "
                           "line student_id,%s for this student and run zip_collect again",
                           match.group("canvas_id"), match.group("name"), self.roster,
                           submitted_file, match.group("canvas_id"))
            return None
        # Canvas's download is flat: the notebook goes to the top of the submission's folder.
        return {"student_id": student["student_id"],
                "file_id": match.group("original") + match.group("ext")}


class CanvasExport(ExportPlugin):
    """`nbgrader export --exporter=grader.lms.CanvasExport --to canvas.csv`: the grades in the
    layout Canvas's gradebook imports, one row per student of the roster."""

    roster = Unicode("", help="The roster CSV (student_id,canvas_id,...)").tag(config=True)
    assignment_ids = Dict({}, help="Canvas's id of each assignment, by nbgrader name: the "
                          "column becomes 'NAME (ID)', which Canvas matches to that "
                          "assignment (without, Canvas offers to create one)").tag(config=True)

    def export(self, gradebook: Any) -> None:
        roster = Roster.read(self.roster)
        known = roster.by("student_id")
        strangers = sorted(s.id for s in gradebook.students if s.id not in known)
        if strangers:
            raise ValueError(f"students in the gradebook but not in the roster {self.roster}: "
                             f"{', '.join(strangers)}; add a line student_id,canvas_id for each "
                             "(their grades would otherwise not reach Canvas)")
        assignments = list(gradebook.assignments)
        titles = [f"{a.name} ({self.assignment_ids[a.name]})" if a.name in self.assignment_ids
                  else a.name for a in assignments]
        path = self.to or "canvas_grades.csv"
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(HEADER + titles)
            writer.writerow(["Points Possible", "", "", "", ""]
                            + [f"{a.max_score:g}" for a in assignments])
            for row in roster.rows:
                writer.writerow([row.get(c, "") for c in COLUMNS]
                                + [_score(gradebook, a.name, row["student_id"])
                                   for a in assignments])
        self.log.info("Wrote the Canvas gradebook file %s (%d students)", path, len(roster.rows))


def _score(gradebook: Any, assignment: str, student: str) -> str:
    """The score Canvas gets: after the late penalty; blank for work never handed in."""
    try:
        submission = gradebook.find_submission(assignment, student)
    except MissingEntry:
        return ""
    return f"{max(0.0, submission.score - submission.late_submission_penalty):g}"
