"""Notebook widgets for the lessons: a transcript stepper and a cost explorer.

`TranscriptStepper` walks a run one model call at a time: the exact list sent on that call, each
message behind a coloured role chip, the reply, and the call's input, output and cached tokens.
`CostExplorer` plots a run's cumulative input against its length for a prefix, a growth per turn
and a budget, and marks the turn where the budget fires and an optional turn cap. What they show
comes from plain functions (`call_view`, `cost_view`) that tests can call without a browser; the
widgets only lay it out. Each also offers a static `text/html` rendering of the same view (every
call in turn; the curve at the sliders' values), which a page with no kernel shows instead: the
rendered course, a notebook viewer. Loading the module is cheap: ipywidgets is imported when a
widget is built, and the explorer's chart is SVG drawn here (matplotlib would cost a lesson about
a second to import). They run no model, read no cassette and change nothing they are given.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any

from harness.cost import cumulative_input, first_turn_over_budget
from harness.messages import AssistantMessage, Message, ToolMessage
from harness.trace import CallRecord, RunResult

ROLE_COLOURS = {"system": "#6b7280", "user": "#2563eb", "assistant": "#15803d",
                "tool": "#c2410c"}


@dataclass(frozen=True)
class Row:
    """One message as the stepper shows it."""

    role: str
    text: str
    new: bool = False
    """True when this message was not in the previous call's list, or differed there."""
    error: bool = False


@dataclass(frozen=True)
class CallView:
    """Everything the stepper shows for one model call."""

    number: int
    title: str
    sent: list[Row]
    reply: list[Row]
    tokens: dict[str, int]
    """input, output and cached input of this call (zeros when the call was rejected)."""


def describe(message: Message) -> str:
    """One message in one readable line or a few: text, tool requests with ids, results.

    Example:
        >>> from harness.messages import ToolMessage
        >>> describe(ToolMessage(tool_call_id="call_1", content="14 C"))
        'id=call_1  14 C'
    """
    if isinstance(message, ToolMessage):
        return f"id={message.tool_call_id}  {message.content}"
    if not isinstance(message, AssistantMessage):
        return message.content
    parts = [f"[reasoning: {len(message.reasoning)} block(s) kept for the next call]"
             ] if message.reasoning else []
    if message.content:
        parts.append(message.content)
    for call in message.tool_calls:
        arguments = call.raw_arguments or json.dumps(call.arguments, ensure_ascii=False)
        parts.append(f"wants {call.name}({arguments})  id={call.id}")
    return "\n".join(parts) or "(empty)"


def _row(message: Message, *, new: bool = False) -> Row:
    error = isinstance(message, ToolMessage) and message.is_error
    return Row(message.role, describe(message), new=new, error=error)


def call_view(record: CallRecord, previous: CallRecord | None = None) -> CallView:
    """What the stepper shows for `record`; rows not sent the same way on `previous` are new."""
    before = previous.sent if previous else None
    sent = [_row(m, new=before is not None and (i >= len(before) or before[i] != m))
            for i, m in enumerate(record.sent)]
    title = f"call {record.number}, tool_choice={record.tool_choice}"
    if record.closing:
        title += " (closing call)"
    if record.reply is None:
        return CallView(record.number, title, sent, [Row("error", str(record.error), error=True)],
                        {"input": 0, "output": 0, "cached": 0})
    usage, reply = record.reply.usage, record.reply
    tokens = {"input": usage.input_tokens, "output": usage.output_tokens,
              "cached": usage.cached_input_tokens}
    return CallView(record.number, f"{title}, stop reason {reply.stop_reason.value}", sent,
                    [_row(reply.message)], tokens)


def call_views(result_or_calls: RunResult | list[CallRecord]) -> list[CallView]:
    calls = getattr(result_or_calls, "calls", result_or_calls)
    return [call_view(record, calls[i - 1] if i else None) for i, record in enumerate(calls)]


def _chip(role: str) -> str:
    colour = ROLE_COLOURS.get(role, "#b91c1c")
    return (f'<span class="alk-chip alk-{role}" style="background:{colour};color:white;'
            f'border-radius:4px;padding:1px 6px;font:12px monospace;min-width:70px;'
            f'display:inline-block;text-align:center">{role}</span>')


def _rows_html(rows: list[Row]) -> str:
    lines = []
    for number, row in enumerate(rows, start=1):
        marker = "border-left:3px solid #f59e0b;" if row.new else "border-left:3px solid #0000;"
        colour = "color:#b91c1c;" if row.error else ""
        text = html.escape(row.text).replace("\n", "<br>")
        lines.append(f'<div style="{marker}padding:2px 6px;margin:2px 0;display:flex;gap:8px">'
                     f'<span style="font:12px monospace;color:#6b7280;width:18px">{number}</span>'
                     f'{_chip(row.role)}<span style="{colour}white-space:pre-wrap;'
                     f'font:13px monospace">{text}</span></div>')
    return "".join(lines)


