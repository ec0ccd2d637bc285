"""Cassettes: replay a scenario offline for any provider, or record one (emulator or live).

`replay(provider, scenario)` is a context manager that yields a ready provider adapter whose HTTP
is answered from `cassettes/<provider>/<scenario>.yaml` by vcrpy with `record_mode="none"`, under
the network guard. Requests are matched on their JSON meaning (key order, whitespace and re-encoded
signatures do not matter); when one does not match, `ReplayMismatch` says which call, where in the
body, what the recording expected and what was sent. `record` writes a cassette, scrubbed of
secrets, and refuses to overwrite one without `force`. The wire formats stay in the adapters.
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import vcr
import yaml
from vcr.errors import CannotOverwriteExistingCassetteException

from harness import guard, providers, scenarios
from harness.errors import CassetteError, ReplayMismatch
from harness.trace import RunResult

CASSETTES = Path(__file__).resolve().parent.parent / "cassettes"
PROVIDERS = tuple(providers.PROVIDERS)
API_VERSIONS = {"openai_chat": "v1", "openai_responses": "v1",
                "anthropic": "2023-06-01", "gemini": "v1beta"}
KEY_VARIABLES = {"openai_chat": ("OPENAI_API_KEY",), "openai_responses": ("OPENAI_API_KEY",),
                 "anthropic": ("ANTHROPIC_API_KEY",),
                 "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY")}
# Only these headers are kept: nothing else is needed to replay, and everything else may identify
# an account (authorization, x-api-key, x-goog-api-key, cookies, organisation and project ids).
KEPT_REQUEST_HEADERS = {"content-type", "anthropic-version"}
KEPT_RESPONSE_HEADERS = {"content-type"}
SIGNATURE_FIELDS = {"signature", "thoughtSignature", "thought_signature", "encrypted_content"}


def cassette_path(provider: str, scenario: str, *, directory: Path = CASSETTES) -> Path:
    return directory / provider / f"{scenario}.yaml"


def provider_options(provider: str, scenario: scenarios.Scenario) -> dict[str, Any]:
    """Adapter settings a scenario needs: its output limit, and reasoning where it asks for it."""
    options: dict[str, Any] = {"max_output_tokens": scenario.max_output_tokens}
    if scenario.thinking:
        options |= {"anthropic": {"thinking_budget": 1024, "max_output_tokens": 2048},
                    "openai_responses": {"reasoning_effort": "low"},
                    "gemini": {"thinking_budget": 512}}.get(provider, {})
    return options



def _normal(value: Any, key: str = "") -> Any:
    """A JSON value with the differences that carry no meaning removed."""
    if isinstance(value, dict):
        return {_camel(k): _normal(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    if isinstance(value, str) and key in SIGNATURE_FIELDS:
        # Some clients decode a signature and re-encode it as URL-safe base64 without padding.
        return value.replace("-", "+").replace("_", "/").rstrip("=")
    return value


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(part.title() for part in rest) if rest and head else key


def _body(request: Any) -> Any:
    raw = request.body or b""
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return raw


def first_difference(expected: Any, sent: Any, path: str = "body") -> str | None:
    """Where two JSON values first differ, in plain words; None when they mean the same."""
    expected, sent = _normal(expected), _normal(sent)
    if isinstance(expected, dict) and isinstance(sent, dict):
        for key in [*expected, *(k for k in sent if k not in expected)]:
            if key not in sent:
                return f"{path}.{key} is missing; the recording has {_short(expected[key])}"
            if key not in expected:
                return f"{path}.{key} was sent ({_short(sent[key])}) but is not in the recording"
            if found := first_difference(expected[key], sent[key], f"{path}.{key}"):
                return found
        return None
    if isinstance(expected, list) and isinstance(sent, list):
        for index, (left, right) in enumerate(zip(expected, sent, strict=False)):
            if found := first_difference(left, right, f"{path}[{index}]"):
                return found
        if len(expected) != len(sent):
            longer = expected if len(expected) > len(sent) else sent
            return (f"{path} has {len(sent)} items but the recording has {len(expected)}; "
                    f"the first unmatched one is {_short(longer[min(len(expected), len(sent))])}")
        return None
    if expected != sent:
        return f"{path} is {_short(sent)} but the recording has {_short(expected)}"
    return None


def _short(value: Any, limit: int = 160) -> str:
    if isinstance(value, bytes):
        value = value.decode(errors="replace")
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "..."


def _json_body_matcher(recorded: Any, sent: Any) -> None:
    if (found := first_difference(_body(recorded), _body(sent))) is not None:
        raise AssertionError(found)



class _Dumper(yaml.SafeDumper):
    pass


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: 10x faster


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
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
        return yaml.load(text, Loader=_Loader)


def _pretty(raw: bytes | str | None) -> bytes | str | None:
    """Indented JSON, of the same type it came in (vcrpy also runs the hooks when loading)."""
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
                           if k.lower() in KEPT_RESPONSE_HEADERS}
    response["body"]["string"] = _pretty(response["body"]["string"])
    return response


def _vcr(record_mode: str) -> vcr.VCR:
    recorder = vcr.VCR(record_mode=record_mode, decode_compressed_response=True,
                       filter_query_parameters=["key"], before_record_request=_scrub_request,
                       before_record_response=_scrub_response,
                       match_on=["method", "scheme", "host", "path", "json_body"])
    recorder.register_matcher("json_body", _json_body_matcher)
    recorder.register_serializer("kit_yaml", _Serializer)
    recorder.serializer = "kit_yaml"
    return recorder


def load_interactions(provider: str, scenario: str, *, directory: Path = CASSETTES
                      ) -> list[dict[str, Any]]:
    """The recorded exchanges, as plain data: request and response JSON, status, URL."""
    path = _existing(provider, scenario, directory)
    try:
        data = _Serializer.deserialize(path.read_text())
        return [{"method": i["request"]["method"], "url": i["request"]["uri"],
                 "request": json.loads(i["request"]["body"]),
                 "status": i["response"]["status"]["code"],
                 "response": json.loads(i["response"]["body"]["string"])}
                for i in data["interactions"]]
    except (KeyError, TypeError, ValueError, yaml.YAMLError) as exc:
        raise CassetteError(f"{path} is not a readable kit cassette ({exc}). Re-record it with "
                            f"`python -m harness record --provider {provider} --scenario "
                            f"{scenario} --emulator --force`.") from exc


def _existing(provider: str, scenario: str, directory: Path) -> Path:
    if provider not in PROVIDERS:
        raise CassetteError(f"unknown provider {provider!r}; choose one of: {', '.join(PROVIDERS)}")
    scenarios.get(scenario)  # a ValueError listing the names, for a typo
    path = cassette_path(provider, scenario, directory=directory)
    if not path.exists():
        raise CassetteError(f"no cassette at {path}. Record it with `python -m harness record "
                            f"--provider {provider} --scenario {scenario} --emulator`.")
    return path



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
def replay(provider: str, scenario: str, *, directory: Path = CASSETTES,
           **options: Any) -> Iterator[Replay]:
    """Replay a recorded scenario offline.

    Example:
        >>> with replay("anthropic", "umbrella") as session:
        ...     session.run().status.value
        'done'
    """
    path = _existing(provider, scenario, directory)
    chosen = scenarios.get(scenario)
    settings = provider_options(provider, chosen) | options
    with guard.block_network(), _vcr("none").use_cassette(str(path)) as cassette, \
            httpx.Client(transport=_Explained(provider, scenario, cassette)) as client:
        model = providers.get(provider, client=client, api_key="replay", **settings)
        try:
            yield Replay(provider, chosen, model, cassette)
        except CannotOverwriteExistingCassetteException as exc:  # from another client inside
            raise _mismatch(provider, scenario, cassette, exc) from None


class _Explained(httpx.HTTPTransport):
    """httpx's transport (which vcrpy patches), turning a mismatch into a lesson on the spot."""

    def __init__(self, provider: str, scenario: str, cassette: Any):
        super().__init__(verify=False)  # nothing leaves the process: skip loading CA certificates
        self._where = (provider, scenario, cassette)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return super().handle_request(request)
        except CannotOverwriteExistingCassetteException as exc:
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
        found = first_difference(_body(recorded), _body(sent))
    return ReplayMismatch(f"{where}: your request differs from the recording: {found}. "
                          f"Read the input: print the messages you sent on this call and "
                          f"compare them with the recording (lessons/04_reading_the_input.ipynb).")


