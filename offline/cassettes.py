"""The cassette files: where they live, how they are written, scrubbed, read and matched.

A cassette is plain vcrpy YAML, one per provider and scenario, with JSON bodies indented and every
header removed but `content-type`, `anthropic-version` and a rate limit's wait and counters.
Requests are matched on their JSON meaning: key order, whitespace, camelCase or snake_case keys
and re-encoded signatures do not matter, and `first_difference` says in plain words where two
bodies part. Replaying is in `offline.replay`, recording in `offline.record`; neither this module
nor they know a wire format. vcrpy is imported only where it is used (`recorder`, `use`): it
imports every HTTP library installed, which costs a lesson about half a second.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from harness import providers
from offline import scenarios
from offline.errors import CassetteError

CASSETTES = Path(__file__).resolve().parent.parent / "cassettes"
# Only these headers are kept: nothing else is needed to replay, and everything else may identify
# an account (authorization, x-api-key, x-goog-api-key, cookies, organisation and project ids).
KEPT_REQUEST_HEADERS = {"content-type", "anthropic-version"}
KEPT_RESPONSE_HEADERS = {"content-type", "retry-after", "retry-after-ms"}
# A rate-limited answer says how long to wait and how much is left: kept, they identify nobody.
KEPT_RESPONSE_PREFIXES = ("x-ratelimit-", "anthropic-ratelimit-")
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


def body_of(raw: bytes | str | None) -> Any:
    """A request body as JSON, or as it is when it is not JSON."""
    raw = raw or b""
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return raw


def first_difference(expected: Any, sent: Any, path: str = "body") -> str | None:
    """Where two JSON values first differ, in plain words and in the sent body's own keys;
    None when they mean the same."""
    if expected == sent:  # the usual case on replay, settled in C before any walk
        return None
    if isinstance(expected, dict) and isinstance(sent, dict):
        recorded = {_camel(k): (k, v) for k, v in expected.items()}
        given = {_camel(k): (k, v) for k, v in sent.items()}
        for key in [*recorded, *(k for k in given if k not in recorded)]:
            if key not in given:
                name, value = recorded[key]
                return f"{path}.{name} is missing; the recording has {_short(value)}"
            if key not in recorded:
                name, value = given[key]
                return f"{path}.{name} was sent ({_short(value)}) but is not in the recording"
            name = given[key][0]
            if found := _differ(recorded[key][1], given[key][1], f"{path}.{name}", name):
                return found
        return None
    return _differ(expected, sent, path, "")


def _differ(expected: Any, sent: Any, path: str, key: str) -> str | None:
    if isinstance(expected, dict) and isinstance(sent, dict):
        return first_difference(expected, sent, path)
    if isinstance(expected, list) and isinstance(sent, list):
        for index, (left, right) in enumerate(zip(expected, sent, strict=False)):
            if found := _differ(left, right, f"{path}[{index}]", ""):
                return found
        if len(expected) != len(sent):
            longer = expected if len(expected) > len(sent) else sent
            return (f"{path} has {len(sent)} items but the recording has {len(expected)}; "
                    f"the first unmatched one is {_short(longer[min(len(expected), len(sent))])}")
        return None
    if _normal(expected, key) != _normal(sent, key):
        return f"{path} is {_short(sent)} but the recording has {_short(expected)}"
    return None


def _short(value: Any, limit: int = 160) -> str:
    if isinstance(value, bytes):
        value = value.decode(errors="replace")
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "..."


MATCH_ON = ("method", "scheme", "host", "path")
"""What must be equal for a request to match a recorded one, besides the body's JSON meaning (the
query is not compared: a Gemini key travels there)."""


def _json_body_matcher(recorded: Any, sent: Any) -> None:
    if (found := first_difference(body_of(recorded.body), body_of(sent.body))) is not None:
        raise AssertionError(found)


# libyaml when present: 10x faster to read, 18x to write, the same bytes (see test_cassettes).
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    pass


def _str(dumper: Any, value: str) -> yaml.ScalarNode:
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


def use(path: Path, *, record_mode: str) -> Any:
    """The cassette at `path` as a context manager: `recorder(record_mode).use_cassette(path)`."""
    return recorder(record_mode).use_cassette(str(path))


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