def render(view: CallView) -> str:
    """The HTML for one call: the list sent, the reply, and the tokens."""
    tokens = ", ".join(f"{name} {count:,}" for name, count in view.tokens.items())
    return (f"<b>{html.escape(view.title)}</b>"
            f'<div style="margin-top:4px">sent ({len(view.sent)} messages; '
            f'<span style="border-left:3px solid #f59e0b;padding-left:4px">new or changed '
            f"since the previous call</span>):</div>{_rows_html(view.sent)}"
            f'<div style="margin-top:6px">reply:</div>{_rows_html(view.reply)}'
            f'<div style="margin-top:6px;font:12px monospace">tokens: {tokens}</div>')


class _Shown:
    """Displays as its `box` of ipywidgets (built in `__init__`, importing ipywidgets only then),
    plus a `text/html` view for pages with no kernel."""

    box: Any  # and a static_html() method

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        # JupyterLab ranks the widget view above text/html; static renderers drop the view.
        return self.box._repr_mimebundle_(**kwargs) | {"text/html": self.static_html()}


class TranscriptStepper(_Shown):
    """Step through a run call by call. Example: `TranscriptStepper(scenario.run())`."""

    def __init__(self, result_or_calls: RunResult | list[CallRecord]):
        import ipywidgets as widgets

        self.views = call_views(result_or_calls)
        if not self.views:
            raise ValueError("this run made no model call: there is nothing to step through")
        last = len(self.views)
        self.previous = widgets.Button(description="previous", icon="arrow-left")
        self.next = widgets.Button(description="next", icon="arrow-right")
        self.slider = widgets.IntSlider(value=1, min=1, max=last, description="call",
                                        disabled=last == 1)
        self.page = widgets.HTML()
        self.previous.on_click(lambda _: self._move(-1))
        self.next.on_click(lambda _: self._move(+1))
        self.slider.observe(lambda _: self._show(), names="value")
        self.box = widgets.VBox([widgets.HBox([self.previous, self.slider, self.next]),
                                 self.page])
        self.box.add_class("alk-transcript")
        self._show()

    def _move(self, step: int) -> None:
        self.slider.value = min(max(self.slider.value + step, 1), len(self.views))

    def _show(self) -> None:
        self.page.value = render(self.views[self.slider.value - 1])
        self.previous.disabled = self.slider.value == 1
        self.next.disabled = self.slider.value == len(self.views)

    def static_html(self) -> str:
        """Every call one under the other, each folded but the first: the stepper, unrolled."""
        last = len(self.views)
        calls = "".join(f'<details{" open" if number == 1 else ""} style="margin:4px 0">'
                        f"<summary>call {number} of {last}</summary>{render(view)}</details>"
                        for number, view in enumerate(self.views, start=1))
        return f'<div class="alk-transcript-static">{calls}</div>'


def cost_view(prefix: int, per_turn: int, budget: int, turns: int,
              turn_cap: int | None = None) -> dict[str, Any]:
    """The explorer's numbers: cumulative input per turn, where the budget and the cap fire.

    Example:
        >>> view = cost_view(3_000, 1_500, 400_000, 30, turn_cap=25)
        >>> view["budget_turn"], view["cumulative"][21]
        (22, 412500)
    """
    budget_turn = first_turn_over_budget(prefix, per_turn, budget)
    view: dict[str, Any] = {
        "turns": list(range(1, turns + 1)),
        "cumulative": [cumulative_input(prefix, per_turn, n) for n in range(1, turns + 1)],
        "prefix_only": [prefix * n for n in range(1, turns + 1)],
        "budget_turn": budget_turn,
        "at_budget_turn": cumulative_input(prefix, per_turn, budget_turn),
        "turn_cap": turn_cap,
        "at_turn_cap": cumulative_input(prefix, per_turn, turn_cap) if turn_cap else None,
    }
    # On the same turn the loop checks the budget first, so a tie goes to the token cap.
    view["first_exit"] = "turn_cap" if turn_cap and turn_cap < budget_turn else "token_cap"
    return view


def _ticks(top: float, count: int) -> list[int]:
    """Tick values from 0 to at least `top`, in steps of 1, 2 or 5 times a power of ten."""
    power = 10 ** (len(str(int(max(top / count, 1)))) - 1)
    step = next(f * power for f in (1, 2, 5, 10) if f * power >= top / count)
    return list(range(0, int(top) + step, step))


