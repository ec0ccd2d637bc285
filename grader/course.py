"""The instructor's course as the batch reads it: settings, assignment definitions, submissions.

`Course.open(root)` loads the course's nbgrader_config.py the way nbgrader does and answers what
the batch needs before grading: which submissions to grade (those nbgrader's API reports as not
yet autograded, or all of them with `force`), each assignment's definition from the gradebook (the
source cells in order, with the tests and their hidden lines), a small gradebook holding only those
definitions for the shards, and the files of each submission. It reads the course and writes only
the template it is asked for.
"""

from __future__ import annotations

import fnmatch
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CONFIG = "nbgrader_config.py"


def _venv_on_path() -> None:
    """nbgrader runs `alembic` by name when it creates a gradebook: put this Python's bin first."""
    here = str(Path(sys.executable).parent)
    if here not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = here + os.pathsep + os.environ.get("PATH", "")


@dataclass
class Course:
    """One course directory and its nbgrader settings."""

    root: Path
    config: Any
    """The traitlets Config read from the course's nbgrader_config.py."""
    coursedir: Any
    """nbgrader's CourseDirectory with that config (directory names, db_url, course_id)."""

    @classmethod
    def open(cls, root: str | os.PathLike[str]) -> Course:
        from nbgrader.coursedir import CourseDirectory
        from traitlets.config import Config
        from traitlets.config.loader import PyFileConfigLoader

        root = Path(root).resolve()
        config = Config()
        if (root / CONFIG).exists():
            config = PyFileConfigLoader(CONFIG, path=str(root)).load_config()
        coursedir = CourseDirectory(config=config)
        if "root" not in config.get("CourseDirectory", {}):
            coursedir.root = str(root)
        return cls(Path(coursedir.root), config, coursedir)

    @property
    def config_text(self) -> str:
        path = self.root / CONFIG
        return path.read_text() if path.exists() else ""

    def folder(self, step: str, student: str, assignment: str) -> Path:
        return Path(self.coursedir.format_path(step, student, assignment))

    def submitted(self, student: str, assignment: str) -> Path:
        return self.folder(self.coursedir.submitted_directory, student, assignment)

    def autograded(self, student: str, assignment: str) -> Path:
        return self.folder(self.coursedir.autograded_directory, student, assignment)

    def submissions(self, assignments: list[str], students: list[str] | None = None, *,
                    regrade: bool = False) -> list[tuple[str, str]]:
        """(student, assignment) pairs to grade, sorted: those nbgrader reports as submitted and
        not yet autograded (or handed in again since), every submission with `regrade`;
        restricted to `students` if given. A folder without a notebook is no submission."""
        from nbgrader.apps.api import NbGraderAPI

        api = NbGraderAPI(coursedir=self.coursedir, config=self.config)
        excluded = set(filter(None, self.coursedir.student_id_exclude.split(",")))
        found = []
        for assignment in assignments:
            waiting = api.get_submitted_students(assignment)
            if not regrade:
                waiting -= api.get_autograded_students(assignment)
            found += [(student, assignment) for student in waiting
                      if (not students or student in students) and student not in excluded
                      and any(self.submitted(student, assignment).glob("*.ipynb"))]
        return sorted(found)

    def timestamp(self, student: str, assignment: str) -> Any:
        return self.coursedir.get_existing_timestamp(str(self.submitted(student, assignment)))

    def files(self, folder: Path, *, notebooks: bool = True) -> dict[str, bytes]:
        """The files under `folder` as nbgrader would copy them (its ignore list applies)."""
        found: dict[str, bytes] = {}
        for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
            relative = path.relative_to(folder)
            if any(fnmatch.fnmatch(part, pattern) for part in relative.parts
                   for pattern in self.coursedir.ignore):
                continue
            if path.is_file() and not path.is_symlink() and (notebooks or path.suffix != ".ipynb"):
                found[str(relative)] = path.read_bytes()
        return found

    def source_files(self, assignment: str) -> dict[str, bytes]:
        """The assignment's supporting files (not notebooks): autograde copies them in."""
        return self.files(self.folder(self.coursedir.source_directory, ".", assignment),
                          notebooks=False)

    def gradebook(self) -> Any:
        from nbgrader.api import Gradebook

        _venv_on_path()
        return Gradebook(self.coursedir.db_url, self.coursedir.course_id)

    def private_paths(self) -> list[str]:
        """What a grading kernel must not read on this machine: the gradebook and the folders of
        submissions, grades, feedback and the source (solutions)."""
        paths = [self.root / name for name in (
            self.coursedir.submitted_directory, self.coursedir.autograded_directory,
            self.coursedir.feedback_directory, self.coursedir.source_directory)]
        url = self.coursedir.db_url
        if url.startswith("sqlite:///"):
            paths.append(Path(url[len("sqlite:///"):]))
        from grader import release  # the kit's own solutions, next to the harness

        paths.append(release.ROOT / release.SOURCE)
        return [str(p) for p in paths]


