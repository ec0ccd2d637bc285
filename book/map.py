"""The course map: read book/course.toml, write it as the lesson table of README.md and the site.

    python -m book.map       # rewrite the table between the markers in README.md

The table is the same Markdown in both places, with links relative to the repository root (the
site keeps that layout). This module reads and writes text; it runs no notebook.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "book" / "course.toml"
README = ROOT / "README.md"
BEGIN = "<!-- course map: written by `python -m book.map` from book/course.toml; edit that -->"
END = "<!-- end of the course map -->"
FIELDS = {"lesson": ("file", "title", "builds", "modules", "exercises", "minutes", "needs"),
          "exercise": ("file", "title", "minutes")}


def _link(name: str, file: str, linked: set[str] | None) -> str:
    return f"[{name}]({file})" if linked is None or file in linked else name


@dataclass(frozen=True)
class Exercise:
    number: int
    file: str
    title: str
    minutes: int

    def link(self, linked: set[str] | None = None) -> str:
        return _link(f"{self.number} {self.title.lower()}", self.file, linked)


@dataclass(frozen=True)
class Lesson:
    number: str
    file: str
    title: str
    builds: str
    modules: tuple[str, ...]
    exercises: tuple[Exercise, ...]
    minutes: int
    needs: str


@dataclass(frozen=True)
class Course:
    lessons: tuple[Lesson, ...]
    exercises: tuple[Exercise, ...]


def load(path: Path = COURSE) -> Course:
    """The course, checked: every entry has its fields, numbers follow the file names."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for kind, fields in FIELDS.items():
        for index, entry in enumerate(data.get(kind, []), start=1):
            if missing := [field for field in fields if field not in entry]:
                raise ValueError(f"{path}: [[{kind}]] number {index} ({entry.get('file', '?')}) "
                                 f"lacks {', '.join(missing)}; give every {kind} {fields}")
    exercises = {int(Path(e["file"]).name[:2]): Exercise(int(Path(e["file"]).name[:2]),
                                                          e["file"], e["title"], e["minutes"])
                 for e in data["exercise"]}
    lessons = []
    for entry in data["lesson"]:
        if unknown := [n for n in entry["exercises"] if n not in exercises]:
            raise ValueError(f"{path}: {entry['file']} pairs with exercise(s) {unknown}, which "
                             f"have no [[exercise]] entry; add one or fix the number")
        lessons.append(Lesson(Path(entry["file"]).name[:2], entry["file"], entry["title"],
                              entry["builds"], tuple(entry["modules"]),
                              tuple(exercises[n] for n in entry["exercises"]),
                              entry["minutes"], entry["needs"]))
    return Course(tuple(lessons), tuple(exercises.values()))


def table(course: Course, *, linked: set[str] | None = None) -> str:
    """The course map as a Markdown table, with the total time under it; when `linked` is given,
    only the files in it are links (a site links only the pages it has)."""
    rows = ["| lesson | what it builds | harness module | exercise | time | needs |",
            "| --- | --- | --- | --- | --- | --- |"]
    for lesson in course.lessons:
        exercises = ", ".join(exercise.link(linked) for exercise in lesson.exercises)
        name = _link(f"{lesson.number} {lesson.title}", lesson.file, linked)
        modules = ", ".join(f"`{module}`" for module in lesson.modules)
        rows.append(f"| {name} | {lesson.builds} | {modules} | {exercises} | "
                    f"{lesson.minutes} min | {lesson.needs} |")
    reading = sum(lesson.minutes for lesson in course.lessons)
    graded = sum(exercise.minutes for exercise in course.exercises)
    rows.append("")
    rows.append(f"About {reading / 60:.1f} hours of lessons and {graded / 60:.1f} hours of "
                f"exercises ({', '.join(e.link(linked) for e in course.exercises)}).")
    return "\n".join(rows)


def existing(course: Course, root: Path = ROOT) -> set[str]:
    """The notebooks of the map that are in the tree: only they are links."""
    return {entry.file for entry in (*course.lessons, *course.exercises)
            if (root / entry.file).exists()}


def with_table(readme: str, course: Course) -> str:
    """`readme` with the text between the markers replaced by the course map (a notebook not
    yet in the tree is named without a link; rerun this once it is)."""
    pattern = re.compile(rf"{re.escape(BEGIN)}\n.*?{re.escape(END)}", re.S)
    if not pattern.search(readme):
        raise ValueError(f"README.md has no course map markers: put the lines\n{BEGIN}\n{END}\n"
                         f"where the table goes")
    linked = existing(course)
    return pattern.sub(lambda _: f"{BEGIN}\n{table(course, linked=linked)}\n{END}", readme)


def main() -> None:
    README.write_text(with_table(README.read_text(encoding="utf-8"), load()), encoding="utf-8")
    print(f"wrote the course map into {README.name}")


if __name__ == "__main__":
    main()
