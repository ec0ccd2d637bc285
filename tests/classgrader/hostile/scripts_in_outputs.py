"""The reference solution, and outputs that would run a script in the instructor's browser (the
feedback page, formgrader): an HTML `<script>`, an `onerror` handler, a `javascript:` link, an
SVG with a script, a JavaScript output; and ones nbconvert's own sanitiser lets through alone: a
`javascript:` link written in markdown (in an output and in a markdown cell of the student's
own), an event handler smuggled into a PNG's `width` (nbconvert writes it unquoted), an
entity-encoded `javascript:` link, an `<iframe srcdoc>` and an ipywidgets HTML widget. Each
payload pushes its name onto `window.pwned`. The batch makes every one inert as it merges the
notebook (grader/outputs.py), the feedback's preprocessors again; every test still scores."""

import json
import re
import urllib.parse
from html.parser import HTMLParser

from nbformat import v4

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the batch's merge (outputs made inert), and the feedback's SanitizeOutputs"

PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5"
       "ErkJggg==")


def mark(name: str) -> str:
    """JavaScript (no spaces, no double quotes) that records that payload `name` ran; `void`, so
    that a `javascript:` link leaves the page in place."""
    return f"void((window.pwned=window.pwned||[]).push('{name}'))"


PAYLOADS = [  # (name, data, metadata) of one display_data output each
    ("html-script", {"text/html": f"<script>{mark('html-script')}</script>"}, {}),
    ("onerror", {"text/html": f'<img src="missing.png" onerror="{mark("onerror")}">'}, {}),
    ("javascript-link",
     {"text/html": f'<a href="javascript:{mark("javascript-link")}">open me</a>'}, {}),
    ("svg-script", {"image/svg+xml": '<svg xmlns="http://www.w3.org/2000/svg" '
                    f'onload="{mark("svg-onload")}"><script>{mark("svg-script")}</script>'
                    '<circle r="5"/></svg>', "text/plain": "<svg>"}, {}),
    ("application-javascript",
     {"application/javascript": mark("application-javascript"), "text/plain": "js"}, {}),
    ("markdown-link", {"text/markdown": f"[open me](javascript:{mark('markdown-link')})",
                       "text/plain": "md"}, {}),
    ("png-width", {"image/png": PNG, "text/plain": "png"},
     {"image/png": {"width": f"1 onload={mark('png-width')}"}}),
    ("entity-link", {"text/html": '<a href="jav&#x61;script&colon;'
                     f'{mark("entity-link")}">open me too</a>'}, {}),
    ("iframe-srcdoc", {"text/html": "<iframe srcdoc=\"<script>var w=parent;"
                       "(w.pwned=w.pwned||[]).push('iframe-srcdoc')</script>\"></iframe>"}, {}),
]
"""What the displays produce, output by output: the browser test renders these same outputs."""

MARKDOWN = (f'A note of mine. <img src="missing.png" onerror="{mark("markdown-cell")}"> '
            f"And [a link](javascript:{mark('markdown-cell-link')}).")
"""A markdown cell of the student's own (not an output: it reaches the same pages)."""

DISPLAYS = f"""import json

from IPython.display import display

for _name, _data, _metadata in json.loads({json.dumps(json.dumps(PAYLOADS))}):
    display(_data, raw=True, metadata=_metadata)
try:
    import ipywidgets

    display(ipywidgets.HTML({json.dumps(f'<img src="missing.png" onerror="{mark("widget")}">')}))
except ImportError:
    pass
"""


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", DISPLAYS)
    notebook.cells.append(v4.new_markdown_cell(MARKDOWN))
    return notebook


class _Page(HTMLParser):
    """Payload names in the places a page runs: a script, an event handler, a `javascript:`
    address, an iframe's own document."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.live: set[str] = set()
        self._in_script = False
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_script = tag == "script"
        for name, value in attrs:
            text = urllib.parse.unquote(value or "")
            address = re.sub(r"[\x00-\x20]", "", text).lower()
            if name.startswith("on") or name == "srcdoc" or address.startswith("javascript:"):
                self.live |= set(MARKED.findall(text))

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.live |= set(MARKED.findall(data))


MARKED = re.compile(r"push\('([\w-]+)'\)")


def live(page: str) -> set[str]:
    """The payloads an HTML page would run, read from its markup (the browser test runs them)."""
    return _Page(page).live
