"""Replay a recorded scenario offline, for any provider, and explain a request that differs.

`replay(provider, scenario)` is a context manager that yields a ready provider adapter whose HTTP
is answered from the scenario's cassette (an `offline.cassettes.Recording`, which plays it as
vcrpy does with `record_mode="none"`), under the network guard; `replay_file(path, provider=...)`
does the same for any kit cassette, a recording of your own run for instance. When a request does
not match, `ReplayMismatch` says which call, where in the body, what the recording expected and
what was sent, in plain words. The wire formats stay in the adapters.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from harness import providers
from harness.messages import Model
from harness.trace import RunResult
from offline import guard, scenarios
from offline.cassettes import CASSETTES, Recording, cassette_path, existing, load_interactions
from offline.errors import CassetteError
from offline.scenarios import provider_options

__all__ = ["Replay", "cassette_path", "load_interactions", "replay",
           "replay_file", "replay_scenario"]


@dataclass
class Replay:
    """An open replay: `model` is the provider adapter to pass to the loop."""

    provider: str
    scenario: scenarios.Scenario
    model: Model
    cassette: Recording

    @property
    def played(self) -> int:
        return self.cassette.play_count

    @property
    def unplayed(self) -> int:
        return len(self.cassette) - self.cassette.play_count

    def run(self, **overrides: Any) -> RunResult:
        """The reference loop on this scenario, answered from the cassette."""
        return self.scenario.run(self.model, **overrides)


@contextlib.contextmanager
def replay(provider: str, scenario: str | scenarios.Scenario, *, directory: Path = CASSETTES,
           **options: Any) -> Iterator[Replay]:
    """Replay a recorded scenario offline.

    Example:
        >>> with replay("anthropic", "umbrella") as session:
        ...     session.run().status.value
        'done'
    """
    path = existing(provider, scenario, directory)
    chosen = scenarios.get(scenario)
    scenario = chosen.name  # for the messages: the name, also of a scenario in no table
    settings = provider_options(provider, chosen) | options
    with _played(provider, scenario, path, settings) as (model, cassette):
        yield Replay(provider, chosen, model, cassette)


@contextlib.contextmanager
def replay_file(path: Path, *, provider: str, **options: Any) -> Iterator[Model]:
    """Replay any kit cassette by its path (a run of your own, say); yields the adapter.
    `options` go to the adapter and must be those it was recorded with (model, base_url...)."""
    if not path.exists():
        raise CassetteError(f"no cassette at {path}: record a run there first.")
    with _played(provider, path.stem, path, options) as (model, _):
        yield model


@contextlib.contextmanager
def _played(provider: str, label: str, path: Path, settings: dict[str, Any]
            ) -> Iterator[tuple[Model, Recording]]:
    recording = Recording(path, where=f"{provider}/{label}")
    with guard.block_network(), httpx.Client(transport=httpx.MockTransport(recording)) as client:
        yield providers.get(provider, client=client, api_key="replay", **settings), recording


def replay_scenario(provider: str, scenario: str, **overrides: Any) -> RunResult:
    """Run the reference loop on one recorded scenario and return its result."""
    with replay(provider, scenario) as session:
        return session.run(**overrides)