def definition(gradebook: Any, assignment: str) -> dict[str, Any]:
    """An assignment as the gradebook holds it: due date and, per notebook, its source cells in
    order with what each one is (locked, a test and its points, a solution, a task)."""
    record = gradebook.find_assignment(assignment)
    notebooks, kernelspecs = {}, {}
    for notebook in record.notebooks:
        kernelspecs[notebook.name] = notebook.kernelspec
        grades = {cell.name: cell.max_score for cell in notebook.grade_cells}
        tasks = {cell.name: cell.max_score for cell in notebook.task_cells}
        solutions = {cell.name for cell in notebook.solution_cells}
        notebooks[notebook.name] = [
            {"name": cell.name, "cell_type": cell.cell_type, "locked": bool(cell.locked),
             "source": cell.source, "checksum": cell.checksum, "grade": cell.name in grades,
             "solution": cell.name in solutions, "task": cell.name in tasks,
             "points": grades.get(cell.name, tasks.get(cell.name, 0.0))}
            for cell in notebook.source_cells]
    return {"name": assignment, "duedate": record.duedate.isoformat() if record.duedate else None,
            "notebooks": notebooks, "kernelspecs": kernelspecs}


def build_template(path: Path, definitions: list[dict[str, Any]], course_id: str) -> bytes:
    """A new gradebook holding only these assignments (no student, no grade), as bytes."""
    from nbgrader.api import Gradebook

    _venv_on_path()
    with Gradebook(f"sqlite:///{path}", course_id) as gradebook:
        for assignment in definitions:
            name = assignment["name"]
            extra = {"duedate": assignment["duedate"]} if assignment["duedate"] else {}
            gradebook.update_or_create_assignment(name, **extra)
            for notebook, cells in assignment["notebooks"].items():
                gradebook.update_or_create_notebook(
                    notebook, name, kernelspec=assignment["kernelspecs"].get(notebook))
                for cell in cells:
                    _template_cell(gradebook, cell, notebook, name)
    return path.read_bytes()


def _template_cell(gradebook: Any, cell: dict[str, Any], notebook: str, assignment: str) -> None:
    if cell["grade"]:
        gradebook.update_or_create_grade_cell(cell["name"], notebook, assignment,
                                              max_score=cell["points"],
                                              cell_type=cell["cell_type"])
    if cell["solution"]:
        gradebook.update_or_create_solution_cell(cell["name"], notebook, assignment)
    if cell["task"]:
        gradebook.update_or_create_task_cell(cell["name"], notebook, assignment,
                                             max_score=cell["points"],
                                             cell_type=cell["cell_type"])
    gradebook.update_or_create_source_cell(cell["name"], notebook, assignment,
                                           source=cell["source"], cell_type=cell["cell_type"],
                                           locked=cell["locked"], checksum=cell["checksum"])