def replay_scenario(provider: str, scenario: str, **overrides: Any) -> RunResult:
    """Run the reference loop on one recorded scenario and return its result."""
    with replay(provider, scenario) as session:
        return session.run(**overrides)



def record(provider: str, scenario: str, *, live: bool = False, force: bool = False,
           directory: Path = CASSETTES) -> Path:
    """Record a scenario into a cassette: against the emulator, or the live API with a key."""
    from harness.emulator import Emulator  # only recording needs the emulator

    if provider not in PROVIDERS:
        raise CassetteError(f"unknown provider {provider!r}; choose one of: {', '.join(PROVIDERS)}")
    chosen = scenarios.get(scenario)
    path = cassette_path(provider, scenario, directory=directory)
    if path.exists() and not force:
        raise CassetteError(f"{path} exists; pass --force to overwrite it (the old recording "
                            f"is replaced only after the new one succeeds).")
    if live:
        key = next((os.environ[v] for v in KEY_VARIABLES[provider] if os.environ.get(v)), None)
        if key is None:
            raise CassetteError(f"recording {provider} live needs an API key: set "
                                f"{' or '.join(KEY_VARIABLES[provider])}, or use --emulator.")
        transport, options = httpx.HTTPTransport(), {"api_key": key}
    else:
        emulator = Emulator(chosen.model(provider), seed=f"{provider}/{scenario}")
        # vcrpy records what passes through httpx's own transports: wrap the emulator in one.
        # A placeholder key, so the adapter never picks up a real one from the environment.
        transport = httpx.MockTransport(emulator.handle_request)
        options = {"api_key": "emulator-needs-no-key"}
    scratch = path.with_suffix(".recording.yaml")
    scratch.parent.mkdir(parents=True, exist_ok=True)
    scratch.unlink(missing_ok=True)
    with httpx.Client(transport=transport, timeout=120) as client, \
            _vcr("all").use_cassette(str(scratch)):
        model = providers.get(provider, client=client,
                              **provider_options(provider, chosen) | options)
        result = chosen.run(model)
    _check_scrubbed(scratch)
    changed = not path.exists() or path.read_bytes() != scratch.read_bytes()
    scratch.replace(path)
    _update_manifest(directory, provider, scenario, model=getattr(model, "model", "?"),
                     made_by="live" if live else "emulator", exit=result.status.value,
                     calls=result.turns, changed=changed)
    return path


