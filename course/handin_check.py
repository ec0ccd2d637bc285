"""`python -m course check NOTEBOOK`: before handing in, run your whole notebook from the top, as
the grader will, and list which graded cells pass on the cases the notebook shows.

It runs a copy of the notebook in a fresh kernel with nbclient (your file is not changed, and
nothing of the grader is used: only the notebook's own cells), in the notebook's folder, then lists
each graded cell (nbgrader's test cells) with its points and, when it fails, the first line of what
it said; before them, any other cell that raised (a solution cell with a syntax error fails every
graded cell after it with a NameError, so that cell is named). A cell that runs past the time limit
fails with a note. The grader also runs hidden cases, so passing here is necessary, not sufficient.
NOTEBOOK is a path, or an exercise's name (`02_early_exit`: your copy in my_work/exercises/ when you
have one).
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

ANSI = re.compile(r"\x1b\[[0-9;]*m")
TIMEOUT = 60
"""Seconds a cell may run, as the course's grading allows."""
ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Graded:
    """One graded cell's outcome: None for a pass, else the first line of what it said."""

    name: str
    points: float
    failure: str | None


def resolve(name: str) -> Path:
    """The notebook `name` means: a path as given, or an exercise's notebook by its name."""
    given = Path(name)
    if given.suffix == ".ipynb" or given.exists():
        if not given.exists():
            raise ValueError(f"{name}: no such notebook")
        return given
    for folder in (ROOT / "my_work" / "exercises", ROOT / "exercises"):
        path = folder / name / f"{name}.ipynb"
        if path.exists():
            return path
    raise ValueError(f"{name}: neither a notebook nor an exercise's name (e.g. 02_early_exit)")


@dataclass
class Checked:
    """A notebook's run: each graded cell's outcome, and the solution and read-only cells that
    raised."""

    graded: list[Graded]
    broken: list[Graded]


def run(path: Path, *, timeout: int = TIMEOUT) -> Checked:
    """Run a copy of the notebook at `path` from the top; each graded cell's outcome."""
    import nbformat
    from nbclient import NotebookClient

    try:
        notebook = nbformat.read(path, as_version=4)
    except Exception as exc:  # noqa: BLE001 (a notebook Jupyter cannot read: say so, plainly)
        raise ValueError(f"{path}: not a notebook Jupyter can read ({exc})") from None
    from jupyter_client.manager import KernelManager

    with tempfile.TemporaryDirectory(prefix="course-check-") as sockets:
        # Unix sockets of its own: nothing else on the machine can talk to this kernel.
        manager = KernelManager(kernel_name=notebook.metadata.get("kernelspec", {}).get(
            "name", "python3"), transport="ipc", ip=os.path.join(sockets, "kernel"))
        client = NotebookClient(notebook, km=manager, timeout=timeout, allow_errors=True,
                                resources={"metadata": {"path": str(path.parent.resolve())}},
                                error_on_timeout={"ename": "Timeout", "evalue":
                                                  f"ran past {timeout} s and was stopped",
                                                  "traceback": []})
        try:
            client.execute()
        finally:
            if manager.has_kernel:
                manager.shutdown_kernel(now=True)
    graded, broken = [], []
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("nbgrader", {})
        outcome = Graded(meta.get("grade_id", f"cell {number}"), float(meta.get("points") or 0),
                         _failure(cell))
        if meta.get("grade"):
            graded.append(outcome)
        elif outcome.failure is not None and (meta.get("solution") or meta.get("locked")):
            broken.append(outcome)  # the cells the graded ones build on (not the try-it checks)
    return Checked(graded, broken)


def _failure(cell: dict) -> str | None:
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            text = ANSI.sub("", f"{output.get('ename')}: {output.get('evalue')}".strip())
            return text.splitlines()[0] if text else output.get("ename") or "error"
    return None


def report(path: Path, checked: Checked) -> str:
    """What the student reads: the cells of theirs that raised, each graded cell, and the total
    on the public cases."""
    graded = checked.graded
    if not graded:
        return f"{path}: no graded cells (is this an exercise notebook?)"
    width = max(len(g.name) for g in graded)
    lines = [f"{path}: {len(graded)} graded cells, run from the top in a fresh kernel"]
    lines += [f"  error in {item.name}: {item.failure} (the cells after it may fail for it)"
              for item in checked.broken]
    for item in graded:
        mark = "pass" if item.failure is None else "FAIL"
        lines.append(f"  {mark}  {item.name:<{width}}  {item.points:g} pt"
                     + (f"  {item.failure}" if item.failure else ""))
    passed = sum(g.points for g in graded if g.failure is None)
    lines.append(f"{passed:g} of {sum(g.points for g in graded):g} points on the public cases "
                 "(the grader adds hidden cases)")
    return "\n".join(lines)


def main(name: str) -> int:
    path = resolve(name)
    checked = run(path)
    print(report(path, checked))
    return 0 if all(g.failure is None for g in checked.graded) else 1
