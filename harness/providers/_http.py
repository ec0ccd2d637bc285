"""What the four adapters share: the API key lookup, the default client, one JSON POST, one
streamed POST read as server-sent events, and the two error envelopes used by more than one.

Each adapter keeps its own wire mapping; this module only sends a body, hands error statuses to
the adapter's `_map_error`, reads the wait a rate-limited reply asks for (`retry_after`), and
turns unreadable bodies into clear `ProviderError`s. A stream's events come out as (name, data)
pairs; what they mean for each API is `harness.providers.streams`. It never retries or
reconnects: retrying, with a bound and a backoff, is the caller's decision.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import ssl
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import httpx

from harness.errors import ProviderError

# Reasoning models can think for a minute or more before the first byte; connecting cannot.
DEFAULT_TIMEOUT = httpx.Timeout(120.0, connect=10.0)


def api_key_from_env(*names: str) -> str | None:
    """The first of these environment variables that is set and not empty."""
    return next((os.environ[name] for name in names if os.environ.get(name)), None)


def default_client() -> httpx.Client:
    return httpx.Client(timeout=DEFAULT_TIMEOUT, verify=_tls())


@functools.cache
def _tls() -> ssl.SSLContext:
    """httpx's default TLS settings, built once: each build reads the whole CA bundle (18 ms, four
    times in lesson 12), and one context is meant to serve many connections and threads."""
    return httpx.create_ssl_context()


def post_json(client: httpx.Client, url: str, body: dict[str, Any], *, headers: dict[str, str],
              map_error: Callable[[httpx.Response], ProviderError],
              provider: str) -> dict[str, Any]:
    """POST `body` as JSON; the parsed reply, or the adapter's ProviderError for a status >= 400."""
    response = client.post(url, json=body, headers=headers)
    if response.status_code >= 400:
        raise map_error(response)
    parsed = json_or_none(response)
    if not isinstance(parsed, dict):
        raise ProviderError(response.status_code, "invalid_response",
                            f"expected a JSON object, got: {_snippet(response)}",
                            provider=provider, body=parsed)
    return parsed


Events = Iterator[tuple[str, dict[str, Any]]]
"""(event name, "" when the API names none; the data as parsed JSON)."""


def post_events(client: httpx.Client, url: str, body: dict[str, Any], *, headers: dict[str, str],
                map_error: Callable[[httpx.Response], ProviderError], provider: str) -> Events:
    """POST `body` and yield its events while they arrive; an error status raises the adapter's
    `ProviderError` before any event, as for a plain call."""
    with client.stream("POST", url, json=body, headers=headers) as response:
        if response.status_code >= 400:
            response.read()
            raise map_error(response)
        for name, data in read_events(response.iter_lines()):
            _raise_if_failed(name, data, provider)
            yield name, data


def read_events(lines: Iterable[str]) -> Events:
    """The events in the lines of an event stream. Comment lines (`:` first, keep-alives) and
    fields other than `event` and `data` are skipped; OpenAI Chat's `data: [DONE]` ends it.

    Example:
        >>> list(read_events(["event: ping", 'data: {"type": "ping"}', ""]))
        [('ping', {'type': 'ping'})]
    """
    name = ""
    data: list[str] = []
    for line in itertools.chain(lines, [""]):  # the end of the body ends a last event too
        if not line:  # a blank line ends an event
            if data == ["[DONE]"]:
                return
            if data:
                yield name, json.loads("\n".join(data))
            name, data = "", []
            continue
        field, _, value = line.partition(":")
        if field == "event":
            name = value.strip()
        elif field == "data":
            data.append(value.removeprefix(" "))


def _raise_if_failed(name: str, data: dict[str, Any], provider: str) -> None:
    """An error inside a stream that began well: an `error` event (Anthropic, Responses) or an
    `error` object in a chunk (OpenAI Chat, Gemini). The HTTP status said 200, so the status
    here is the error's own code when it is a number (Gemini), else 500."""
    error = data["error"] if isinstance(data.get("error"), dict) else data
    if name != "error" and error is data:
        return
    code = error.get("code")
    kinds = [error.get("status"), code, error.get("type")]  # INVALID_ARGUMENT, server_error...
    kind = next((k for k in kinds if isinstance(k, str) and k), "stream_error")
    raise ProviderError(code if isinstance(code, int) else 500, kind,
                        str(error.get("message") or ""), provider=provider, body=data)


def json_or_none(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:  # JSONDecodeError and UnicodeDecodeError are both ValueErrors
        return None


def retry_after(response: httpx.Response, error: Any = None) -> float | None:
    """Seconds to wait: the `retry-after-ms` or `retry-after` header (seconds), or Google's
    `google.rpc.RetryInfo` detail in the `error` object (`"retryDelay": "37s"`); None if absent.

    Example:
        >>> retry_after(httpx.Response(429, headers={"retry-after": "20"}))
        20.0
        >>> retry_after(httpx.Response(429), {"details": [{"retryDelay": "37s"}]})
        37.0
    """
    details = error.get("details") if isinstance(error, dict) else None
    delays = [d["retryDelay"] for d in details or [] if isinstance(d, dict) and "retryDelay" in d]
    texts = [(value, 1.0) for value in delays if isinstance(value, str) and value.endswith("s")]
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        if name in response.headers:
            texts.append((response.headers[name] + "s", scale))
    for text, scale in texts:
        try:
            return float(text[:-1]) / scale
        except ValueError:  # an HTTP date (no API here sends one) or a malformed value
            continue
    return None


def openai_error(response: httpx.Response, provider: str) -> ProviderError:
    """Both OpenAI formats share one envelope: {"error": {message, type, param, code}}."""
    body = json_or_none(response)
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return unreadable_error(response, provider, body)
    return ProviderError(response.status_code, error.get("type") or error.get("code") or "error",
                         error.get("message") or "", provider=provider, body=body,
                         retry_after=retry_after(response))


def google_error(response: httpx.Response, provider: str) -> ProviderError:
    """Google's APIs answer with {"error": {code, message, status}}, sometimes in a one-element
    list (a streamed call without `alt=sse`)."""
    body = json_or_none(response)
    envelope = body[0] if isinstance(body, list) and len(body) == 1 else body
    error = envelope.get("error") if isinstance(envelope, dict) else None
    if not isinstance(error, dict):
        return unreadable_error(response, provider, body)
    error_type = error.get("status") or str(error.get("code") or "error")  # INVALID_ARGUMENT
    return ProviderError(response.status_code, error_type, error.get("message") or "",
                         provider=provider, body=body, retry_after=retry_after(response, error))


def unreadable_error(response: httpx.Response, provider: str, body: Any = None) -> ProviderError:
    """For an error body without the provider's envelope (a proxy's HTML page, an empty 502)."""
    reason = response.reason_phrase or "error"
    return ProviderError(response.status_code, f"http_{response.status_code}",
                         f"{reason}; not the provider's error JSON: {_snippet(response)}",
                         provider=provider, body=body)


def _snippet(response: httpx.Response, limit: int = 300) -> str:
    text = response.text.strip()
    if not text:
        return "(empty body)"
    return text if len(text) <= limit else text[:limit] + "..."
