"""Replay a recorded scenario offline, for any provider, and explain a request that differs.

`replay(provider, scenario)` is a context manager that yields a ready provider adapter whose HTTP
is answered from the scenario's cassette, under the network guard; `replay_file(path,
provider=...)` does the same for any kit cassette, a recording of your own run for instance. As
vcrpy's `record_mode="none"` does, every httpx client in the block is answered (httpx's transport
is patched for its duration): each request by the first recorded exchange not yet played that
matches it (method, scheme, host, path, and the JSON body by meaning), each exchange once. When
none matches, `ReplayMismatch` says which call, where in the body, what the recording expected
and what was sent, in plain words. The cassettes are vcrpy's, recorded by vcrpy; replaying reads
their YAML itself, as importing vcrpy costs a lesson a third of a second. The wire formats stay
in the adapters.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import httpx

from harness import guard, providers, scenarios
from harness.cassettes import (
    CASSETTES,
    PROVIDERS,
    body_of,
    cassette_path,
    existing,
    first_difference,
    load_interactions,
    provider_options,
    rerecord,
    stored_interactions,
)
from harness.errors import CassetteError, ReplayMismatch
from harness.trace import RunResult

__all__ = ["PROVIDERS", "Replay", "cassette_path", "load_interactions", "replay",
           "replay_file", "replay_scenario"]


class Cassette:
    """The exchanges of one cassette and which have been played; answers httpx requests."""

    def __init__(self, provider: str, scenario: str, exchanges: list[dict[str, Any]]):
        self.where, self.exchanges = f"{provider}/{scenario}", exchanges
        self.played = [False] * len(exchanges)

    def __len__(self) -> int:
        return len(self.exchanges)

    @property
    def play_count(self) -> int:
        return sum(self.played)

    def answer(self, request: httpx.Request) -> httpx.Response:
        request.read()
        for index, exchange in enumerate(self.exchanges):
            if not self.played[index] and _matches(exchange, request):
                self.played[index] = True
                return httpx.Response(exchange["status"], headers=exchange["headers"],
                                      content=exchange["response"].encode(), request=request)
        raise self._mismatch(request)

    def _mismatch(self, sent: httpx.Request) -> ReplayMismatch:
        number = self.play_count + 1
        where = f"{self.where}, call {number}"
        if number > len(self):
            return ReplayMismatch(
                f"{where}: the recording has only {len(self)} call(s). Your loop called the "
                f"model again after the reply that should have ended the run.")
        expected = self.exchanges[self.played.index(False)]
        if not _same_place(expected, sent):
            found = (f"it went to {sent.method} {sent.url} but the recording expects "
                     f"{expected['method']} {expected['url']}")
        else:
            found = first_difference(body_of(expected["request"]), body_of(sent))
        return ReplayMismatch(f"{where}: your request differs from the recording: {found}. "
                              f"Read the input: print the messages you sent on this call and "
                              f"compare them with the recording (lessons/04_reading_the_input"
                              f".ipynb).")


def _same_place(exchange: dict[str, Any], request: httpx.Request) -> bool:
    url = httpx.URL(exchange["url"])
    return (exchange["method"], url.scheme, url.host, url.path) == (
        request.method, request.url.scheme, request.url.host, request.url.path)


def _matches(exchange: dict[str, Any], request: httpx.Request) -> bool:
    return _same_place(exchange, request) and first_difference(
        body_of(exchange["request"]), body_of(request)) is None


@dataclass
class Replay:
    """An open replay: `model` is the provider adapter to pass to the loop."""

    provider: str
    scenario: scenarios.Scenario
    model: Any
    cassette: Cassette

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
def replay(provider: str, scenario: str, *, directory: Path = CASSETTES,
           **options: Any) -> Iterator[Replay]:
    """Replay a recorded scenario offline.

    Example:
        >>> with replay("anthropic", "umbrella") as session:
        ...     session.run().status.value
        'done'
    """
    path = existing(provider, scenario, directory)
    chosen = scenarios.get(scenario)
    settings = provider_options(provider, chosen) | options
    exchanges = stored_interactions(path, remedy=rerecord(provider, scenario))
    with _played(Cassette(provider, scenario, exchanges), provider, settings) as (model, cassette):
        yield Replay(provider, chosen, model, cassette)


@contextlib.contextmanager
def replay_file(path: Path, *, provider: str, **options: Any) -> Iterator[Any]:
    """Replay any kit cassette by its path (a run of your own, say); yields the adapter.
    `options` go to the adapter and must be those it was recorded with (model, base_url...)."""
    if not path.exists():
        raise CassetteError(f"no cassette at {path}: record a run there first.")
    with _played(Cassette(provider, path.stem, stored_interactions(path)), provider,
                 options) as (model, _):
        yield model


@contextlib.contextmanager
def _played(cassette: Cassette, provider: str, settings: dict[str, Any]) -> Iterator[Any]:
    async def answer_async(transport: Any, request: httpx.Request) -> httpx.Response:
        return cassette.answer(request)

    # verify=False: nothing leaves the process, so skip loading CA certificates.
    with guard.block_network(), \
            mock.patch.object(httpx.HTTPTransport, "handle_request",
                              lambda transport, request: cassette.answer(request)), \
            mock.patch.object(httpx.AsyncHTTPTransport, "handle_async_request", answer_async), \
            httpx.Client(transport=httpx.HTTPTransport(verify=False)) as client:
        yield providers.get(provider, client=client, api_key="replay", **settings), cassette


def replay_scenario(provider: str, scenario: str, **overrides: Any) -> RunResult:
    """Run the reference loop on one recorded scenario and return its result."""
    with replay(provider, scenario) as session:
        return session.run(**overrides)



