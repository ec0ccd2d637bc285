"""What reaches a page (`grader.outputs`), without nbgrader: every payload of the hostile corpus's
scripts_in_outputs is inert once sanitised, as nbconvert's own page renders it, while an honest
notebook's outputs and markdown are left as they are; hidden test content is found in output
text whole, in part, split, spaced out or escaped, and honest output is not touched."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import nbformat
import pytest
from nbconvert.exporters import HTMLExporter

from classgrader.hostile import scripts_in_outputs as attack
from grader import hidden, outputs

ROOT = Path(__file__).resolve().parents[2]
def _attack_notebook() -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell("show_everything()")
    cell.outputs = [nbformat.v4.new_output("display_data", data=data, metadata=metadata)
                    for _, data, metadata in attack.PAYLOADS]
    notebook = nbformat.v4.new_notebook(cells=[cell, nbformat.v4.new_markdown_cell(
        attack.MARKDOWN)])
    notebook.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    return notebook


def _live(notebook: nbformat.NotebookNode) -> set[str]:
    page, _ = HTMLExporter(template_name="classic").from_notebook_node(notebook)
    return attack.live(page)


def test_every_payload_would_run_in_nbconverts_page_unsanitised():
    # The check below can fail: these are live in the page nbconvert writes for the feedback.
    assert _live(_attack_notebook()) == {
        "html-script", "onerror", "javascript-link", "application-javascript",
        "markdown-link", "png-width", "entity-link", "iframe-srcdoc", "markdown-cell",
        "markdown-cell-link"}


def test_sanitised_no_payload_runs_and_each_removal_is_named():
    notebook = _attack_notebook()
    found = outputs.sanitize(notebook)
    assert _live(notebook) == set()
    assert found == ["HTML output", "application/javascript output", "image metadata",
                     "image/svg+xml output", "markdown cell", "markdown output", "widget state"]
    data = [output.data for output in notebook.cells[0].outputs]
    assert not [d for d in data if "image/svg+xml" in d or "application/javascript" in d]
    assert "widgets" not in notebook.metadata
    assert notebook.cells[0].outputs[6].metadata == {}  # the width that held a handler
    # What the student wrote still shows, as text: the instructor sees the attempt.
    assert "&lt;script&gt;" in data[0]["text/html"]
    assert notebook.cells[1].source.startswith("```\n") and attack.MARKDOWN in \
        notebook.cells[1].source


def test_honest_outputs_and_markdown_are_left_as_they_are():
    table = ('<table class="dataframe"><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td>'
             '</tr></tbody></table><p>See <a href="https://example.org/doc">the docs</a>.</p>')
    cell = nbformat.v4.new_code_cell("show()")
    cell.outputs = [
        nbformat.v4.new_output("display_data", data={"text/html": table, "text/plain": "t"}),
        nbformat.v4.new_output("display_data", data={"image/png": attack.PNG},
                               metadata={"image/png": {"width": 400, "height": 300}}),
        nbformat.v4.new_output("display_data", data={
            "text/markdown": "## Result\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\n`a<b` and "
                             "[a link](https://example.org)"}),
        nbformat.v4.new_output("stream", name="stdout", text="<script>as text</script>\n"),
        nbformat.v4.new_output("error", ename="ValueError", evalue="<b>", traceback=["<b>"])]
    lessons = [nbformat.read(path, as_version=4) for folder in ("lessons", "exercises")
               for path in sorted((ROOT / folder).rglob("*.ipynb"))]
    markdown = [c for notebook in lessons for c in notebook.cells if c.cell_type == "markdown"]
    assert len(markdown) > 50
    cells = [cell, *copy.deepcopy(markdown)]
    for number, each in enumerate(cells):
        each.id = f"cell-{number}"  # the lessons' ids repeat across notebooks
    notebook = nbformat.v4.new_notebook(cells=cells)
    before = copy.deepcopy(notebook)
    assert outputs.sanitize(notebook) == []
    assert notebook == before


@pytest.mark.parametrize("address", ["javascript:alert(1)", " JaVa\tScRiPt:alert(1)",
                                     "data:text/html,<script>", "vbscript:x"])
def test_links_go_only_to_the_web_or_nearby(address):
    assert outputs.clean_html(f'<a href="{address}">x</a>') == "<a>x</a>"
    kept = '<a href="https://example.org/a?b=c#d">x</a><a href="#top">y</a>'
    assert outputs.clean_html(kept) == kept


# Hidden tests -------------------------------------------------------------------------------

LINE = "check.call_key_ignores_order_and_spacing(call_key, seed=30917, cases=40)"
CELLS = [{"source": "check.call_key_ignores_order_and_spacing(call_key)\n### BEGIN HIDDEN TESTS"
                    f"\n{LINE}\n### END HIDDEN TESTS\n"},
         {"source": "def call_key(name, arguments):\n    ### BEGIN SOLUTION\n    ..."}]
IN = ["", CELLS[1]["source"], CELLS[0]["source"], "print(In)"]
"""A kernel's input history after the test cell ran (nbgrader runs the hidden lines in it)."""


