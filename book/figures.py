"""Draw the course's diagrams as plain SVG: lessons/figures/first_loop.svg, loop.svg, exits.svg.

    python -m book.figures    # rewrite them (tests/test_book.py checks they are current)

The first loop is the one lesson 03 asks for (`run_agent`: two exits, the reply appended before
its results). The loop figure follows `harness.loop.run` check by check, in its order; the exits
figure says
where each exit fires and what the run returns, with the texts pending tool calls are answered
with imported from `harness.loop`, so a changed text changes the figure. Plain SVG only: a white
background, generic font families, no scripts, no external fonts or images, so the files render
the same on a code host, in a notebook viewer and in JupyterLab. Nothing here runs the loop.
"""

from __future__ import annotations

import textwrap
from html import escape
from pathlib import Path

from harness import loop

FIGURES = Path(__file__).resolve().parent.parent / "lessons" / "figures"
FONT = "Helvetica, Arial, 'DejaVu Sans', sans-serif"
MONO = "'DejaVu Sans Mono', Menlo, Consolas, monospace"
INK, MUTED, LINE = "#1f2328", "#57606a", "#6e7781"
ACTION, CHECK = ("#ddf4ff", "#0969da"), ("#fff8c5", "#9a6700")
# One colour per exit, the same in both figures: (fill, border).
EXITS = {"done": ("#dafbe1", "#1a7f37"), "truncated": ("#fff1e5", "#bc4c00"),
         "turn_cap": ("#fbefff", "#8250df"), "token_cap": ("#fff8c5", "#9a6700"),
         "no_progress": ("#ffebe9", "#cf222e"), "error": ("#ffebe9", "#82071e"),
         "interrupted": ("#eaeef2", "#57606a")}
NUMBERS = "①②③④⑤⑥⑦⑧"


class Svg:
    """A list of SVG elements with the few shapes the two figures need."""

    def __init__(self, width: int, height: int, title: str) -> None:
        self.width, self.height, self.parts = width, height, []
        self.title = title

    def text(self, x: float, y: float, content: str, *, size: int = 13, anchor: str = "start",
             weight: str = "normal", fill: str = INK, mono: bool = False,
             italic: bool = False) -> None:
        style = ' font-style="italic"' if italic else ""
        self.parts.append(
            f'<text x="{x:g}" y="{y:g}" font-family="{MONO if mono else FONT}" '
            f'font-size="{size}" font-weight="{weight}" text-anchor="{anchor}" '
            f'fill="{fill}"{style}>{escape(content)}</text>')

    def lines(self, x: float, y: float, rows: list[str], *, step: int = 16, **style) -> None:
        for number, row in enumerate(rows):
            self.text(x, y + number * step, row, **style)

    def box(self, x: float, y: float, w: float, h: float, colours: tuple[str, str], *,
            radius: int = 6) -> None:
        fill, stroke = colours
        self.parts.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{radius}" '
                          f'fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>')

    def arrow(self, *points: tuple[float, float], dashed: bool = False) -> None:
        path = " ".join(f"{x:g},{y:g}" for x, y in points)
        dash = ' stroke-dasharray="5 4"' if dashed else ""
        self.parts.append(f'<polyline points="{path}" fill="none" stroke="{LINE}" '
                          f'stroke-width="1.5" marker-end="url(#head)"{dash}/>')

    def pill(self, x: float, y: float, exit_name: str, *, w: int = 120) -> None:
        self.box(x, y, w, 28, EXITS[exit_name], radius=14)
        self.text(x + w / 2, y + 19, exit_name, anchor="middle", weight="bold", mono=True,
                  fill=EXITS[exit_name][1])

    def render(self) -> str:
        head = ('<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                f'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{LINE}"/>'
                '</marker></defs>')
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
                f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" role="img">\n'
                f"<title>{escape(self.title)}</title>\n{head}\n"
                f'<rect width="100%" height="100%" fill="#ffffff"/>\n'
                + "\n".join(self.parts) + "\n</svg>\n")


# The loop, top to bottom: (kind, text, exit it leads to or None, note on the exit arrow).
# Checks are numbered in the order `run` makes them; the exits figure uses the same numbers.
LOOP_ROWS = [
    ("check", "cancel set?", "interrupted", "nothing pending"),
    ("action", 'send: one model call, tool_choice="auto"', "error", "rejected"),
    ("check", "reply cut off? (stop reason max_tokens)", "truncated", 'calls: "Not executed"'),
    ("check", "no tool calls in the reply?", "done", "goal check"),
    ("check", "cancel set?", "interrupted", 'calls: "Cancelled"'),
    ("check", "input + output tokens > token_budget?", "token_cap", 'calls: "Not executed"'),
    ("check", "same call again, or an A-B(-C) cycle?", "no_progress", 'calls: "Not executed"'),
    ("check", "that was turn max_turns?", "turn_cap", "closing call"),
    ("action", "run the tool calls (in model order)", None, ""),
    ("action", "append the tool results (+ reminder notes)", None, ""),
]


