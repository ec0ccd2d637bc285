"""Replay a recorded scenario offline, for any provider, and explain a request that differs.

`replay(provider, scenario)` is a context manager that yields a ready provider adapter whose HTTP
is answered from the scenario's cassette by vcrpy with `record_mode="none"`, under the network
guard; `replay_file(path, provider=...)` does the same for any kit cassette, a recording of your
own run for instance. When a request does not match, `ReplayMismatch` says which call, where in
the body, what the recording expected and what was sent, in plain words. The wire formats stay in
the adapters.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from harness import guard, providers, scenarios
from harness.cassettes import (
    CASSETTES,
    PROVIDERS,
    NotInCassette,
    body_of,
    cassette_path,
    existing,
    first_difference,
    load_interactions,
    provider_options,
    use,
)
from harness.errors import CassetteError, ReplayMismatch
from harness.trace import RunResult

__all__ = ["PROVIDERS", "Replay", "cassette_path", "load_interactions", "replay",
           "replay_file", "replay_scenario"]


@dataclass
class Replay:
    """An open replay: `model` is the provider adapter to pass to the loop."""

    provider: str
    scenario: scenarios.Scenario
    model: Any
    cassette: Any

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
def replay_file(path: Path, *, provider: str, **options: Any) -> Iterator[Any]:
    """Replay any kit cassette by its path (a run of your own, say); yields the adapter.
    `options` go to the adapter and must be those it was recorded with (model, base_url...)."""
    if not path.exists():
        raise CassetteError(f"no cassette at {path}: record a run there first.")
    with _played(provider, path.stem, path, options) as (model, _):
        yield model


@contextlib.contextmanager
def _played(provider: str, label: str, path: Path, settings: dict[str, Any]) -> Iterator[Any]:
    with guard.block_network(), use(path, record_mode="none") as cassette, \
            httpx.Client(transport=_Explained(provider, label, cassette)) as client:
        model = providers.get(provider, client=client, api_key="replay", **settings)
        try:
            yield model, cassette
        except NotInCassette as exc:  # from another client inside
            raise _mismatch(provider, label, cassette, exc) from None


class _Explained(httpx.HTTPTransport):
    """httpx's transport (which vcrpy patches), turning a mismatch into a lesson on the spot."""

    def __init__(self, provider: str, scenario: str, cassette: Any):
        super().__init__(verify=False)  # nothing leaves the process: skip loading CA certificates
        self._where = (provider, scenario, cassette)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return super().handle_request(request)
        except NotInCassette as exc:
            raise _mismatch(*self._where, exc) from None


def _mismatch(provider: str, scenario: str, cassette: Any, exc: Exception) -> ReplayMismatch:
    number = cassette.play_count + 1
    where = f"{provider}/{scenario}, call {number}"
    if number > len(cassette):
        return ReplayMismatch(
            f"{where}: the recording has only {len(cassette)} call(s). Your loop called the "
            f"model again after the reply that should have ended the run.")
    sent, recorded = exc.failed_request, cassette.requests[cassette.play_count]
    if (sent.method, sent.host, sent.path) != (recorded.method, recorded.host, recorded.path):
        found = (f"it went to {sent.method} {sent.uri} but the recording expects "
                 f"{recorded.method} {recorded.uri}")
    else:
        found = first_difference(body_of(recorded), body_of(sent))
    return ReplayMismatch(f"{where}: your request differs from the recording: {found}. "
                          f"Read the input: print the messages you sent on this call and "
                          f"compare them with the recording (lessons/04_reading_the_input.ipynb).")


def replay_scenario(provider: str, scenario: str, **overrides: Any) -> RunResult:
    """Run the reference loop on one recorded scenario and return its result."""
    with replay(provider, scenario) as session:
        return session.run(**overrides)