def _printed(*texts: str) -> nbformat.NotebookNode:
    """A notebook whose cells each printed one of `texts`."""
    cells = []
    for text in texts:
        cell = nbformat.v4.new_code_cell("print(...)")
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
        cells.append(cell)
    return nbformat.v4.new_notebook(cells=cells)


def _shown(notebook: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") + json.dumps(o.get("data", {}))
                   for c in notebook.cells for o in c.outputs)


@pytest.mark.parametrize("texts", [
    [f"{IN}\n"],                                                   # print(In)
    [f"{IN!r}\n"],                                                 # print(repr(In))
    [json.dumps(IN) + "\n"],                                       # print(json.dumps(In))
    [json.dumps(IN, indent=2) + "\n"],                             # one source a line
    ["the call takes: " + LINE[LINE.index("seed="):] + "\n"],      # a part of the line
    ["before\n" + LINE[:30] + "\n" + LINE[30:] + "\nafter\n"],     # split across two prints
    [LINE[:40] + "\n", LINE[40:] + "\n"],                          # ... and across two cells
    [" ".join(LINE) + "\n"],                                       # spaced out
    ["30917\n"],                                                   # the seed alone
], ids=["In", "repr", "json", "json-indented", "part", "split", "two-cells", "spaced", "seed"])
def test_hidden_content_is_cut_however_it_is_printed(texts):
    notebook = _printed(*texts)
    assert hidden.HiddenTests(CELLS).redact(notebook)
    shown = _shown(notebook)
    assert hidden.HIDDEN.strip() in shown
    assert "30917" not in shown and "seed=" not in shown.replace("\\n", "\n")
    assert "before" in shown if "before" in texts[0] else True  # only the lines that held it


def test_hidden_content_in_structured_data_is_cut():
    cell = nbformat.v4.new_code_cell("display(JSON(...))")
    cell.outputs = [nbformat.v4.new_output("display_data", data={
        "application/json": {"sources": IN}, "text/plain": "<IPython.core.display.JSON>"})]
    notebook = nbformat.v4.new_notebook(cells=[cell])
    assert hidden.HiddenTests(CELLS).redact(notebook)
    assert notebook.cells[0].outputs[0].data["application/json"] == hidden.HIDDEN


def test_what_students_see_anyway_is_left_alone():
    notebook = _printed("check.call_key_ignores_order_and_spacing(call_key)\n",
                        "call_key_ignores_order_and_spacing: scenario 3, call 2: yours differs;"
                        " cases=40 would be fine to say\n", "seed 4 and 309170 are not it\n",
                        "call_key is (or is built on) harness.call_key, the reference\n")
    before = copy.deepcopy(notebook)
    assert not hidden.HiddenTests(CELLS).redact(notebook)
    assert notebook == before
