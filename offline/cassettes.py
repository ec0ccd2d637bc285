"""The cassette files: where they live, how they are written, scrubbed, read and matched.

A cassette is plain vcrpy YAML, one per provider and scenario, with JSON bodies indented and every
header removed but `content-type`, `anthropic-version` and a rate limit's wait and counters.
A `Recording` answers a client from a cassette's exchanges, matching requests on method, host,
path and the body's JSON meaning (`offline.bodies`: key order, whitespace, key case and
re-encoded signatures do not matter). The replay context managers are in `offline.replay`,
recording in `offline.record`; none of them knows a wire format. vcrpy is imported only where it
is used (`recorder`, `use`): it imports every HTTP library installed, which costs a lesson about
half a second.
"""

from __future__ import annotations

import contextlib
import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import yaml

from harness import providers
from offline import scenarios
from offline.bodies import body_of, first_difference
from offline.errors import CassetteError, ReplayMismatch

CASSETTES = Path(__file__).resolve().parent.parent / "cassettes"
# Only these headers are kept: nothing else is needed to replay, and everything else may identify
# an account (authorization, x-api-key, x-goog-api-key, cookies, organisation and project ids).
KEPT_REQUEST_HEADERS = {"content-type", "anthropic-version"}
KEPT_RESPONSE_HEADERS = {"content-type", "retry-after", "retry-after-ms"}
# A rate-limited answer says how long to wait and how much is left: kept, they identify nobody.
KEPT_RESPONSE_PREFIXES = ("x-ratelimit-", "anthropic-ratelimit-")


def cassette_path(provider: str, scenario: str, *, directory: Path = CASSETTES) -> Path:
    return directory / provider / f"{scenario}.yaml"


MATCH_ON = ("method", "scheme", "host", "path")
"""What must be equal for a request to match a recorded one, besides the body's JSON meaning (the
query is not compared: a Gemini key travels there)."""


def _json_body_matcher(recorded: Any, sent: Any) -> None:
    if (found := first_difference(body_of(recorded.body), body_of(sent.body))) is not None:
        raise AssertionError(found)


# libyaml when present: 10x faster to read, 18x to write, the same bytes (see test_cassettes).
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# Which base (libyaml's or pure Python's) is decided as the module loads: mypy sees Any.
class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    pass


