"""What `python -m grader autograde` tells the instructor at the end of a run: the summary it
prints and the `--report` file, written whatever the run met (`grader.autograde` guards each
stage before; the report is written before anything is printed). Nothing here grades."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from grader.copies import Copy
from grader.merge import Incident

if TYPE_CHECKING:
    from grader.autograde import Batch

COPIES = "copies.csv"
"""Near-copies for review, written next to grades.csv (which stays nbgrader's export)."""
HELP = """what it writes, next to the gradebook:
  grades.csv    nbgrader's export (one row per student and assignment; 0.0 for work never
                handed in, which the summary names)
  copies.csv    near-copies for review (assignment,cell,student,other,similarity)
  --report F    every incident as JSON: student, assignment, notebook, cell, kind, what
and prints a summary: per student and cell, each late, renamed, corrupt or missing notebook,
each edited or deleted test cell, each timeout, each typed id that is not the submission's,
each test whose record was at fault, in words, with what to do.

examples:
  python -m grader autograde "*"                       every assignment, one shard per core
  python -m grader autograde 02_early_exit --student ada   regrade one student
  python -m grader autograde "*" --scheduler local     on a local Dask cluster"""
"""The end of `python -m grader autograde --help`: what a run leaves and says."""
SHOWN = 20
"""Near-copies printed in the summary; copies.csv and the report list them all."""


def near_copies(found: list[Copy]) -> list[Incident]:
    """Each near-copy as the report lists it: for review, not graded down."""
    return [Incident(c.student, c.assignment, f"near-copy of {c.other} (similarity "
                     f"{c.similarity:.2f}): for the instructor to review", cell=c.cell,
                     kind="near-copy") for c in found]


def never_handed_in(missing: list[tuple[str, str]]) -> list[Incident]:
    """Each row of grades.csv that is work never handed in, as the report lists it."""
    return [Incident(student, assignment, "never handed in: grades.csv says 0.0 (no "
                     "submission in the gradebook); if it was handed in elsewhere, copy it to "
                     f"submitted/{student}/{assignment}/ and grade it", kind="not handed in")
            for student, assignment in missing]


def write_report(path: str, incidents: list[Incident]) -> str | None:
    """The incidents as JSON at `path`; what went wrong if it could not be written, else None."""
    try:
        Path(path).write_text(json.dumps([asdict(i) for i in incidents], indent=1))
    except OSError as exc:
        return f"could not write the report {path}: {exc}"
    return None


def show(batch: Batch, incidents: list[Incident], flagged: list[Incident],
         seconds: float) -> None:
    """Print what was graded, by whom, every incident and the near-copies."""
    if hasattr(sys.stdout, "reconfigure"):  # an incident quoting odd text must still print
        sys.stdout.reconfigure(errors="backslashreplace")
    notebooks = sum(len(batch.definitions[a]["notebooks"]) for _, a in batch.pairs)
    print(f"graded {len(batch.pairs)} submissions ({notebooks} notebooks) in {seconds:.0f} s, "
          f"{notebooks / max(seconds, 1e-9) * 60:.1f} notebooks a minute; "
          f"{len(incidents)} incidents")
    # Each shard reports the machine and process that graded it (one process locally, one per
    # Dask worker on a cluster), so an instructor sees the work was spread as asked.
    print(f"on {batch.engine}; shards graded by {len(batch.workers)} process(es), as "
          f"machine:pid: {', '.join(sorted(batch.workers))}")
    # By student, then assignment and cell: what each student's work needs, in one place.
    for incident in sorted(incidents, key=lambda i: (i.student, i.assignment, i.notebook,
                                                     i.cell)):
        where = "/".join(filter(None, [incident.student, incident.assignment, incident.cell]))
        kind = f"[{incident.kind}] " if incident.kind else ""
        print(f"  {where or 'the run'}: {kind}{incident.what}")
    if batch.missing:  # nbgrader's export lists them as 0.0 without saying why
        print(f"{len(batch.missing)} rows of grades.csv are work never handed in (score 0.0, "
              "no submission in the gradebook): "
              f"{', '.join('/'.join(pair) for pair in batch.missing[:SHOWN])}"
              + (" ..." if len(batch.missing) > SHOWN else ""))
    print(f"{len(flagged)} near-copies flagged for review in {COPIES} (not graded down)")
    for incident in flagged[:SHOWN]:
        print(f"  {incident.student}/{incident.assignment}/{incident.cell}: {incident.what}")
    if len(flagged) > SHOWN:
        print(f"  ... and {len(flagged) - SHOWN} more in {COPIES}")
