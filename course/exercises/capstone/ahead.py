"""What the class grader makes ahead for one student's graded kernel of the capstone, which can
neither record nor plan batches (`grader.withhold` takes the reference loop and `plan_batches`
away): the student's variants recorded, and the batch cell's plans. The grader calls it as
`checks.record_ahead` and names the folder in `scenario_variants.AHEAD` for the kernel; this
module grades nothing.
"""

from __future__ import annotations

from pathlib import Path

from course.exercises.capstone.replays import BASE, Case, plans_ahead
from course.exercises.capstone.scenario_variants import PUBLIC, folder_name, variants_of
from course.exercises.capstone.scenario_variants import record_ahead as record_variants_ahead
from offline.scenarios import SCENARIOS


def record_ahead(student_id: str, seeds: list[int | None], folder: Path) -> None:
    """What a graded kernel needs and cannot make, made ahead into `folder` by the class
    grader: the student's variants recorded (`scenario_variants.record_ahead`), and how the
    batch cell's cases should run (`replays.plans_ahead`: a graded kernel has no
    `plan_batches`). The grader names `folder` in `scenario_variants.AHEAD` for the kernel."""
    record_variants_ahead(student_id, seeds, folder)
    public = variants_of(PUBLIC)["variant_batches"]
    cases = [Case(SCENARIOS["two_cities"], BASE, batches=True),
             Case(public, BASE, folder / folder_name(PUBLIC, None), batches=True)]
    cases += [Case(variants_of(student_id, seed)["variant_batches"], BASE,
                   folder / folder_name(student_id, seed), batches=True) for seed in seeds]
    plans_ahead(cases, folder)