def _check_scrubbed(path: Path) -> None:
    text = path.read_text()
    for secret in _secrets():
        if secret and secret in text:
            path.unlink()
            raise CassetteError(f"{path} would contain an API key from the environment; "
                                f"nothing was written. Report this as a bug.")


def _secrets() -> list[str]:
    names = {v for variables in KEY_VARIABLES.values() for v in variables}
    values = [os.environ.get(name, "") for name in names]
    return [v for v in values if len(v) >= 8] + [base64.b64encode(v.encode()).decode()
                                                  for v in values if len(v) >= 8]


def _update_manifest(directory: Path, provider: str, scenario: str, *, changed: bool,
                     **entry: Any) -> None:
    """Record how each cassette was made. An unchanged cassette keeps its date: reruns are
    byte-identical."""
    path = directory / "manifest.json"
    manifest = json.loads(path.read_text()) if path.exists() else {}
    old = manifest.get(provider, {}).get(scenario)
    date = old["date"] if old and not changed else dt.date.today().isoformat()
    manifest.setdefault(provider, {})[scenario] = entry | {
        "api_version": API_VERSIONS[provider], "date": date}
    ordered = {p: dict(sorted(manifest[p].items())) for p in sorted(manifest)}
    path.write_text(json.dumps(ordered, indent=2, sort_keys=False) + "\n")
