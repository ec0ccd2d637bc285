"""Near-copies (`grader.copies`), without nbgrader: a renamed, reformatted, re-commented copy of the
reference or of a classmate is flagged with a high similarity; the corpus's independent valid
solutions are not flagged, against the reference or against each other."""

from __future__ import annotations

import ast
import builtins
import inspect
import textwrap

import nbformat
import pytest
from grading import submissions

from course.exercises import reference
from grader import copies

VALID = submissions.corpus("valid_")


def _disguised(source: str, *, keep: str) -> str:
    """`source` as a copier hands it in: every name renamed (but `keep`, the graded function's
    name), docstrings gone, reformatted by ast.unparse, comments and a docstring of their own."""

    def new(name: str) -> str:
        return name if name == keep or hasattr(builtins, name) else f"my_{name.lower()}"

    class Rename(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.Name:
            node.id = new(node.id)
            return node

        def visit_arg(self, node: ast.arg) -> ast.arg:
            node.arg, node.annotation = new(node.arg), None
            return node

        def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
            self.generic_visit(node)
            if ast.get_docstring(node):
                node.body = node.body[1:]
            node.name, node.returns = new(node.name), None
            return node

    tree = Rename().visit(ast.parse(textwrap.dedent(source)))
    lines = ast.unparse(tree).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("def "))
    lines.insert(first + 1, '    """My own code, written from scratch."""  # honest, promise')
    return "# a comment the original never had\n" + "\n".join(lines)


def _definitions(exercise: str) -> dict:
    released = submissions.notebook("exercises", exercise)
    cells = [{"name": c.metadata["nbgrader"]["grade_id"], "source": c.source,
              "solution": c.metadata["nbgrader"].get("solution", False)}
             for c in released.cells if c.metadata.get("nbgrader", {}).get("grade_id")]
    return {exercise: {"notebooks": {exercise: cells}}}


def _handed_in(exercise: str, notebook: nbformat.NotebookNode) -> dict[str, bytes]:
    return {f"{exercise}.ipynb": nbformat.writes(notebook).encode()}