def loop_figure() -> str:
    top, row, left, width = 96, 54, 110, 330
    svg = Svg(870, top + row * len(LOOP_ROWS) + 46, "The agent loop: harness.loop.run, check by "
              "check")
    svg.text(20, 30, "The loop: harness.loop.run, one turn per pass", size=17, weight="bold")
    svg.text(20, 50, "Checks are numbered in the order run() makes them; each yes ends the run "
             "with an exit.", size=12, fill=MUTED)
    svg.box(left, 62, width, 26, ("#f6f8fa", LINE))
    svg.text(left + width / 2, 80, "messages in: the history so far", anchor="middle")
    svg.arrow((left + width / 2, 88), (left + width / 2, top - 2))
    checks = iter(NUMBERS)
    for number, (kind, label, exit_name, note) in enumerate(LOOP_ROWS):
        y = top + number * row
        svg.box(left, y, width, 34, CHECK if kind == "check" else ACTION)
        mark = next(checks) + " " if exit_name else ""
        svg.text(left + 12, y + 22, mark + label, weight="bold" if kind == "check" else "normal")
        if number + 1 < len(LOOP_ROWS):
            svg.arrow((left + width / 2, y + 34), (left + width / 2, y + row - 2))
            if kind == "check":
                svg.text(left + width / 2 + 6, y + 47, "no", size=11, fill=MUTED)
        if exit_name:
            _exit_branch(svg, left + width, y, exit_name, note)
    # The way back: after the results, the next turn starts at check ①.
    last = top + (len(LOOP_ROWS) - 1) * row + 17
    svg.arrow((left, last), (40, last), (40, top + 17), (left - 2, top + 17))
    svg.text(48, (top + last) / 2, "next", size=12, fill=MUTED, italic=True)
    svg.text(48, (top + last) / 2 + 15, "turn", size=12, fill=MUTED, italic=True)
    svg.text(20, svg.height - 14, "Whatever the exit, every tool call in the history has a "
             "result: the history can be sent again as it is.", size=12, fill=MUTED)
    return svg.render()


def _exit_branch(svg: Svg, x: float, y: float, exit_name: str, note: str) -> None:
    """The yes-arrow from a check to its exit, through the goal check or closing call if any."""
    mid, pill_x = y + 17, 730
    if exit_name == "done":  # the goal check may send the run round again
        svg.arrow((x, mid), (x + 48, mid))
        svg.box(x + 50, y - 4, 200, 42, ACTION)
        svg.text(x + 60, y + 12, "goal check before_done(answer)", size=12, mono=False)
        svg.text(x + 60, y + 29, "a text: user message, next turn", size=11, fill=MUTED,
                 italic=True)
        svg.arrow((x + 250, mid), (pill_x - 2, mid))
        svg.text(x + 256, mid - 5, "None", size=11, fill=MUTED)
    elif exit_name == "turn_cap":  # pending calls answered, then one text-only call
        svg.arrow((x, mid), (x + 48, mid))
        svg.box(x + 50, y - 4, 200, 42, ACTION)
        svg.text(x + 60, y + 12, 'calls: "Not executed", then', size=12)
        svg.text(x + 60, y + 29, 'closing call, tool_choice="none"', size=12)
        svg.arrow((x + 250, mid), (pill_x - 2, mid))
    else:
        svg.arrow((x, mid), (pill_x - 2, mid))
        svg.text(x + 10, mid - 5, note, size=11, fill=MUTED)
    svg.text(x + 6, mid + 13, "yes", size=11, fill=MUTED)
    svg.pill(pill_x, y + 3, exit_name)


# Lesson 03's loop, top to bottom: (kind, text, exit on "yes" or None, what that exit returns).
FIRST_ROWS = [
    ("action", "send the whole history and the tool declarations (one model call)", None, ""),
    ("action", "append the reply, whole (text, reasoning, tool calls)", None, ""),
    ("check", "does the reply ask for no tool?", "done", "the reply's text"),
    ("action", "run each requested tool, in the order the reply lists them", None, ""),
    ("action", "append one result per call, each carrying its call's id", None, ""),
    ("check", "was that turn number max_turns?", "turn_cap", "no answer (None)"),
]


