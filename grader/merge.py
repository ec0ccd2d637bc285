"""Write a shard's results into the instructor's course: one writer, the real gradebook.

`Merger.merge(result)` records one graded submission the way `nbgrader autograde` does, with
nbgrader's own code: the student and the submission with its timestamp through the `Gradebook`
API, then nbgrader's `SaveAutoGrades` preprocessor on each executed notebook (each test's score,
"No response." comments) and, once the grader's caps are in, its `AssignLatePenalties`
preprocessor (the course's late-submission plugin). What the grader adds: each test's score is
the grading process's (`verdict`), which judged the kernel's record where no student code runs,
and the test's output says what it found (a failed check's message); a test whose record was at
fault is an incident, with a comment saying why and its notebook flagged; hidden-test lines are
removed from outputs; and the autograded files are copied into place.
`export` writes grades.csv with nbgrader's own CSV exporter. Nothing here runs student code.
"""

from __future__ import annotations

import logging
import os
import shutil
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
from nbgrader.preprocessors import AssignLatePenalties, SaveAutoGrades

from grader import annotate, hidden, outputs
from grader.course import Course
from grader.incident import Incident, notices


@dataclass
class Merger:
    """Holds the gradebook open while results arrive; `close()` commits and releases it."""

    course: Course
    definitions: dict[str, dict[str, Any]]
    incidents: list[Incident] = field(default_factory=list)
    gradebook: Any = None
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("grader.merge"))

    def __post_init__(self) -> None:
        self.gradebook = self.course.gradebook()
        self.log.addHandler(logging.NullHandler())  # nbgrader's "N seconds late" notes: not here
        self.log.propagate = False

    def close(self) -> None:
        self.gradebook.db.commit()
        self.gradebook.close()

    def register(self, students: list[str]) -> None:
        """Create the students up front in sorted order, as nbgrader's sorted walk would: the
        export lists students with equal names in the order they were created."""
        for student in sorted(set(students)):
            self.gradebook.update_or_create_student(student)
        self.gradebook.db.commit()

    def merge(self, result: dict[str, Any]) -> None:
        """Record one submission (graded, or failed for good) and its incidents."""
        from sqlalchemy.exc import SAWarning

        try:
            with warnings.catch_warnings():
                # nbgrader's add_submission trips SQLAlchemy's autoflush warning; so does
                # `nbgrader autograde` itself: it is harmless.
                warnings.simplefilter("ignore", SAWarning)
                self._merge(result)
        except Exception as exc:  # one odd notebook must not stop the class's merge
            self.gradebook.db.rollback()
            self._unrecorded(result, exc)

    def _merge(self, result: dict[str, Any]) -> None:
        student, assignment = result["student"], result["assignment"]
        gradebook = self.gradebook
        gradebook.update_or_create_student(student)
        stamp = self.course.timestamp(student, assignment)
        submission = (gradebook.update_or_create_submission(assignment, student, timestamp=stamp)
                      if stamp else gradebook.update_or_create_submission(assignment, student))
        if not result["ok"]:
            self._failed(result, submission)
            return
        if not any(line == "guarded" for line in result.get("cells", [])):
            self.incidents.append(Incident(student, assignment, "the kernel ran without the "
                                           "grading policy (the extension did not load)"))
        if result.get("skipped"):
            self.incidents.append(Incident(student, assignment, (
                f"{len(result['skipped'])} cell(s) stopped the kernel (a crash, an exit or a "
                f"loop that ignored the time limit): graded again without them")))
        dest = self.course.autograded(student, assignment)
        files = dict(result["files"])
        gradebook.db.commit()  # nbgrader's preprocessors open sessions of their own
        for notebook in self.definitions[assignment]["notebooks"]:
            name = f"{notebook}.ipynb"
            if name not in files:
                self._missing(notebook, assignment, student)
                continue
            cells = nbformat.reads(files[name].decode(), as_version=nbformat.NO_CONVERT)
            self._nbgrader(SaveAutoGrades, cells, notebook, assignment, student)
            judged = self._judge(cells, notebook, result, submission)
            redacted = self._redact(cells, notebook, result)  # the judge's messages too
            if judged or redacted:
                files[name] = (nbformat.writes(cells) + "\n").encode()  # as nbgrader writes
            if result.get("skipped"):
                self.gradebook.find_submission_notebook(notebook, assignment,
                                                        student).flagged = True
            gradebook.db.commit()
            self._nbgrader(AssignLatePenalties, cells, notebook, assignment, student)
        self._write(dest, files)
        self._keep_manual(submission)
        self.incidents += notices(result, submission)
        gradebook.db.commit()

    def _keep_manual(self, submission: Any) -> None:
        """A score given by hand (formgrader) stands through a regrade: nbgrader's
        SaveAutoGrades marks such a cell as needing a manual grade again, which it has."""
        for notebook in submission.notebooks:
            for grade in notebook.grades:
                if grade.manual_score is not None:
                    grade.needs_manual_grade = False

    def _nbgrader(self, preprocessor: type, cells: Any, notebook: str, assignment: str,
                  student: str) -> None:
        """Run one of nbgrader's autograde preprocessors on an executed notebook, as
        `nbgrader autograde` runs it (it writes to the gradebook in a session of its own)."""
        resources = {"nbgrader": {"notebook": notebook, "assignment": assignment,
                                  "student": student, "db_url": self.course.coursedir.db_url}}
        preprocessor(config=self.course.config, log=self.log).preprocess(cells, resources)

    def _missing(self, notebook: str, assignment: str, student: str) -> None:
        """A notebook not handed in scores 0, as `nbgrader autograde` records it. (The batch has
        said already when it was handed in under another name, or could not be read.)"""
        record = self.gradebook.find_submission_notebook(notebook, assignment, student)
        for grade in record.grades:
            grade.auto_score = 0
            grade.needs_manual_grade = False

    # The grader's own additions --------------------------------------------------------------

    def _redact(self, notebook: dict[str, Any], name: str, result: dict[str, Any]) -> bool:
        """Make every output safe to show on a page (feedback, formgrader): what could run in a
        browser made inert (`outputs.sanitize`), and hidden test content removed, whole or in
        part (a submission can read its own tests from the kernel's memory and print them
        later). Each is an incident that flags the notebook. True if changed."""
        student, assignment = result["student"], result["assignment"]
        inert = outputs.sanitize(notebook)
        tests = hidden.HiddenTests(self.definitions[assignment]["notebooks"][name])
        printed = tests.redact(notebook)
        if inert:
            self.incidents.append(Incident(student, assignment, (
                f"outputs that could run code in a browser were made inert: "
                f"{', '.join(inert)}"), name))
        if printed:
            self.incidents.append(Incident(student, assignment,
                                           "printed hidden test lines (removed)", name))
        if inert or printed:
            self.gradebook.find_submission_notebook(name, assignment, student).flagged = True
        return bool(inert) or printed

    def _judge(self, notebook: dict[str, Any], name: str, result: dict[str, Any],
               submission: Any) -> bool:
        """Give each test the grading process's score (the kernel's own run is the student's,
        and a graded kernel has no reference to pass with), and make the test's output say what
        that process found, so feedback shows the grade's reason. A test the record failed
        (none, forged, not fitting the checks) is an incident and flags the notebook; a test
        the kit failed asks for a grade by hand. True if the notebook changed."""
        student, assignment = result["student"], result["assignment"]
        verdict = result.get("verdict", {}).get(name) or {}
        scores, printed = verdict.get("scores", {}), verdict.get("checks") or {}
        changed = False
        for cell in notebook.get("cells", []):
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if cell.get("cell_type") == "code" and not meta and printed:
                changed = annotate.self_check_output(cell, printed) or changed
            if not meta.get("grade") or meta.get("solution") or cell.get("cell_type") != "code":
                continue
            grade = self.gradebook.find_grade(meta["grade_id"], name, assignment, student)
            if grade.auto_score is None:
                continue
            found = scores.get(meta["grade_id"]) or {
                "score": 0.0, "note": verdict.get("problem") or "the grading process did not "
                "grade this test", "message": None}
            kernel_score = grade.auto_score
            grade.auto_score = found["score"]
            grade.needs_manual_grade = bool(found.get("kit_error")) or \
                grade.manual_score is not None
            outputs = [o for o in cell.get("outputs", []) if o.get("output_type") != "error"]
            if found["score"] < float(meta.get("points") or 0):
                outputs.append(annotate.verdict_output(found))
            if outputs != cell.get("outputs", []):
                cell["outputs"], changed = outputs, True
            if found.get("note"):
                self.incidents.append(Incident(student, assignment, found["note"], name,
                                               meta["grade_id"], kernel_score, found["score"]))
                self._comment(notebook, cell, name, assignment, student, found, meta)
                self.gradebook.find_submission_notebook(name, assignment, student).flagged = True
        return changed

    def _comment(self, notebook: dict[str, Any], cell: dict[str, Any], name: str,
                 assignment: str, student: str, found: dict[str, Any],
                 meta: dict[str, Any]) -> None:
        """Say why under the nearest solution cell before the test (nbgrader comments live on
        solution cells)."""
        cells = notebook["cells"]
        for earlier in reversed(cells[:cells.index(cell)]):
            solution = earlier.get("metadata", {}).get("nbgrader", {})
            if solution.get("solution"):
                from nbgrader.api import MissingEntry

                try:
                    comment = self.gradebook.find_comment(solution["grade_id"], name,
                                                          assignment, student)
                except MissingEntry:
                    return
                text = (f"Test {meta['grade_id']} scored {found['score']:g} by the "
                        f"grader: {found['note']}")
                comment.auto_comment = "\n".join(filter(None, [comment.auto_comment, text]))
                return

    def _failed(self, result: dict[str, Any], submission: Any) -> None:
        """A submission nbgrader could not grade even with its stopping cells skipped."""
        for notebook in submission.notebooks:
            notebook.flagged = True
            for grade in notebook.grades:
                grade.auto_score = 0
                grade.needs_manual_grade = True
        self.incidents.append(Incident(result["student"], result["assignment"],
                                       result.get("reason") or "could not be graded",
                                       kind=result.get("kind") or "not graded"))
        self.gradebook.db.commit()

    def _unrecorded(self, result: dict[str, Any], exc: Exception) -> None:
        """A submission whose merge failed part way: nbgrader's preprocessors commit on their
        own, so the kernel's scores may already stand in the gradebook; they are no grade (the
        grading process's never came in), so they go to 0 for a grade by hand."""
        student, assignment = result["student"], result["assignment"]
        self.incidents.append(Incident(student, assignment, f"not recorded: "
                                       f"{type(exc).__name__}: {exc}; graded 0 until someone "
                                       f"looks"))
        try:
            submission = self.gradebook.find_submission(assignment, student)
        except Exception:  # noqa: BLE001 (nothing was recorded, so nothing stands)
            return
        for notebook in submission.notebooks:
            notebook.flagged = True
            for grade in notebook.grades:
                grade.auto_score = 0
                grade.needs_manual_grade = True
        self.gradebook.db.commit()

    def _write(self, dest: Path, files: dict[str, bytes]) -> None:
        """Replace the autograded folder, with nbgrader's permissions."""
        if dest.exists():
            for path in dest.rglob("*"):
                if path.is_file():
                    path.chmod(0o644)
            shutil.rmtree(dest)
        mode = 0o664 if self.course.coursedir.groupshared else 0o444
        for relative, data in files.items():
            path = dest / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            os.chmod(path, mode)