def _with_cell(exercise: str, grade_id: str, source: str) -> dict[str, bytes]:
    notebook = submissions.starter(exercise)  # every other cell left as released
    cell = next(c for c in notebook.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    cell.source = source
    return _handed_in(exercise, notebook)


def _valid(exercise: str) -> dict[tuple[str, str], dict[str, bytes]]:
    """Each valid solution written for `exercise` (the others would hand in the reference's)."""
    return {(name, exercise): _handed_in(exercise, submissions.submission(
        exercise, submissions.load(name), student_id=name)) for name in VALID
        if exercise in submissions.exercises_of(submissions.load(name))}


def test_renaming_reformatting_and_comments_leave_the_same_tree():
    original = inspect.getsource(reference.append_round)
    disguised = _disguised(original, keep="append_round")
    assert disguised != original and "my_history" in disguised and "#" in disguised
    assert copies.functions(disguised)["append_round"] == \
        copies.functions(original)["append_round"]


def test_a_disguised_copy_of_the_reference_is_flagged():
    exercise = "01_message_ordering"
    source = _disguised(inspect.getsource(reference.append_round), keep="append_round")
    handed_in = {("copycat", exercise): _with_cell(exercise, "append_round_solution", source),
                 **_valid(exercise)}
    found = copies.find(handed_in, _definitions(exercise))
    flagged = {(c.student, c.other): c.similarity for c in found}
    assert flagged.get(("copycat", "reference:course.exercises.reference.append_round"), 0) >= 0.95
    assert {student for student, _ in flagged} == {"copycat"}, found


def test_the_library_loop_behind_the_reference_run_loop_is_compared_too():
    # Exercise 2's reference is harness.loop.run itself: a copy of it must be caught as such.
    compared = copies.reference_functions()
    assert {"course.exercises.reference.run_loop", "harness.loop.run", "harness.loop._close",
            "course.exercises.reference.summarize_exits"} <= set(compared)


def test_a_disguised_copy_of_the_library_loop_in_the_capstone_is_flagged():
    # The capstone's reference run_agent IS harness.loop.run: its copy is caught under that name.
    from harness import loop

    exercise = "05_capstone"
    source = _disguised(inspect.getsource(loop.run), keep="run_agent")
    handed_in = {("copycat", exercise): _with_cell(exercise, "run_agent_solution", source),
                 **_valid(exercise)}
    found = copies.find(handed_in, _definitions(exercise))
    flagged = {(c.student, c.other): c.similarity for c in found}
    assert flagged.get(("copycat", "reference:harness.loop.run"), 0) >= 0.95, found
    assert {student for student, _ in flagged} == {"copycat"}, found


def test_a_disguised_copy_of_a_classmate_is_flagged_as_a_pair():
    exercise = "04_cost"
    original = submissions.load("valid_while_loops")
    cell = submissions.cell_code(original, {"run_cost"})
    handed_in = {**_valid(exercise), ("zz_copier", exercise): _with_cell(
        exercise, "run_cost_solution", _disguised(cell, keep="run_cost"))}
    found = copies.find(handed_in, _definitions(exercise))
    pairs = {(c.student, c.other, c.cell): c.similarity for c in found}
    assert pairs.get(("valid_while_loops", "zz_copier", "run_cost_solution"), 0) >= 0.95, found
    assert all("zz_copier" in (c.student, c.other) for c in found), found


@pytest.mark.parametrize("exercise", submissions.EXERCISES)
def test_independent_valid_solutions_are_not_flagged(exercise):
    assert len(VALID) >= 5
    assert copies.find(_valid(exercise), _definitions(exercise)) == []


def test_the_untouched_starter_and_short_functions_are_not_compared():
    exercise = "03_no_progress"
    starters = {(name, exercise): _handed_in(exercise, submissions.starter(exercise))
                for name in ("ann", "ben")}
    assert copies.find(starters, _definitions(exercise)) == []
    short = "def call_key(name, arguments):\n    return name + str(arguments)\n"
    assert copies.functions(short)["call_key"] and copies.find(
        {(n, exercise): _with_cell(exercise, "call_key_solution", short) for n in "ab"},
        _definitions(exercise)) == []


def test_copies_csv_has_one_row_per_pair(tmp_path):
    rows = [copies.Copy("04_cost", "run_cost_solution", "ann", "ben", 0.97)]
    copies.write_csv(rows, tmp_path / "copies.csv")
    assert (tmp_path / "copies.csv").read_text().splitlines() == [
        "assignment,cell,student,other,similarity", "04_cost,run_cost_solution,ann,ben,0.97"]


# Submissions built to break the finder: each must cost its author alone, never the class's run.

def _long(terms: int) -> str:
    """A helper whose body is one expression of `terms` terms (a tree `terms` deep)."""
    return "def helper(x):\n    return " + " + ".join(["x"] * terms) + "\n"


def test_a_thousand_term_expression_is_read_like_any_other():
    # A recursive walk of this tree ran out of Python's stack and ended the run.
    assert len(copies.functions(_long(1000))["helper"]) > 4000
    assert copies.functions(_long(3))["helper"] == [
        "FunctionDef", "v0", "arguments", "arg", "v1", "Return", "BinOp", "BinOp", "Name",
        "v1", "Load", "Add", "Name", "v1", "Load", "Add", "Name", "v1", "Load"]


def _class_with(exercise: str, grade_id: str, source: str) -> dict:
    """The corpus's valid solutions, a disguised copy of one of them, and `intruder`, whose cell
    `grade_id` holds `source` after the reference."""
    cell = submissions.cell_code(submissions.load("valid_while_loops"), {"run_cost"})
    return {**_valid(exercise),
            ("zz_copier", exercise): _with_cell(exercise, "run_cost_solution",
                                                _disguised(cell, keep="run_cost")),
            ("intruder", exercise): _with_cell(exercise, grade_id, cell + "\n\n" + source)}


@pytest.mark.parametrize(("source", "why"), [
    (_long(5000), "too deep to compare (RecursionError in Python's parser)"),
    ("x = " + "-" * 10_000 + "1\n", "too deep to compare (MemoryError in Python's parser)"),
    ("\n".join(_long(40).replace("helper", f"helper_{n}") for n in range(40)),
     "too large to compare (more than 5,000 syntax nodes)"),
])
def test_a_cell_no_parser_can_hold_is_reported_for_its_author_alone(source, why):
    exercise = "04_cost"
    found = copies.compare(_class_with(exercise, "run_cost_solution", source),
                           _definitions(exercise))
    assert found.uncompared == [copies.Uncompared(exercise, "run_cost_solution", "intruder",
                                                  why)]
    pairs = {(c.student, c.other) for c in found.copies}
    assert pairs == {("valid_while_loops", "zz_copier")}  # the rest of the class is compared


def test_a_notebook_too_deep_to_read_is_reported_for_its_author_alone():
    # JSON nested 100,000 deep: json.loads runs out of stack (nbgrader cannot grade it either).
    exercise = "04_cost"
    handed_in = _class_with(exercise, "run_cost_solution", "")
    handed_in[("intruder", exercise)] = {
        f"{exercise}.ipynb": b'{"cells": [], "metadata": ' + b"[" * 100_000 + b"]" * 100_000
        + b"}"}
    found = copies.compare(handed_in, _definitions(exercise))
    assert [(u.student, u.cell) for u in found.uncompared] == [("intruder", "")]
    assert "too deep to compare" in found.uncompared[0].why
    assert {(c.student, c.other) for c in found.copies} == {("valid_while_loops", "zz_copier")}
