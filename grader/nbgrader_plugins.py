"""Small nbgrader plugins that keep an instructor's terminal, feedback and gradebook honest.

`nbgrader_config.py` names them; each replaces or follows one of nbgrader's own and changes one
thing, so what nbgrader does is otherwise untouched:

- `RestoreLockedCells` is nbgrader's `OverwriteCells`, without the false alarm it raises for every
  locked cell with hidden tests ("Attribute 'checksum' for cell ... has changed!"): the released
  copy lacks the hidden lines by design, so its checksum never matches the source's. A cell that
  equals its released copy has its hidden tests put back quietly; any other change is still
  reported and undone, as nbgrader does.
- `ClearHiddenTestsInFeedback` is nbgrader's `ClearHiddenTests` for feedback, accepting the HTML
  exporter's `display_data_priority` setting (nbgrader's class declares it unconfigurable, so
  traitlets warns "Config option `display_data_priority` not recognized" on every run).
- `WrapLongLines` adds one style rule to the feedback page so that a long check message (they end
  with the lesson to reread) wraps instead of hiding past the right edge.
- `SanitizeOutputs` makes every output and markdown cell of a feedback page inert
  (`grader.outputs.sanitize`: no script, event handler or `javascript:` link runs there).
- `PlainAutograde` is the exporter of `nbgrader autograde` (nbconvert's notebook exporter), which
  first refuses to start unless the kit's class grader runs it or the instructor allows it: plain
  nbgrader, and formgrader's "Autograde" button, would run students' code unsandboxed as the
  instructor and replace the grades the class grader gave.

They do not grade, store or compute anything.
"""

from __future__ import annotations

import copy
from typing import Any

from nbconvert.exporters import NotebookExporter
from nbconvert.preprocessors import Preprocessor
from nbformat import NotebookNode
from nbgrader import utils
from nbgrader.api import MissingEntry
from nbgrader.converters.base import NbGraderException
from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor, OverwriteCells
from traitlets import Bool, List

from grader import outputs

WRAP_CSS = "div.output_area pre, div.output_subarea pre { white-space: pre-wrap; " \
           "overflow-wrap: anywhere; }"


class RestoreLockedCells(OverwriteCells):
    """`OverwriteCells` that knows a released cell lacks its hidden tests on purpose."""

    def preprocess_cell(self, cell: Any, resources: Any, cell_index: int) -> tuple[Any, Any]:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id is not None and utils.is_locked(cell):
            try:
                source = self.gradebook.find_source_cell(grade_id, self.notebook_id,
                                                         self.assignment_id)
            except MissingEntry:
                source = None  # nbgrader reports this one itself
            if source is not None and source.locked and cell.source == _released(source.source):
                cell.source = source.source
        return super().preprocess_cell(cell, resources, cell_index)


def _released(source: str) -> str:
    """The source as `nbgrader generate_assignment` released it: hidden test lines removed."""
    cell = NotebookNode(cell_type="code", source=source, metadata={})
    ClearHiddenTests(enforce_metadata=False)._remove_hidden_test_region(cell)
    return cell.source


class ClearHiddenTestsInFeedback(ClearHiddenTests):
    """`ClearHiddenTests` that takes the HTML exporter's shared setting without a warning."""

    display_data_priority = List(copy.copy(NbGraderPreprocessor.display_data_priority.default_value)
                                 ).tag(config=True)


class WrapLongLines(Preprocessor):
    """Feedback: long lines of output wrap (runs after nbconvert's `CSSHTMLHeaderPreprocessor`).
    On by default: nbconvert's preprocessors are off unless enabled, and nbgrader's feedback
    enables only its own, so without this the rule never reached a page."""

    enabled = Bool(True).tag(config=True)

    def preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
        resources.setdefault("inlining", {}).setdefault("css", []).append(WRAP_CSS)
        return nb, resources


class SanitizeOutputs(Preprocessor):
    """Feedback: every output and markdown cell made inert, as the class grader writes them
    (on by default, as `WrapLongLines`)."""

    enabled = Bool(True).tag(config=True)

    def preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
        outputs.sanitize(nb)
        return nb, resources


REFUSAL = ("refusing to autograde: in this course students' code is graded by the kit's class "
           "grader, in its sandbox. Run `python -m grader autograde ASSIGNMENT` (one student: "
           "add `--student ID`) from the course directory. Plain `nbgrader autograde`, and "
           "formgrader's Autograde button, would run the submissions unsandboxed, as you, and "
           "replace the class grader's grades. Only for code you trust, pass "
           "--PlainAutograde.allowed=True (or set c.PlainAutograde.allowed = True in "
           "nbgrader_config.py).")


class PlainAutograde(NotebookExporter):
    """`nbgrader autograde`'s exporter, which refuses to be made unless `allowed`: nbgrader makes
    it before it touches any folder or grade (an Autograde with --force removes the autograded
    folder before its first preprocessor runs), so a refusal here changes nothing."""

    allowed = Bool(False, help="Let plain nbgrader autograde (the class grader's shards set it; "
                               "an instructor may, for code they trust)").tag(config=True)

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        if not self.allowed:
            self.log.error(REFUSAL)
            raise NbGraderException(REFUSAL)
