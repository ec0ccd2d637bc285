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

from harness import providers
from harness.trace import RunResult
from offline import guard, scenarios
from offline.cassettes import (
    CASSETTES,
    MATCH_ON,
    body_of,
    cassette_path,
    existing,
    first_difference,
    load_interactions,
    provider_options,
    recorded_exchanges,
)
from offline.errors import CassetteError, ReplayMismatch

__all__ = ["Replay", "cassette_path", "load_interactions", "replay",
           "replay_file", "replay_scenario"]


@dataclass
class Replay:
    """An open replay: `model` is the provider adapter to pass to the loop."""

    provider: str
    scenario: scenarios.Scenario
    model: Any
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
def replay_file(path: Path, *, provider: str, **options: Any) -> Iterator[Any]:
    """Replay any kit cassette by its path (a run of your own, say); yields the adapter.
    `options` go to the adapter and must be those it was recorded with (model, base_url...)."""
    if not path.exists():
        raise CassetteError(f"no cassette at {path}: record a run there first.")
    with _played(provider, path.stem, path, options) as (model, _):
        yield model


@contextlib.contextmanager
def _played(provider: str, label: str, path: Path, settings: dict[str, Any]
            ) -> Iterator[tuple[Any, Recording]]:
    recording = Recording(path, where=f"{provider}/{label}")
    with guard.block_network(), httpx.Client(transport=httpx.MockTransport(recording)) as client:
        yield providers.get(provider, client=client, api_key="replay", **settings), recording


class Recording:
    """A cassette's exchanges answering one client, as vcrpy replays with `record_mode="none"`:
    each request gets the first exchange not yet played that matches it (method, scheme, host,
    path and the body's JSON meaning), none is played twice, and a request that matches none is a
    `ReplayMismatch`."""

    def __init__(self, path: Path, *, where: str):
        self.where = where
        self.exchanges = recorded_exchanges(path)
        self.requests = [httpx.Request(e["request"]["method"], e["request"]["uri"],
                                       content=e["request"]["body"] or b"")
                         for e in self.exchanges]
        # Each recorded request's match key and JSON body, read once: every call compares them.
        self._keys = [_key(request) for request in self.requests]
        self._bodies = [body_of(request.content) for request in self.requests]
        self._unplayed = list(range(len(self.exchanges)))

    def __len__(self) -> int:
        return len(self.exchanges)

    @property
    def play_count(self) -> int:
        return len(self.exchanges) - len(self._unplayed)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        key, body = _key(request), body_of(request.content)
        for index in self._unplayed:
            if self._keys[index] == key and first_difference(self._bodies[index], body) is None:
                self._unplayed.remove(index)
                response = self.exchanges[index]["response"]
                return httpx.Response(
                    response["status"]["code"], content=response["body"]["string"],
                    headers=[(k, v) for k, values in response["headers"].items() for v in values])
        raise self._mismatch(request)

    def _mismatch(self, sent: httpx.Request) -> ReplayMismatch:
        number = self.play_count + 1
        where = f"{self.where}, call {number}"
        if number > len(self):
            return ReplayMismatch(
                f"{where}: the recording has only {len(self)} call(s). Your loop called the "
                f"model again after the reply that should have ended the run.")
        expected = self._unplayed[0]  # the one it should have matched
        recorded = self.requests[expected]
        if _key(sent) != self._keys[expected]:
            found = (f"it went to {sent.method} {sent.url} but the recording expects "
                     f"{recorded.method} {recorded.url}")
        else:
            found = first_difference(self._bodies[expected], body_of(sent.content))
        return ReplayMismatch(f"{where}: your request differs from the recording: {found}. "
                              f"Read the input: print the messages you sent on this call and "
                              f"compare them with the recording "
                              f"(lessons/04_reading_the_input.ipynb).")


def _key(request: httpx.Request) -> tuple[str, ...]:
    url = request.url
    return tuple({"method": request.method, "scheme": url.scheme, "host": url.host,
                  "path": url.path}[part] for part in MATCH_ON)


def replay_scenario(provider: str, scenario: str, **overrides: Any) -> RunResult:
    """Run the reference loop on one recorded scenario and return its result."""
    with replay(provider, scenario) as session:
        return session.run(**overrides)
