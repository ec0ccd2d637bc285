"""What of a graded notebook may reach a page: the feedback HTML, formgrader and JupyterLab.

`sanitize(notebook)` makes every output and every markdown cell inert, in place: HTML goes
through nbconvert's own sanitiser (`SanitizeHTML`, bleach) with an allowlist of plain markup, any
output type that can hold a script (JavaScript, SVG, widgets, anything not known to be inert) is
dropped, image metadata keeps only numeric sizes (nbconvert writes `width=` unquoted), and a
markdown cell or output whose rendering (nbconvert's own markdown renderer, which lets
`[text](javascript:...)` through) is not plain markup is shown as code instead. Nothing here
grades: merge.py calls `sanitize` on every autograded notebook (and `grader.hidden` to remove
hidden test content), and the feedback's `SanitizeOutputs` preprocessor
(grader/nbgrader_plugins.py) calls it again.
"""

from __future__ import annotations

import html
import logging
import re
from html.parser import HTMLParser
from typing import Any

import bleach
from bleach.css_sanitizer import CSSSanitizer
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbconvert.preprocessors.sanitize import SanitizeHTML

TAGS = {"a", "abbr", "acronym", "b", "blockquote", "br", "code", "dd", "del", "details", "div",
        "dl", "dt", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd", "li",
        "ol", "p", "pre", "s", "samp", "span", "strong", "sub", "summary", "sup", "table",
        "tbody", "td", "tfoot", "th", "thead", "tr", "tt", "u", "ul", "var"}
"""Plain markup: what nbconvert's markdown renderer writes, and the usual tags of a table."""
URLS = {"a": ("http", "https", "mailto"), "img": ("http", "https", "data:image/", "attachment")}
"""The schemes a link and an image may use (no scheme: a relative address, also allowed)."""
_PLAIN = {"title", "class"}
_BY_TAG = {"a": {"href"}, "img": {"src", "alt", "width", "height"}, "ol": {"start"},
           "td": {"colspan", "rowspan", "style"}, "th": {"colspan", "rowspan", "style"},
           **{f"h{level}": {"id"} for level in range(1, 7)}}
INERT = {"text/plain", "text/latex", "application/json", "image/png", "image/jpeg"}
"""Output types nbconvert's pages show escaped (or not at all): kept as they are."""


def _allowed(tag: str, name: str, value: str) -> bool:
    """bleach's attribute filter: plain attributes, and links and images to safe places only."""
    if name not in _PLAIN | _BY_TAG.get(tag, set()):
        return False
    if (tag, name) in (("a", "href"), ("img", "src")):
        return _safe_url(value, URLS[tag])
    return True


def _safe_url(value: str, schemes: tuple[str, ...]) -> bool:
    # Browsers ignore whitespace and control characters in a scheme ("java\tscript:").
    address = re.sub(r"[\x00-\x20]", "", html.unescape(value)).lower()
    scheme = re.match(r"([a-z][a-z0-9+.\-]*):", address)
    return scheme is None or any(address.startswith(s if s.endswith("/") else f"{s}:")
                                 for s in schemes)


def _sanitizer() -> SanitizeHTML:
    sanitizer = SanitizeHTML(tags=sorted(TAGS), attributes=_allowed,
                             safe_output_keys=INERT, sanitized_output_types={"text/html"})
    sanitizer.log = logging.getLogger("grader.outputs")  # it logs every output at INFO
    return sanitizer


def clean_html(text: str) -> str:
    """HTML with only plain markup left (the rest escaped, so it shows as text)."""
    return bleach.clean(text, tags=TAGS, attributes=_allowed,
                        protocols={"http", "https", "mailto", "data", "attachment"},
                        css_sanitizer=CSSSanitizer(allowed_css_properties=["text-align"]))


class _Markup(HTMLParser):
    """Each start tag of a page with its attributes, values unescaped."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, tuple[tuple[str, str], ...]]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # bleach writes a kept style as "text-align: left;": the same style.
        self.tags.append((tag, tuple(sorted(
            (k, re.sub(r"[\s;]", "", v or "") if k == "style" else v or "") for k, v in attrs))))


def _plain(rendered: str) -> bool:
    """True if the sanitiser would leave this HTML's markup as it is: every tag, attribute and
    address kept (read both ways, so a tag one parser misses and the other sees also counts)."""
    return _Markup(rendered).tags == _Markup(clean_html(rendered)).tags


def safe_markdown(source: str, attachments: dict[str, Any] | None = None) -> str | None:
    """None if markdown renders to plain markup, as nbconvert renders it for a page; else the
    source as a code block, to show what the student wrote without running it."""
    rendered = _render(source, attachments)
    if rendered is not None and _plain(rendered):
        return None
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", source)), default=0))
    shown = f"{fence}\n{source}\n{fence}\n"
    return shown if _plain(_render(shown) or "<script>") else "[markdown the grader removed]"


def _render(source: str, attachments: dict[str, Any] | None = None) -> str | None:
    """The HTML nbconvert's exporters write for markdown (None: they would fail on it)."""
    renderer = IPythonRenderer(escape=False, attachments=attachments or {})
    try:
        return MarkdownWithMath(renderer=renderer).render(source)
    except Exception:  # a missing attachment, say: no page can show it as markup
        return None


def sanitize(notebook: dict[str, Any]) -> list[str]:
    """Make every output and markdown cell of `notebook` (an nbformat notebook) inert, in place;
    returns what was made inert, e.g. ["application/javascript output", "HTML"]."""
    found: list[str] = []
    if notebook.get("metadata", {}).pop("widgets", None) is not None:
        found.append("widget state")
    sanitizer = _sanitizer()
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            shown = safe_markdown(_text(cell.get("source", "")), cell.get("attachments"))
            if shown is not None:
                cell["source"] = shown
                found.append("markdown cell")
        for output in cell.get("outputs", []):
            found += _sanitize_output(output, sanitizer)
    return sorted(set(found))


def _sanitize_output(output: dict[str, Any], sanitizer: SanitizeHTML) -> list[str]:
    if "data" not in output:
        return []  # a stream or an error: pages show them escaped
    data, found = output["data"], []
    if "text/markdown" in data:
        shown = safe_markdown(_text(data["text/markdown"]))
        if shown is not None:
            data["text/markdown"] = shown
            found.append("markdown output")
    before = {key: _text(value) for key, value in data.items() if key == "text/html"}
    removed = set(data) - INERT - {"text/html", "text/markdown"}
    markdown = data.pop("text/markdown", None)
    sanitizer.sanitize_code_outputs([output])
    if markdown is not None:
        data["text/markdown"] = markdown
    found += [f"{key} output" for key in sorted(removed)]
    if "text/html" in before and not _plain(before["text/html"]):
        found.append("HTML output")
    return found + _image_metadata(output)


def _image_metadata(output: dict[str, Any]) -> list[str]:
    """Keep only numeric sizes and the `unconfined` switch of each image's metadata."""
    kept: dict[str, Any] = {}
    odd = False
    for scope, values in (output.get("metadata") or {}).items():
        if not isinstance(values, dict):
            continue  # a top-level key: nbconvert reads only the per-type ones we keep
        sizes = {key: value for key, value in values.items()
                 if key in ("width", "height") and type(value) in (int, float)}
        odd = odd or any(key in ("width", "height") and key not in sizes for key in values)
        if isinstance(values.get("unconfined"), bool):
            sizes["unconfined"] = values["unconfined"]
        if sizes and scope in INERT:
            kept[scope] = sizes
    output["metadata"] = kept
    return ["image metadata"] if odd else []


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)
