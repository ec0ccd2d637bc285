"""The kit's scenario library in the exercises' dict form: what exercises 1 and 2 build their
cases from.

The tools by name (the form `run_loop` takes them in), a scenario's opening messages as dicts,
and the cities of the generated cases. Nothing here is a fact of its own: the tools, the prompts
and the scripts come from `offline.scenarios`, so the exercises tell the lessons' story (the
Lisbon umbrella, two cities, the bench press chain, the refund doom loop).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from offline.dictform import to_dicts
from offline.scenarios import (
    SCENARIOS,
    compute_record,
    get_forecast,
    get_order,
    get_shipment,
    read_history,
    save_goal,
    search_tickets,
)

TOOLS: dict[str, Callable[..., str]] = {tool.__name__: tool for tool in (
    get_forecast, read_history, compute_record, save_goal, search_tickets, get_order,
    get_shipment)}
"""The library's deterministic tools, by name."""
CITIES = ["Lisbon", "Porto", "Faro", "Braga", "Coimbra", "Evora"]
"""The cities generated cases ask about."""


def system(text: str) -> dict[str, Any]:
    return {"role": "system", "content": text}


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def prompt(name: str) -> list[dict[str, Any]]:
    """The opening messages of the library's scenario `name`, as dicts."""
    return to_dicts(SCENARIOS[name].messages())