def first_loop_figure() -> str:
    top, row, left, width = 96, 54, 110, 420
    svg = Svg(800, top + row * len(FIRST_ROWS) + 46, "The loop you write in lesson 03: run_agent, "
              "with two exits")
    svg.text(20, 30, "The loop of lesson 03: run_agent, two exits", size=17, weight="bold")
    svg.text(20, 50, "One pass is one turn; each yes ends the run with its exit.", size=12,
             fill=MUTED)
    svg.box(left, 62, width, 26, ("#f6f8fa", LINE))
    svg.text(left + width / 2, 80, "history = a copy of the messages you were given",
             anchor="middle")
    svg.arrow((left + width / 2, 88), (left + width / 2, top - 2))
    for number, (kind, label, exit_name, returns) in enumerate(FIRST_ROWS):
        y = top + number * row
        svg.box(left, y, width, 34, CHECK if kind == "check" else ACTION)
        svg.text(left + 12, y + 22, label, weight="bold" if kind == "check" else "normal")
        if number + 1 < len(FIRST_ROWS):
            svg.arrow((left + width / 2, y + 34), (left + width / 2, y + row - 2))
            if kind == "check":
                svg.text(left + width / 2 + 6, y + 47, "no", size=11, fill=MUTED)
        if exit_name:
            svg.arrow((left + width, y + 17), (650 - 2, y + 17))
            svg.text(left + width + 8, y + 12, "yes", size=11, fill=MUTED)
            svg.text(left + width + 8, y + 31, returns, size=11, fill=MUTED, italic=True)
            svg.pill(650, y + 3, exit_name)
    last = top + (len(FIRST_ROWS) - 1) * row + 17
    svg.arrow((left, last), (40, last), (40, top + 17), (left - 2, top + 17))
    svg.text(left - 8, last - 5, "no", size=11, fill=MUTED, anchor="end")
    svg.text(48, (top + last) / 2, "next", size=12, fill=MUTED, italic=True)
    svg.text(48, (top + last) / 2 + 15, "turn", size=12, fill=MUTED, italic=True)
    svg.text(20, svg.height - 14, "Lesson 05 adds what happens at the cap; harness.loop.run has "
             "seven exits (loop.svg).", size=12, fill=MUTED)
    return svg.render()


def _pending(text: str) -> str:
    return f'"{text}"'


# The exits: name, the checks that fire it, the answer returned, what pending tool calls get.
EXIT_ROWS = [
    ("done", "④ a reply with no tool calls, accepted by the goal check (if any)",
     "the reply's text", "nothing is pending: the reply asked for no tool"),
    ("truncated", "③ the reply hit the output-token limit (stop reason max_tokens)",
     "None", _pending(loop.NOT_EXECUTED_TRUNCATED)),
    ("turn_cap", "⑧ max_turns calls made and the model still asks for tools; then the closing "
     "call", "the closing reply's text; None if it was cut off or still called a tool",
     _pending(loop.NOT_EXECUTED) + " (also any call in the closing reply)"),
    ("token_cap", "⑥ input plus output tokens so far over token_budget",
     "None", _pending(loop.NOT_EXECUTED_BUDGET)),
    ("no_progress", "⑦ the same call twice in a row (a retry after an error is exempt), or an "
     "A-B or A-B-C cycle", "None", _pending(loop.NOT_EXECUTED_REPEAT)),
    ("error", "② the provider rejected a send, the closing call's too; the loop never retries",
     "None (result.error holds the provider's error)", "nothing is pending: no reply came"),
    ("interrupted", "① cancel set before a call, or ⑤ after a reply",
     "None", "① nothing is pending; ⑤ " + _pending(loop.CANCELLED)),
]
COLUMNS = [("exit (status)", 130), ("which check fires it", 270), ("answer", 190),
           ("pending tool calls get", 330)]


def exits_figure() -> str:
    wrapped = [[textwrap.wrap(cell, width // 6 - 3) for cell, (_, width)
                in zip(row[1:], COLUMNS[1:], strict=True)] for row in EXIT_ROWS]
    heights = [16 * max(len(cell) for cell in cells) + 18 for cells in wrapped]
    top, width = 88, 20 + sum(w for _, w in COLUMNS) + 20
    svg = Svg(width, top + sum(heights) + 44, "The exits of harness.loop.run: where each fires "
              "and what it returns")
    svg.text(20, 30, "The exits: where each fires, what the run returns", size=17, weight="bold")
    svg.text(20, 50, "RunResult.status is the exit; circled numbers are the checks of the loop "
             "figure.", size=12, fill=MUTED)
    x = 20
    for name, column_width in COLUMNS:
        svg.text(x + 6, top - 12, name, weight="bold", size=12)
        x += column_width
    y = top
    for number, ((exit_name, *_), cells, height) in enumerate(zip(EXIT_ROWS, wrapped, heights,
                                                                   strict=True)):
        svg.box(20, y, width - 40, height - 4, ("#f6f8fa" if number % 2 else "#ffffff",
                                                "#d0d7de"), radius=3)
        svg.pill(26, y + (height - 4) / 2 - 14, exit_name, w=116)
        x = 20 + COLUMNS[0][1]
        for cell, (_, column_width) in zip(cells, COLUMNS[1:], strict=True):
            svg.lines(x + 6, y + 19, cell, size=12)
            x += column_width
        y += height
    svg.text(20, svg.height - 16, "Every exit leaves every tool call in the history with a "
             "result, so the history can be sent again (after \"go on\", say).", size=12,
             fill=MUTED)
    return svg.render()


def figures() -> dict[Path, str]:
    return {FIGURES / "first_loop.svg": first_loop_figure(), FIGURES / "loop.svg": loop_figure(),
            FIGURES / "exits.svg": exits_figure()}


def main() -> None:
    FIGURES.mkdir(parents=True, exist_ok=True)
    for path, content in figures().items():
        path.write_text(content, encoding="utf-8")
        print(f"wrote {path.relative_to(FIGURES.parent.parent)}")


if __name__ == "__main__":
    main()
