"""The hostile corpus (tests/classgrader/hostile) through the real pipeline: the attackers and
their honest neighbours, graded with the exercise corpus in the test run's one class
(`classgrader.graded`) by `python -m grader` with real nbgrader kernels, each in the OS sandbox.
Each attack must score exactly what its module expects (no unearned point, the rest of the
notebook still graded), its outputs must show the operating system's refusal (there is no Python
hook left to refuse anything), the neighbours full marks with their files untouched, and the
batch must finish. The same attackers under plain `nbgrader autograde` show which attacks the
batch is there to stop. Both runs write their scores, and what stopped each attack, to
test-artifacts/hostile_outcomes.md for the lead to read.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest
from grading import submissions

from classgrader import hostile
from classgrader.graded import (
    ATTACKS,
    NEIGHBOURS,
    SECRET,
    digests,
    graded_class,
    hidden_lines,
    outputs_of,
    plain_class,
)
from grader import annotate, hidden

pytestmark = pytest.mark.slow

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
OUTCOMES: dict[str, dict[str, str]] = {}


@pytest.fixture(scope="module")
def graded():
    yield graded_class()
    _write_outcomes()


def _expected(module_expect: dict | str, exercise: str) -> dict[str, float]:
    full = hostile.max_points(exercise)
    if module_expect == "zero":
        return dict.fromkeys(full, 0.0)
    return {name: float(module_expect.get(name, points)) for name, points in full.items()}


def _observed(scores: dict, student: str, exercise: str) -> dict[str, float]:
    return {name: float(value or 0) for name, value in scores.get((student, exercise), {}).items()}


def _summary(scores: dict[str, float], exercise: str) -> str:
    full = hostile.max_points(exercise)
    lost = sorted(name for name, value in scores.items() if value < full[name])
    total = f"{sum(scores.values()):g}/{sum(full.values()):g}"
    return total if not lost or len(lost) == len(full) else f"{total} (lost {', '.join(lost)})"


def test_the_batch_finishes_and_records_every_submission(graded):
    done = graded.done
    assert done.returncode == 0, done.stdout + done.stderr
    assert graded.seconds < 900
    students = {student for student, _ in graded.scores}
    assert set(ATTACKS) | set(NEIGHBOURS) <= students


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_each_attack_scores_exactly_what_it_earned(graded, name):
    module = ATTACKS[name]
    observed = _observed(graded.scores, name, module.EXERCISE)
    OUTCOMES.setdefault(name, {})["batch"] = _summary(observed, module.EXERCISE)
    assert observed == _expected(module.EXPECT, module.EXERCISE)


def test_neighbours_are_unaffected(graded):
    course = graded.course
    for student, exercise in NEIGHBOURS.items():
        assert _observed(graded.scores, student, exercise) == _expected({}, exercise)
        assert (course / "autograded" / student / exercise / f"{exercise}.ipynb").exists()
    assert digests(course, "submitted") == graded.submitted  # no submission was changed


def test_no_connection_and_no_write_outside_the_kernels_folders(graded):
    course = graded.course
    assert graded.listener.accepted == 0
    assert not (course / "pwned.txt").exists()
    outputs = _outputs(course, "network", "03_no_progress")  # the kernel's own network namespace:
    assert "ConnectionRefusedError" in outputs  # a loopback where nothing listens,
    assert "Network is unreachable" in outputs  # no route out,
    assert "URLError" in outputs and "connected" not in outputs  # and no name server


@pytest.mark.parametrize("name", sorted(n for n, m in ATTACKS.items() if getattr(m, "EVIDENCE",
                                                                                    None)))
def test_the_operating_system_stopped_it(graded, name):
    module = ATTACKS[name]
    outputs = _outputs(graded.course, name, module.EXERCISE)
    missing = [line for line in module.EVIDENCE if line not in outputs]
    assert not missing, f"{name}: {missing} not in its outputs:\n{outputs[-3000:]}"


def test_nothing_reached_the_disk_and_no_secret_reached_an_output(graded):
    course = graded.course
    folder = course / "autograded" / "fills_disk" / "03_no_progress"
    assert sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) < 1_000_000
    for path in (course / "autograded").rglob("*.ipynb"):
        assert SECRET not in outputs_of(path), path


def test_no_hidden_test_reaches_an_output_or_the_feedback(graded):
    """Autograded notebooks hold the hidden tests in their sources (they are the instructor's);
    what reaches students is the outputs, through the feedback: no hidden line there, whole, in
    part, split, spaced out, escaped or as its seed alone."""
    course, lines = graded.course, hidden_lines()
    for path in (course / "autograded").rglob("*.ipynb"):
        leaks = [line for line in lines if line in outputs_of(path)]
        assert not leaks, f"{path} prints hidden tests: {leaks}"
        texts = _output_texts(path)
        assert not any(_hidden_in(path.stem).leaks(texts)), f"{path} prints hidden tests"
    for student in ("reads_hidden_tests", "prints_hidden_tests"):
        pages = list((course / "feedback" / student).rglob("*.html"))
        assert pages, graded.feedback.stdout + graded.feedback.stderr
        text = html.unescape(re.sub(r"<[^>]+>", "", pages[0].read_text()))
        assert not [line for line in lines if line in text]
        assert not any(_hidden_in("03_no_progress").leaks([text])), student
        assert not re.search(r"\b30917\b", text), student  # the hidden call's seed


def test_only_who_printed_hidden_tests_is_flagged_for_it(graded):
    printed = {i["student"] for i in graded.report if "hidden test lines" in i["what"]}
    assert printed == {"reads_hidden_tests", "prints_hidden_tests"}
    path = graded.course / "autograded/prints_hidden_tests/03_no_progress/03_no_progress.ipynb"
    assert hidden.HIDDEN.strip() in outputs_of(path)  # cut by the merge, where it is said so
    assert (graded.scores[("prints_hidden_tests", "03_no_progress")] ==
            _expected({}, "03_no_progress"))  # the tests ran before: nothing to take away


def _hidden_in(exercise: str) -> hidden.HiddenTests:
    cells = [{"source": c.source} for c in submissions.notebook("solutions", exercise).cells]
    return hidden.HiddenTests(cells)


def _output_texts(path: Path) -> list[str]:
    cells = json.loads(path.read_text())["cells"]
    return ["".join(o.get("text", "")) + str(o.get("evalue", "")) + json.dumps(o.get("data", {}))
            + "".join(o.get("traceback", [])) for c in cells for o in c.get("outputs", [])]


def _formgrader_page(path: Path, student: str) -> str:
    """The page formgrader shows for an autograded notebook (its exporter and template)."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers

    exporter = HTMLExporter(template_name="formgrade",
                            extra_template_basedirs=[handlers.template_path])
    resources = {"assignment_id": "03_no_progress", "notebook_id": "03_no_progress",
                 "submission_id": "1", "index": 0, "total": 1, "base_url": "",
                 "student": student, "last_name": None, "first_name": None,
                 "notebook_path": str(path)}
    page, _ = exporter.from_filename(str(path), resources=resources)
    return page


def test_no_output_runs_a_script_in_formgrader_or_the_feedback(graded):
    """scripts_in_outputs's payloads: live in plain nbgrader's autograded notebook, inert in the
    batch's (what formgrader shows) and in its feedback page."""
    from nbconvert.exporters import HTMLExporter

    from classgrader.hostile import scripts_in_outputs as attack

    relative = Path("autograded/scripts_in_outputs/03_no_progress/03_no_progress.ipynb")
    plain = plain_class().course / relative
    unsanitised, _ = HTMLExporter(template_name="classic").from_filename(str(plain))
    assert {"html-script", "onerror", "javascript-link", "png-width", "markdown-link",
            "markdown-cell"} <= attack.live(unsanitised)  # the payloads did reach the notebook
    path = graded.course / relative
    assert attack.live(_formgrader_page(path, "scripts_in_outputs")) == set()
    pages = list((graded.course / "feedback" / "scripts_in_outputs").rglob("*.html"))
    assert pages, graded.feedback.stdout + graded.feedback.stderr
    assert attack.live(pages[0].read_text()) == set()
    assert "widgets" not in json.loads(path.read_text())["metadata"]
    inert = [i for i in graded.report if "made inert" in i["what"]]
    assert {i["student"] for i in inert} == {"scripts_in_outputs"}, inert
    assert "application/javascript output" in inert[0]["what"]


def test_the_near_copy_finder_reads_every_tree_and_says_what_it_could_not(graded):
    done = graded.done
    assert "near-copies flagged for review in copies.csv" in done.stdout, done.stdout
    assert (graded.course / "copies.csv").read_text().startswith("assignment,cell,student,")
    uncompared = [(i["student"], i["cell"], i["what"]) for i in graded.report
                  if i["what"].startswith("near-copy finder")]
    assert uncompared == [("too_deep_to_parse", "call_key_solution", "near-copy finder: too "
                           "deep to compare (RecursionError in Python's parser)")]
    assert any(i["what"].startswith("near-copy of") for i in graded.report)  # the rest compared


def test_gigantic_output_is_cut(graded):
    for name in ("gigantic_output", "output_flood"):  # one huge message; 119 M characters
        path = graded.course / f"autograded/{name}/03_no_progress/03_no_progress.ipynb"
        assert path.stat().st_size < 1_000_000, name
    flood = graded.course / "autograded/output_flood/03_no_progress/03_no_progress.ipynb"
    assert flood.read_text().count("this notebook printed more than") == 1


def test_every_capped_test_says_why(graded):
    capped = {(i["student"], i["cell"]) for i in graded.report if i["capped_to"] is not None}
    assert ("monkeypatch_checks", "no_progress_catches_cycles") in capped
    assert ("fake_setup_cell", "call_key_tells_calls_apart") in capped
    assert ("forges_records", "no_progress_flags_a_repeat") in capped  # a record that lies
    assert ("record_stops_the_judge", "run_cost_prices_cached_input") in capped
    assert any(i["student"] == "reads_hidden_tests" and "hidden test lines" in i["what"]
               for i in graded.report)
    folder = graded.course / "autograded" / "monkeypatch_checks" / "03_no_progress"
    assert annotate.CAPPED in (folder / "03_no_progress.ipynb").read_text()


def _formgrader_autograde(course: Path, assignment: str, student: str) -> dict:
    """What formgrader's per-submission "Autograde" button does: nbgrader's API, in the
    instructor's server process, with the course's config."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    coursedir = CourseDirectory(config=config, root=str(course))
    return NbGraderAPI(coursedir=coursedir, config=config).autograde(assignment, student)


def test_plain_autograde_and_formgraders_button_refuse_and_change_no_grade(graded, tmp_path):
    """In a kit course plain `nbgrader autograde` (and formgrader's button, which runs it as the
    instructor, unsandboxed) refuses, saying what to run instead, and touches no grade or file;
    allowed, it hands a tamperer the points the class grader refused."""
    from grader.nbgrader_plugins import REFUSAL

    course, tamperer, exercise = tmp_path / "course", "monkeypatch_checks", "03_no_progress"
    shutil.copytree(graded.course, course, ignore=shutil.ignore_patterns("kernel*"))
    before, files = hostile.scores(course), digests(course, "autograded")
    done = hostile.nbgrader(course, "autograde", exercise, "--force", trusted=False)
    assert done.returncode == 1 and REFUSAL in done.stdout + done.stderr
    button = _formgrader_autograde(course, exercise, tamperer)
    assert not button["success"] and REFUSAL in button["log"]
    assert hostile.scores(course) == before and digests(course, "autograded") == files
    hostile.nbgrader(course, "autograde", exercise, "--force", f"--student={tamperer}")
    tampered = _observed(hostile.scores(course), tamperer, exercise)
    assert tampered == _expected(ATTACKS[tamperer].PLAIN, exercise)
    assert tampered != _observed(before, tamperer, exercise) == _expected("zero", exercise)


def test_plain_nbgrader_is_fooled_where_the_batch_is_not(graded):
    plain = plain_class()
    course, listener, scores = plain.course, plain.listener, plain.scores
    problems = [line for line in plain.log.splitlines() if "| INFO]" not in line][-20:]
    for name, module in ATTACKS.items():
        if module.PLAIN is None:
            OUTCOMES.setdefault(name, {})["plain"] = "not run (it would harm the machine)"
            continue
        observed = _observed(scores, name, module.EXERCISE)
        OUTCOMES.setdefault(name, {})["plain"] = _summary(observed, module.EXERCISE)
        assert observed == _expected(module.PLAIN, module.EXERCISE), (name, problems)
    assert listener.accepted == 2  # the network attacks (Python, C) reached the loopback
    assert (course / "pwned.txt").exists()
    assert "secret seen: True" in _outputs(course, "proc_environ", "03_no_progress")
    assert "read 0 of" not in _outputs(course, "ctypes_files", "03_no_progress")
    printed = _outputs(course, "reads_hidden_tests", "03_no_progress")
    assert [line for line in hidden_lines() if line in printed]  # and would reach the feedback
    assert _observed(scores, "zz_neighbour", "03_no_progress") != _expected({}, "03_no_progress")


def _outputs(course: Path, student: str, exercise: str) -> str:
    return outputs_of(course / "autograded" / student / exercise / f"{exercise}.ipynb")


def _write_outcomes() -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    rows = ["| attack | exercise | expected under the batch | batch | stopped by "
            "| plain nbgrader |", "| --- | --- | --- | --- | --- | --- |"]
    for name, module in sorted(ATTACKS.items()):
        doc = re.sub(r"\s+", " ", module.__doc__ or "").split(":")[0]
        expected = _summary(_expected(module.EXPECT, module.EXERCISE), module.EXERCISE)
        seen = OUTCOMES.get(name, {})
        rows.append(f"| {name}: {doc} | {module.EXERCISE} | {expected} | "
                    f"{seen.get('batch', '?')} | {getattr(module, 'STOPPED_BY', '')} | "
                    f"{seen.get('plain', '?')} |")
    (ARTIFACTS / "hostile_outcomes.md").write_text("\n".join(rows) + "\n")