def _str(dumper: yaml.representer.SafeRepresenter, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None  # JSON bodies as readable blocks, not escaped lines
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


class _Serializer:
    """vcrpy's YAML with multi-line strings as blocks; loads with the stock yaml serializer."""

    @staticmethod
    def serialize(cassette: dict[str, Any]) -> str:
        return yaml.dump(cassette, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)

    @staticmethod
    def deserialize(text: str) -> dict[str, Any]:
        cassette: dict[str, Any] = yaml.load(text, Loader=_Loader)
        return cassette


def _pretty(raw: bytes | str | None) -> bytes | str | None:
    """Indented JSON, of the same type it came in (vcrpy also runs the hooks when loading)."""
    if raw is None:  # a request without a body
        return raw
    try:
        text = json.dumps(json.loads(raw), indent=2, ensure_ascii=False) + "\n"
    except (TypeError, ValueError):
        return raw
    return text.encode() if isinstance(raw, bytes) else text


def _scrub_request(request: Any) -> Any:
    for name in list(request.headers):
        if name.lower() not in KEPT_REQUEST_HEADERS:
            del request.headers[name]
    request.body = _pretty(request.body)
    return request


def _scrub_response(response: dict[str, Any]) -> dict[str, Any]:
    response["headers"] = {k: v for k, v in response["headers"].items()
                           if k.lower() in KEPT_RESPONSE_HEADERS
                           or k.lower().startswith(KEPT_RESPONSE_PREFIXES)}
    response["body"]["string"] = _pretty(response["body"]["string"])
    return response


def _vcr() -> Any:
    try:  # vcrpy imports tornado's curl client on every cassette; without pycurl that import
        import tornado.curl_httpclient  # noqa: F401  fails, is never cached and, where no bytecode
    except ImportError:  # can be written (the grader's sandbox), compiles again each time.
        sys.modules["tornado.curl_httpclient"] = None  # type: ignore[assignment]
    import vcr

    return vcr


def recorder(record_mode: str) -> Any:
    """A vcrpy configured for kit cassettes: scrubbing, readable YAML, semantic matching."""
    # vcrpy runs the hooks on every request it matches and every exchange it loads, too. Replaying
    # ("none") writes nothing and matches on the JSON's meaning: scrubbing would change nothing
    # but the time (it pretty-prints each body four times a call).
    scrub = {} if record_mode == "none" else {"before_record_request": _scrub_request,
                                              "before_record_response": _scrub_response}
    recorder = _vcr().VCR(record_mode=record_mode, decode_compressed_response=True,
                          filter_query_parameters=["key"],
                          match_on=[*MATCH_ON, "json_body"], **scrub)
    recorder.register_matcher("json_body", _json_body_matcher)
    recorder.register_serializer("kit_yaml", _Serializer)
    recorder.serializer = "kit_yaml"
    return recorder


_VCRPY = threading.RLock()
"""Held while a vcrpy cassette is in use: vcrpy patches httpx for the whole process, so a
cassette open in one thread also records every other thread's requests (the class grader
records students' variants in several threads at once)."""


@contextlib.contextmanager
def use(path: Path, *, record_mode: str) -> Iterator[Any]:
    """The cassette at `path` as a context manager: `recorder(record_mode).use_cassette(path)`,
    one at a time in a process."""
    with _VCRPY, recorder(record_mode).use_cassette(str(path)) as cassette:
        yield cassette


def load_interactions(provider: str, scenario: str, *, directory: Path = CASSETTES
                      ) -> list[dict[str, Any]]:
    """The recorded exchanges, as plain data: request and response JSON, status, URL."""
    path = existing(provider, scenario, directory)
    return read_interactions(path, remedy=f"Re-record it with `python -m course record "
                             f"--provider {provider} --scenario {scenario} --emulator --force`.")


def read_interactions(path: Path, *, remedy: str = "Record it again.") -> list[dict[str, Any]]:
    """The exchanges of any kit cassette, by its path, as `load_interactions` gives them."""
    with _readable(path, remedy):
        return [{"method": i["request"]["method"], "url": i["request"]["uri"],
                 "request": json.loads(i["request"]["body"]),
                 "status": i["response"]["status"]["code"],
                 "response": json.loads(i["response"]["body"]["string"])}
                for i in recorded_exchanges(path, remedy=remedy)]


def recorded_exchanges(path: Path, *, remedy: str = "Record it again.") -> list[dict[str, Any]]:
    """A kit cassette's exchanges as vcrpy stores them (request, response: dicts)."""
    with _readable(path, remedy):
        return list(_Serializer.deserialize(path.read_text())["interactions"])


@contextlib.contextmanager
def _readable(path: Path, remedy: str) -> Iterator[None]:
    try:
        yield
    except (KeyError, TypeError, ValueError, yaml.YAMLError) as exc:
        raise CassetteError(f"{path} is not a readable kit cassette ({exc}). {remedy}") from exc


def existing(provider: str, scenario: str | scenarios.Scenario, directory: Path = CASSETTES
             ) -> Path:
    """The cassette for a provider and scenario, or a CassetteError that says how to make it."""
    providers.provider(provider)  # a ValueError naming the providers, for a typo
    scenario = scenarios.get(scenario).name  # a ValueError listing the names, for a typo
    path = cassette_path(provider, scenario, directory=directory)
    if not path.exists():
        raise CassetteError(f"no cassette at {path}. Record it with `python -m course record "
                            f"--provider {provider} --scenario {scenario} --emulator`.")
    return path


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
        found: str | None
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
