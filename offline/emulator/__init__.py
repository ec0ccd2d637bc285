"""The emulator: four real wire formats served from a scripted model, with no network.

`Emulator(model)` is an httpx transport: POST /v1/chat/completions, /v1/responses, /v1/messages
and /{v1beta,v1}/models/{model}:generateContent are checked like the real APIs (same status, error
envelope and text), turned into neutral messages for `model.complete`, and the neutral reply is
rendered as the real JSON. `serve(emulator)` puts it on a loopback port for any client, the
official SDKs included (`offline.serving` adds the terminal log of `python -m course emulate`).
A request that asks to stream (`"stream": true`, Gemini's `:streamGenerateContent`) is checked the
same way and gets the same reply as server-sent events, in each API's own sequence (`_streams`).
Of server-side state it keeps only Anthropic's message threads (`_threads`). Each API's module
provides the members of `_api.WireAPI`, the protocol the emulator uses them through (and mypy
checks).

What a request means follows the real API too (merged Anthropic turns, Responses items sent back
with their ids, Gemini responses split over contents: see each module). One thing it cannot do
offline is verify a real Anthropic thinking signature: those pass on their format alone.

What a first live run meets is answered as for real, in this order: a missing or wrong key, a
model the provider does not serve (`_models`, from `harness.providers.catalog`, the one provider
table), what the model does not take (`_features`), a request the API rejects, and a rate limit.
`Emulator(model, api_key="sk-...")` accepts that key and `OFFLINE_KEY` and refuses any other, or
none; without `api_key` it checks no key, as a test double should. A
`ProviderError` with status 429 in the script becomes the provider's own 429, with its headers
and wait (`retry_after`, `DEFAULT_RETRY_AFTER` seconds when the script gives none).

Usage follows `offline.tokens`, computed from the wire body, and wins over any usage the model
reports: input is the request's tokens; cache reads and writes follow each provider's rule
(`_cache`: automatic for OpenAI and Gemini, at `cache_control` breakpoints for Anthropic, above
the model's minimum); output is the reply's text, tool names and arguments, plus thinking, which
is also reported as reasoning tokens.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import threading
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

from harness.errors import ProviderError
from harness.messages import Model, Reply, Usage, argument_text
from offline.emulator import _features, _streams, anthropic, gemini, openai_chat, openai_responses
from offline.emulator._api import WireAPI
from offline.emulator._cache import PromptCache
from offline.emulator._errors import WireError
from offline.emulator._ids import CallIds, Ledger
from offline.emulator._models import cache_minimum, unserved
from offline.emulator._refusals import REFUSALS
from offline.emulator._threads import Threads
from offline.tokens import CACHE_MINIMUM, CACHE_STEP, compact_json, count_tokens, output_tokens

__all__ = ["DEFAULT_RETRY_AFTER", "OFFLINE_KEY", "Emulator", "Exchange", "WireError", "anthropic",
           "emulated", "gemini", "openai_chat", "openai_responses", "serve"]

OFFLINE_KEY = "emulator-needs-no-key"  # the key the kit sends offline; always accepted
DEFAULT_RETRY_AFTER = 20.0  # the wait a scripted 429 asks for when the script gives none

ROUTES: dict[str, WireAPI] = {"/v1/chat/completions": openai_chat,
                              "/v1/responses": openai_responses,
                              "/v1/messages": anthropic}
GEMINI_PATH = re.compile(
    r"/(v1beta|v1)/models/([^/:]+):(?:generateContent|streamGenerateContent)")


@dataclass(frozen=True)
class Exchange:
    """One request the emulator answered, as sent and as answered on the wire."""

    path: str
    request: Any
    status: int
    response: dict[str, Any]
    streamed: bool = False
    """Whether the response went out as a stream of events (`response` is what they carry)."""


class Emulator(httpx.BaseTransport):
    """Serves the four wire formats from `model` (a `ScriptedModel` or any `Model`).

    Example:
        >>> from offline.scripted import ScriptedModel, Step
        >>> client = httpx.Client(transport=Emulator(ScriptedModel([Step.say("Hi")])))
        >>> client.post("https://api.openai.com/v1/chat/completions", json={
        ...     "model": "gpt-5-mini", "messages": [{"role": "user", "content": "Hello"}]
        ... }).json()["choices"][0]["message"]["content"]
        'Hi'
    """

    def __init__(self, model: Model, *, seed: str = "", api_key: str | None = None,
                 on_exchange: Callable[[Exchange], None] | None = None):
        self.model = model
        self.seed = seed
        self.api_key = api_key
        self.exchanges: list[Exchange] = []
        self.on_exchange = on_exchange  # told of each exchange as it ends (the emulate command)
        self._ledger = Ledger(seed)
        self._caches: dict[str, PromptCache] = {}  # one prompt cache per API
        self.threads = Threads()  # Anthropic's message threads, held in memory
        self._lock = threading.Lock()  # the loopback server answers from several threads

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        status, headers, content = self.respond(request.method, request.url.raw_path.decode(),
                                                request.read(), request.headers)
        if headers["content-type"].startswith("text/event-stream"):  # read as it arrives
            return httpx.Response(status, headers=headers, content=iter(_streams.split(content)))
        return httpx.Response(status, headers=headers, content=content)

    def respond(self, method: str, path: str, content: bytes,
                headers: Mapping[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        """Answer one HTTP request: (status, headers, body bytes). Used by both front ends.
        `path` may carry a query string (Gemini accepts its key as `?key=`)."""
        path, _, query = path.partition("?")
        sent = {name.lower(): value for name, value in (headers or {}).items()}
        with self._lock:
            ids = self._ledger.call(len(self.exchanges) + 1)
            api, path_model = _route(path, sent)
            try:
                self._check_access(api, path_model, path, content, sent, dict(
                    urllib.parse.parse_qsl(query)))
                status, body, request = self._answer(api, path_model, method, path, content,
                                                     ids, sent)
                extra: dict[str, str] = {}
            except _Refused as refused:
                status, body, request = refused.error.status, refused.error.body, refused.request
                extra = refused.error.headers
            if body.get("type") == "error" and body.get("request_id") is None:
                body["request_id"] = ids.request_id()
            # Only an answer streams: a rejected request gets its JSON error either way.
            how = _streams.mode(api.PROVIDER, path, dict(urllib.parse.parse_qsl(query)),
                                request) if status == 200 else None
            self.exchanges.append(Exchange(path, request, status, body, streamed=bool(how)))
            if self.on_exchange is not None:
                self.on_exchange(self.exchanges[-1])
            if how:
                kind, frames = _streams.frames(api.PROVIDER, body, request, ids=ids, how=how)
                return status, _headers(api, ids) | {"content-type": kind}, b"".join(frames)
        # Pretty-printed like OpenAI and Google, or compact like Anthropic.
        separators = (",", ": ") if api.INDENT else (",", ":")
        text = json.dumps(body, indent=api.INDENT, separators=separators, ensure_ascii=False)
        return status, _headers(api, ids) | extra, text.encode()

    def _check_access(self, api: WireAPI, path_model: str | None, path: str, content: bytes,
                      headers: dict[str, str], query: dict[str, str]) -> None:
        """The key, then the model: what the real APIs check before reading the request."""
        if path not in ROUTES and path_model is None:
            return  # an unknown path gets its own 404 below
        refusals, body = REFUSALS[api.FAMILY], _json_or_none(content)
        key = refusals.api_key(headers, query)
        if self.api_key is not None and key not in (self.api_key, OFFLINE_KEY):
            raise _Refused(refusals.authentication_error(key), body)
        model = body.get("model") if path_model is None and isinstance(body, dict) else path_model
        if not isinstance(model, str):
            return  # no model named: the request's own rules answer that
        if reason := unserved(api.PROVIDER, api.FAMILY, model, _version(path)):
            raise _Refused(refusals.model_error(model, reason, provider=api.PROVIDER,
                                                version=_version(path)), body)

    def _answer(self, api: WireAPI, path_model: str | None, method: str, path: str,
                content: bytes, ids: CallIds, headers: Mapping[str, str]
                ) -> tuple[int, dict[str, Any], Any]:
        if method != "POST" or (api is gemini and path_model is None) or (
                api is not gemini and path not in ROUTES):
            return _failure(api.not_found_error(method, path), None)
        try:
            body = json.loads(content.decode("utf-8") or "null")
        except ValueError as error:
            return _failure(api.invalid_json_error(error), None)
        if not isinstance(body, dict):
            return _failure(api.invalid_json_error(ValueError("Expecting object")), body)
        sent = body  # as it came; a thread's continue request stands for more (`_threads`)
        try:
            if api is anthropic:
                body = self.threads.expand(body, headers)
            model = path_model or str(body.get("model") or "")
            _features.check(api.PROVIDER, model, body, version=_version(path))
            api.validate(body, ledger=self._ledger)
            messages, tools, tool_choice = api.parse_request(body)
        except WireError as error:
            return _failure(error, sent)
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            return _failure(_unreadable(api, error), sent)
        try:  # errors of the script itself (ScriptError, bugs) propagate to the caller
            reply = self.model.complete(messages, tools=tools, tool_choice=tool_choice)
        except ProviderError as error:
            if error.status == 429:  # the provider's own rate-limit answer, headers included
                raise _Refused(REFUSALS[api.FAMILY].rate_limit_error(
                    model, retry_after=error.retry_after or DEFAULT_RETRY_AFTER,
                    requested=count_tokens(compact_json(body))), sent) from None
            return _failure(WireError(error.status, api.error_body(
                error.status, error.error_type, error.message)), sent)
        usage = self._usage(api, body, reply, model)
        rendered = api.render(reply, body, ids=ids, usage=usage, model=path_model)
        if api is anthropic:
            self.threads.record(sent, body, rendered)
        return 200, rendered, sent

    def _usage(self, api: WireAPI, body: dict[str, Any], reply: Reply, model: str) -> Usage:
        cache = self._caches.setdefault(api.PROVIDER, PromptCache())
        minimum = cache_minimum(api.FAMILY, model) or CACHE_MINIMUM
        blocks = api.cache_blocks(body)
        if api is anthropic:
            marks, _ = anthropic.breakpoints(body)
            read, written = cache.at_breakpoints(blocks, marks, minimum=minimum)
        else:  # OpenAI counts cached tokens in steps of 128; Gemini token by token
            read = cache.automatic(blocks, minimum=minimum,
                                   step=1 if api is gemini else CACHE_STEP)
            written = 0
        message = reply.message
        thinking = "".join(str(r.data.get("thinking", "")) for r in message.reasoning)
        calls = [(call.name, argument_text(call)) for call in message.tool_calls]
        # How the answer is delivered is not part of the prompt: a streamed reply counts the same.
        prompt = {key: value for key, value in body.items() if key not in _streams.OPTIONS}
        return Usage(input_tokens=count_tokens(compact_json(prompt)),
                     output_tokens=output_tokens(message.content, calls, thinking),
                     cached_input_tokens=read, cache_write_tokens=written,
                     reasoning_tokens=output_tokens(None, [], thinking))


class _Refused(Exception):
    """An answer that ends the request early: a key, model or rate-limit error."""

    def __init__(self, error: WireError, request: Any):
        self.error, self.request = error, request


def _json_or_none(content: bytes) -> Any:
    try:
        return json.loads(content.decode("utf-8") or "null")
    except ValueError:
        return None


def _route(path: str, headers: Mapping[str, str]) -> tuple[WireAPI, str | None]:
    """The API a request is for, and the model named in a Gemini path. Unknown paths get the
    error shape of the provider whose client most likely sent them."""
    if path in ROUTES:
        return ROUTES[path], None
    match = GEMINI_PATH.fullmatch(path)
    if match:
        return gemini, match.group(2)
    names = {name.lower() for name in headers}
    if "x-goog-api-key" in names or path.startswith("/v1beta/") or re.search(
            r"/models/[^/]+:", path):
        return gemini, None
    if {"anthropic-version", "x-api-key"} & names or path.startswith("/v1/messages"):
        return anthropic, None
    return openai_chat, None


def _version(path: str) -> str | None:
    """The API version a Gemini path names ("v1" or "v1beta"); None for other paths."""
    match = GEMINI_PATH.fullmatch(path)
    return match.group(1) if match else None


def _unreadable(api: WireAPI, error: Exception) -> WireError:
    # Not a real text: the emulator's own parser gave up on a request of the wrong shape (a
    # message that is a string, a call without a name...). Say so rather than crash.
    message = (f"(emulator) This request does not have the shape the API expects and could not "
               f"be read ({type(error).__name__}: {error}). Check it against the API reference.")
    return WireError(400, api.error_body(400, "invalid_request_error", message))


def _failure(error: WireError, request: Any) -> tuple[int, dict[str, Any], Any]:
    return error.status, error.body, request


def _headers(api: WireAPI, ids: CallIds) -> dict[str, str]:
    headers = {"content-type": "application/json"}
    if api is anthropic:
        headers["request-id"] = ids.request_id()
    elif api is not gemini:
        headers["x-request-id"] = "req_" + ids.hex("x-request-id", 32)
    return headers


class _Handler(BaseHTTPRequestHandler):
    """Hands each HTTP request to the emulator (set on a subclass by `serve`)."""

    emulator: Emulator
    protocol_version = "HTTP/1.1"  # keep-alive, as the SDKs' connection pools expect
    # Headers and body leave in two writes; with Nagle's algorithm on, the body waits for the
    # client's delayed acknowledgement of the headers: 40 ms a request on Linux loopback.
    disable_nagle_algorithm = True

    def handle(self) -> None:
        try:
            super().handle()
        except ConnectionError:  # the client hung up: openai's sync stream stops reading at [DONE]
            self.close_connection = True

    def do_POST(self) -> None:
        self._dispatch()

    do_GET = do_PUT = do_DELETE = do_PATCH = do_POST

    def _dispatch(self) -> None:
        content = self._read_body()
        path = self.path.split("?", 1)[0]
        try:
            status, headers, body = self.emulator.respond(self.command, self.path, content,
                                                          dict(self.headers))
        except Exception as error:  # a script error: tell the client, and ask it not to retry
            api, _ = _route(path, dict(self.headers))
            status = 500
            body = json.dumps(api.error_body(500, "api_error", str(error))).encode()
            headers = {"content-type": "application/json", "x-should-retry": "false"}
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if headers["content-type"].startswith("text/event-stream"):
            self._send_chunked(_streams.split(body))
            return
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _send_chunked(self, events: list[bytes]) -> None:
        """A stream as the real APIs send it: chunked transfer, one event a chunk, each sent
        as soon as it is written (a client reads the first before the last has left)."""
        self.send_header("transfer-encoding", "chunked")
        self.send_header("cache-control", "no-cache")
        self.end_headers()
        for event in events:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            chunks = []
            while size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16):
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            self.rfile.readline()
            return b"".join(chunks)
        return self.rfile.read(int(self.headers.get("content-length") or 0))

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: tests and notebooks should not print a line per request


def emulated(provider: str, model: Model, **options: Any) -> Model:
    """`provider`'s adapter talking to an in-process emulator of its API that answers from `model`.

    What the adapter sends is checked as the real API checks it: a request the API would reject
    raises the `ProviderError` a live run would, with the real status and text.

    Example:
        >>> from offline.scripted import ScriptedModel, Step
        >>> emulated("gemini", ScriptedModel([Step.say("Hi")])).complete([]).message.content
        'Hi'
    """
    from harness import providers  # the client side, used here only to stand in front

    client = httpx.Client(transport=Emulator(model))
    return providers.get(provider, client=client, api_key=OFFLINE_KEY, **options)


@contextlib.contextmanager
def serve(emulator: Emulator, *, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve `emulator` over HTTP on loopback while the block runs; yields the base URL.

    Example:
        with serve(Emulator(model)) as url:
            client = openai.OpenAI(base_url=url + "/v1", api_key="test")
    """
    handler = type("Handler", (_Handler,), {"emulator": emulator})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    # `shutdown` waits for the serving loop's next poll: 0.5 s by default, paid by every kernel
    # that served the emulator when it exits (lesson 12).
    serve_forever = functools.partial(server.serve_forever, poll_interval=0.05)
    thread = threading.Thread(target=serve_forever, name="emulator", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