def cost_figure(view: dict[str, Any], budget: int) -> str:
    """An SVG chart of `view`: cumulative input per turn, the prefix alone, the budget, and the
    turns where the token cap fires and the turn cap. Drawn here: matplotlib would cost a lesson
    about a second to import, more than the rest of its cells."""
    turns, y_ticks = view["turns"], _ticks(max(view["cumulative"][-1], budget) * 1.05, 6)
    font = 'font-family="Helvetica, Arial, sans-serif" font-size="11"'

    def at(turn: float, tokens: float) -> tuple[float, float]:  # plot area: x 78-626, y 12-286
        return 78 + 548 * (turn - 1) / max(turns[-1] - 1, 1), 286 - 274 * tokens / y_ticks[-1]

    lines = [("#2563eb", "none", "cumulative input", zip(turns, view["cumulative"], strict=True)),
             ("#9ca3af", "6 4", "if each call sent only the prefix",
              zip(turns, view["prefix_only"], strict=True)),
             ("#c2410c", "2 3", f"budget {budget:,}", [(1, budget), (turns[-1], budget)])]
    fires, cap = view["budget_turn"], view["turn_cap"]
    for turn, colour, dash, label in [(fires, "#c2410c", "none", f"token cap fires: turn {fires}"),
                                      (cap, "#15803d", "8 3 2 3", f"turn cap: {cap}")]:
        if turn and turn <= turns[-1]:
            lines.append((colour, dash, label, [(turn, 0), (turn, y_ticks[-1])]))
    parts = ['<rect width="100%" height="100%" fill="white"/>']
    parts += [f'<text x="72" y="{at(1, tick)[1] + 4:.1f}" text-anchor="end" {font}>{tick:,}</text>'
              for tick in y_ticks]
    parts += [f'<text x="{at(tick, 0)[0]:.1f}" y="302" text-anchor="middle" {font}>{tick}</text>'
              for tick in _ticks(turns[-1], 8) if tick >= 1]
    for number, (colour, dash, label, points) in enumerate(lines):
        path = " ".join("{:.1f},{:.1f}".format(*at(*point)) for point in points)
        style = f'fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"'
        parts.append(f'<polyline points="{path}" {style}><title>{label}</title></polyline>'
                     f'<line x1="88" x2="112" y1="{24 + 15 * number}" y2="{24 + 15 * number}" '
                     f'{style}/><text x="118" y="{28 + 15 * number}" {font}>{label}</text>')
    parts.append(f'<rect x="78" y="12" width="548" height="274" fill="none" stroke="#6b7280"/>'
                 f'<text x="352" y="322" text-anchor="middle" {font}>turn (model call)</text>'
                 f'<text transform="translate(14,149) rotate(-90)" text-anchor="middle" {font}>'
                 f"input tokens sent so far</text>")
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="330" '
            f'viewBox="0 0 640 330" role="img">{"".join(parts)}</svg>')


class CostExplorer(_Shown):
    """Sliders for prefix, growth per turn, budget and turn cap, and the curve they make."""

    def __init__(self, prefix: int = 3_000, per_turn: int = 1_500, budget: int = 400_000,
                 turn_cap: int = 25, turns: int = 40):
        import ipywidgets as widgets

        slider = {"continuous_update": False, "style": {"description_width": "120px"},
                  "layout": widgets.Layout(width="460px")}
        self.prefix = widgets.IntSlider(prefix, 0, 20_000, 250, description="prefix", **slider)
        self.per_turn = widgets.IntSlider(per_turn, 0, 10_000, 100, description="added per turn",
                                          **slider)
        self.budget = widgets.IntSlider(budget, 10_000, 2_000_000, 10_000, description="budget",
                                        **slider)
        self.turn_cap = widgets.IntSlider(turn_cap, 0, 60, 1, description="turn cap (0: none)",
                                          **slider)
        self.turns = widgets.IntSlider(turns, 5, 80, 5, description="turns shown", **slider)
        self.summary = widgets.HTML()
        self.plot = widgets.HTML()
        controls = [self.prefix, self.per_turn, self.budget, self.turn_cap, self.turns]
        for control in controls:
            control.observe(lambda _: self.update(), names="value")
        self.box = widgets.VBox([*controls, self.summary, self.plot])
        self.box.add_class("alk-cost")
        self.update()

    def update(self) -> None:
        if self.prefix.value == 0 and self.per_turn.value == 0:
            self.summary.value = "With no prefix and nothing added, no budget is ever reached."
            return
        view = cost_view(self.prefix.value, self.per_turn.value, self.budget.value,
                         self.turns.value, self.turn_cap.value or None)
        text = (f"The budget of {self.budget.value:,} fires on turn {view['budget_turn']} "
                f"(cumulative input {view['at_budget_turn']:,}).")
        if view["turn_cap"]:
            text += (f" A turn cap of {view['turn_cap']} alone would let the run send "
                     f"{view['at_turn_cap']:,}. First to fire: <b>{view['first_exit']}</b>.")
        self.summary.value = text
        self.plot.value = cost_figure(view, self.budget.value)

    def static_html(self) -> str:
        """The sliders' values, the summary and the curve, as a page without a kernel shows it."""
        controls = (self.prefix, self.per_turn, self.budget, self.turn_cap, self.turns)
        values = ", ".join(f"{c.description} {c.value:,}" for c in controls)
        return (f'<div class="alk-cost-static"><p><i>{html.escape(values)}</i></p>'
                f"<p>{self.summary.value}</p>{self.plot.value}</div>")
