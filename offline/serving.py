"""Serving the emulator to your own agent: `python -m course emulate` on a loopback port.

`emulate(provider, steps, ...)` starts an `Emulator` that answers from `steps` and accepts one
API key, and, while the block runs, writes to `out` how to point a client at it and then each
request as it ends: what was sent, what the scripted model answered, or why the API refused it,
in the real API's words. `wait()` blocks until Ctrl-C. It reads no script file (that is
`offline.script_file`) and parses no command line (that is `course.cli`).
"""

from __future__ import annotations

import contextlib
import json
import signal
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from harness import providers
from harness.messages import Message, Reply, ToolChoice, ToolSpec
from harness.providers import catalog
from offline.emulator import GEMINI_PATH, ROUTES, Emulator, Exchange, gemini, serve
from offline.emulator._api import WireAPI
from offline.errors import ScriptError
from offline.scripted import ScriptedModel, Step

DEFAULT_KEY = "sk-emulator-local"
"""The key the served emulator accepts unless told another (any other gets the real 401)."""
DEFAULT_PORT = 8765
CLIENTS = {
    "openai_chat": 'openai.OpenAI(base_url="{url}/v1", api_key="{key}")',
    "openai_responses": 'openai.OpenAI(base_url="{url}/v1", api_key="{key}")',
    "anthropic": 'anthropic.Anthropic(base_url="{url}", api_key="{key}")',
    "gemini": 'genai.Client(api_key="{key}", http_options={{"base_url": "{url}"}})',
}
"""How each official SDK is pointed at the emulator: the line the command prints."""


@dataclass
class Session:
    """A served emulator: where it listens, the key it takes, and what it has answered."""

    provider: str
    url: str
    key: str
    emulator: Emulator
    script: ScriptedModel
    out: TextIO
    stopped: threading.Event = field(default_factory=threading.Event)

    def wait(self) -> None:
        """Block until Ctrl-C, SIGTERM or `stopped` is set, then say how far the script got."""
        if threading.current_thread() is threading.main_thread():
            # A shell may start a background command with Ctrl-C ignored: take it back.
            signal.signal(signal.SIGINT, signal.default_int_handler)
            signal.signal(signal.SIGTERM, lambda *_: self.stopped.set())
        try:
            while not self.stopped.wait(0.2):
                pass
        except KeyboardInterrupt:
            pass
        steps = len(self.script.script) if isinstance(self.script.script, list) else "?"
        print(f"\nstopped after {len(self.emulator.exchanges)} request(s); the model was called "
              f"{len(self.script.requests)} time(s), the script has {steps} step(s).",
              file=self.out, flush=True)


class _Logged:
    """The scripted model, saying on the terminal when it is called past its script."""

    def __init__(self, model: ScriptedModel, out: TextIO):
        self.model, self.out = model, out

    def complete(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
                 tool_choice: ToolChoice = "auto") -> Reply:
        try:
            return self.model.complete(messages, tools=tools, tool_choice=tool_choice)
        except ScriptError as error:
            print(f"   script  {error} The client gets a 500 and is asked not to retry.",
                  file=self.out, flush=True)
            raise


@contextlib.contextmanager
def emulate(provider: str, steps: Sequence[Step], *, key: str = DEFAULT_KEY,
            host: str = "127.0.0.1", port: int = DEFAULT_PORT, source: str = "the script",
            out: TextIO) -> Iterator[Session]:
    """Serve the emulator for `provider`'s clients, answering from `steps`, while the block runs.

    Example:
        with emulate("anthropic", load("my_script.yaml"), out=sys.stdout) as session:
            session.wait()   # until Ctrl-C
    """
    catalog.provider(provider)  # a ValueError naming the four for any other name
    script = ScriptedModel(list(steps))
    emulator = Emulator(_Logged(script, out), api_key=key,
                        on_exchange=lambda exchange: print(
                            describe(exchange, number=len(emulator.exchanges)), file=out,
                            flush=True))
    with serve(emulator, host=host, port=port) as url:
        print(_banner(provider, url, key, source, len(steps)), file=out, flush=True)
        yield Session(provider, url, key, emulator, script, out)


def _banner(provider: str, url: str, key: str, source: str, steps: int) -> str:
    client = CLIENTS[provider].format(url=url, key=key)
    version = "\n  version   v1beta or v1 (google-genai's default)" if provider == "gemini" else ""
    return (f"Emulating {provider} on {url}, answering from {source} ({steps} step(s)).\n"
            f"  base URL  {url}{'/v1' if provider.startswith('openai') else ''}\n"
            f"  API key   {key}{version}\n  client    {client}\n"
            "Every request is checked as the real API checks it; each is shown below. "
            "Ctrl-C stops.\n")


def describe(exchange: Exchange, *, number: int) -> str:
    """Two or three lines on one request: path, model and status; what was sent; the reply or
    the refusal, in the API's words.

    Example: `#1 POST /v1/messages claude-sonnet-4-6 -> 200` then `sent ...` and `reply ...`.
    """
    api = _api(exchange.path)
    body = exchange.request if isinstance(exchange.request, dict) else {}
    model = body.get("model") or _path_model(exchange.path) or ""
    head = f"#{number} POST {exchange.path} {model} -> {exchange.status}"
    lines = [head, f"   sent    {_sent(api, body)}"]
    if exchange.status == 200:
        lines.append(f"   reply   {_reply(api.PROVIDER, exchange.response)}")
    else:
        error = exchange.response.get("error")
        text = error.get("message") if isinstance(error, dict) else exchange.response
        lines.append(f"   refused {text}")
    return "\n".join(lines)


def _api(path: str) -> WireAPI:
    return ROUTES.get(path, gemini)


def _path_model(path: str) -> str | None:
    match = GEMINI_PATH.fullmatch(path)
    return match.group(2) if match else None


def _sent(api: WireAPI, body: dict[str, Any]) -> str:
    try:
        messages, tools, _ = api.parse_request(body)
    except Exception:  # a request the API refused may not be readable at all
        return f"a body with {', '.join(sorted(body)) or 'no fields'}"
    last = messages[-1] if messages else None
    said = f', last {last.role}: "{_short(getattr(last, "content", None) or "")}"' if last else ""
    thread = body.get("thread", {}).get("type") if isinstance(body.get("thread"), dict) else None
    return (f"{len(messages)} message(s){said}; {len(tools)} tool(s)"
            f"{': ' + ', '.join(t.name for t in tools) if tools else ''}"
            f"{f'; thread {thread}' if thread else ''}")


def _reply(name: str, response: dict[str, Any]) -> str:
    try:
        reply = getattr(providers, name).from_wire(response)
    except Exception:  # never let the log stop the server
        return json.dumps(response)[:200]
    parts = [f'"{_short(reply.message.content)}"'] if reply.message.content else []
    parts += [f"call {call.name} {json.dumps(call.arguments, ensure_ascii=False)}"
              for call in reply.message.tool_calls]
    return f"{'; '.join(parts) or '(nothing)'} [{reply.stop_reason.value}]"


def _short(text: str, size: int = 80) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= size else text[:size - 3] + "..."
