"""The capstone's machinery without a notebook: per-student variants (different for two ids, the
same behaviours, recorded deterministically by the emulator into valid, scrubbed cassettes), the
id read from the autograde folder, and the tripwire that refuses the reference loop."""

from __future__ import annotations

import hashlib
import json

import pytest
from test_cassettes import SECRET, _error_validator, _validator

from course.exercises.capstone import checks as capstone
from course.exercises.capstone import edge_variants, scenario_variants
from course.exercises.ownwork import ReferenceCalled, Tripwire
from grading import submissions
from harness import loop
from harness.providers import PROVIDERS
from harness.tools import Toolbox
from offline.cassettes import load_interactions
from offline.edges import EDGES
from offline.record import record
from offline.scripted import ScriptedModel, Step


def _shape(scenario) -> list:
    return [scenario.user, scenario.loop_options] + [
        [(c.name, c.arguments, c.raw_arguments) for c in step.calls] + [step.text, step.error]
        for step in scenario.steps]


def test_two_students_get_different_cases_with_the_same_behaviours():
    ada, bob = scenario_variants.variants_of("ada"), scenario_variants.variants_of("bob")
    assert list(ada) == list(bob) and len(ada) == 8 + 14  # the eight, and the edges' variants
    edges = {f"variant_{name}" for name in EDGES} - {"variant_closing_overloaded"}
    assert edges | {"variant_closing_error"} <= set(ada)  # every edge case has its variant
    for name in ada:
        assert ada[name].expected_exit is bob[name].expected_exit, name
        assert _shape(ada[name]) != _shape(bob[name]), f"{name}: the same case for two students"
        assert ada[name].loop_options.keys() == bob[name].loop_options.keys(), name
    assert scenario_variants.variants_of("ada") is ada  # built once per id
    assert scenario_variants.variants_of("ada", 7) != scenario_variants.variants_of("ada", 8)


def test_each_cell_replays_the_edge_variants_of_its_sentences():
    ada = scenario_variants.variants_of("ada")
    beside = {name for names in edge_variants.BESIDE.values() for name in names}
    assert beside <= set(ada) and all(base in ada for base in edge_variants.BESIDE)
    cancels = edge_variants.cancels(ada)
    assert cancels != edge_variants.cancels(scenario_variants.variants_of("bob"))
    assert {name for name, _ in cancels} <= set(ada)
    budgets = [ada[name].loop_options["token_budget"] for name in
               ("variant_budget_by_output", "variant_budget_after_answer")]
    assert budgets != [scenario_variants.variants_of("bob")[name].loop_options["token_budget"]
                       for name in ("variant_budget_by_output", "variant_budget_after_answer")]


def _recorded(folder, student: str) -> dict[str, str]:
    for scenario in scenario_variants.variants_of(student).values():
        for provider in PROVIDERS:
            record(provider, scenario, directory=folder)
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_each_variant_is_recorded_deterministically_to_its_exit(tmp_path):
    first = _recorded(tmp_path / "one", "ada")
    assert first == _recorded(tmp_path / "two", "ada")  # byte for byte, the manifest included
    manifest = json.loads((tmp_path / "one" / "manifest.json").read_text())
    for scenario in scenario_variants.variants_of("ada").values():
        for provider in PROVIDERS:
            entry = manifest[provider][scenario.name]
            assert entry["made_by"] == "emulator"
            assert entry["exit"] == scenario.expected_exit.value, (provider, scenario.name)
            path = tmp_path / "one" / provider / f"{scenario.name}.yaml"
            assert not SECRET.search(path.read_text()), path
            for exchange in load_interactions(provider, scenario, directory=tmp_path / "one"):
                check = _error_validator if exchange["status"] >= 400 else _validator
                check(provider)(exchange["response"])  # the official SDK's types accept it


def test_the_graded_id_comes_from_the_autograde_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert capstone._student("typed") == "typed"
    folder = tmp_path / "autograded" / "ada" / "05_capstone"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    assert capstone._student("bob") == "ada"  # typing a neighbour's id does not help


def test_the_tripwire_refuses_the_reference_however_it_is_reached():
    saved = loop.run  # a reference taken before the check started
    model = ScriptedModel([Step.say("Hi")] * 2)
    with Tripwire(["harness.loop"]) as tripwire:
        with pytest.raises(ReferenceCalled):
            saved(model, Toolbox(), [])
    assert tripwire.hits == ["harness.loop.run"]
    assert saved(model, Toolbox(), []).answer == "Hi"  # put back on exit


WRONG_LOOPS = [name for name in submissions.corpus() if name.startswith("capstone_")
               and set(submissions.load(name).FAILS) <= set(capstone.BEHAVIOURS)]
"""The corpus's wrong capstone loops that break a rule of the runs (not `summarize_exits`)."""


@pytest.mark.parametrize("name", WRONG_LOOPS)
def test_the_students_own_variants_alone_catch_each_wrong_loop(name: str, monkeypatch):
    """With the course's scenarios and edge cases taken out of every cell, each wrong loop still
    fails its cells on the student's own variants: a loop shaped to pass the public recordings
    meets every rule again in cases made for that student."""
    module = submissions.load(name)
    cases = capstone._cases
    monkeypatch.setattr(capstone, "_cases", lambda names, *rest, **options: cases(
        [], *rest, **options))
    for other in set(capstone.BEHAVIOURS) - set(module.FAILS):  # only its own cells replay
        monkeypatch.setattr(capstone, other, lambda *arguments, **options: None)
    built = submissions.submission("05_capstone", module, student_id="ada")
    graded = submissions.simulate(built, "05_capstone")
    assert set(module.FAILS) <= graded.failed, graded.cells
