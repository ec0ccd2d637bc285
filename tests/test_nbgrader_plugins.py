"""The nbgrader plugins of nbgrader_config.py each change the one thing they say."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import nbformat
import pytest
from nbconvert.exporters import HTMLExporter
from nbgrader.api import MissingEntry
from traitlets.config import Config

from grader.nbgrader_plugins import (
    REFUSAL,
    WRAP_CSS,
    ClearHiddenTestsInFeedback,
    PlainAutograde,
    RestoreLockedCells,
    SanitizeOutputs,
    _released,
)

SOURCE = ("from course.exercises import check\ncheck.visible(run_loop)\n"
          "### BEGIN HIDDEN TESTS\ncheck.hidden(run_loop)\n### END HIDDEN TESTS\n")


class Gradebook:
    """The two look-ups OverwriteCells makes, answered from one locked grade cell's source."""

    def __init__(self, source: str):
        self.cell = SimpleNamespace(source=source, locked=True, cell_type="code", checksum=None)

    def find_source_cell(self, grade_id, notebook, assignment):
        if grade_id != "loop_exits":
            raise MissingEntry()
        return self.cell

    def find_graded_cell(self, grade_id, notebook, assignment):
        return SimpleNamespace(max_score=2.0)


def graded_cell(source: str) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade_id": "loop_exits", "grade": True, "solution": False,
                                 "locked": True, "points": 2.0, "schema_version": 3}
    return cell


def restore(cell: nbformat.NotebookNode, caplog) -> nbformat.NotebookNode:
    from nbgrader.utils import compute_checksum

    gradebook = Gradebook(SOURCE)
    gradebook.cell.checksum = compute_checksum(graded_cell(SOURCE))
    plugin = RestoreLockedCells()
    plugin.gradebook, plugin.notebook_id, plugin.assignment_id = gradebook, "nb", "02"
    with caplog.at_level(logging.WARNING):
        cell, _ = plugin.preprocess_cell(cell, {}, 0)
    return cell


def test_the_released_copy_of_a_cell_loses_only_its_hidden_lines():
    assert _released(SOURCE) == "from course.exercises import check\ncheck.visible(run_loop)\n"


def test_a_released_cell_gets_its_hidden_tests_back_without_an_alarm(caplog):
    cell = restore(graded_cell(_released(SOURCE)), caplog)
    assert cell.source == SOURCE
    assert not [r for r in caplog.records if "has changed" in r.getMessage()]


def test_an_edited_locked_cell_is_still_reported_and_undone(caplog):
    cell = restore(graded_cell("assert True  # the checks were here\n"), caplog)
    assert cell.source == SOURCE
    alarms = [r.getMessage() for r in caplog.records if "has changed" in r.getMessage()]
    assert len(alarms) == 1 and "checksum" in alarms[0] and "loop_exits" in alarms[0]


@pytest.mark.parametrize("plugin_class", [ClearHiddenTestsInFeedback])
def test_feedback_preprocessor_takes_the_exporters_setting_quietly(plugin_class, caplog):
    config = Config(HTMLExporter().default_config)
    with caplog.at_level(logging.WARNING):
        plugin = plugin_class(config=config)
    assert not [r for r in caplog.records if "not recognized" in r.getMessage()]
    notebook = nbformat.v4.new_notebook(cells=[graded_cell(SOURCE)])
    notebook, _ = plugin.preprocess(notebook, {})
    assert "HIDDEN" not in notebook.cells[0].source and "check.hidden" not in \
        notebook.cells[0].source


def test_feedback_pages_wrap_long_lines():
    from grader.nbgrader_plugins import WrapLongLines

    _, resources = WrapLongLines().preprocess(nbformat.v4.new_notebook(),
                                              {"inlining": {"css": ["body {}"]}})
    assert resources["inlining"]["css"] == ["body {}", WRAP_CSS]
    assert "pre-wrap" in WRAP_CSS


def test_feedback_pages_hold_no_live_script():
    cell = nbformat.v4.new_code_cell("show()")
    cell.outputs = [nbformat.v4.new_output("display_data", data={
        "text/html": "<b>kept</b><script>alert(1)</script>", "application/javascript": "x"})]
    notebook, _ = SanitizeOutputs().preprocess(nbformat.v4.new_notebook(cells=[cell]), {})
    assert notebook.cells[0].outputs[0].data == {
        "text/html": "<b>kept</b>&lt;script&gt;alert(1)&lt;/script&gt;"}


def test_plain_autograde_refuses_unless_allowed(caplog):
    from nbgrader.converters.base import NbGraderException

    with caplog.at_level(logging.ERROR), pytest.raises(NbGraderException, match="refusing"):
        PlainAutograde()
    assert [r.getMessage() for r in caplog.records] == [REFUSAL]
    assert "python -m grader autograde" in REFUSAL and "--PlainAutograde.allowed=True" in REFUSAL
    assert PlainAutograde(config=Config({"PlainAutograde": {"allowed": True}})).file_extension \
        == ".ipynb"  # nbconvert's notebook exporter, as nbgrader autograde uses it


def test_the_course_config_turns_plain_autograde_off_and_sanitises_feedback():
    from pathlib import Path

    config = (Path(__file__).resolve().parents[1] / "nbgrader_config.py").read_text()
    assert 'c.Autograde.exporter_class = "grader.nbgrader_plugins.PlainAutograde"' in config
    assert "PlainAutograde.allowed" not in config.replace("--PlainAutograde.allowed", "")
    assert '"grader.nbgrader_plugins.SanitizeOutputs"' in config
