"""`WireAPI`: the members every wire API module of the emulator provides, as a typed protocol.

The emulator answers a request with one of `openai_chat`, `openai_responses`, `anthropic` and
`gemini`, and uses each only through these members. A module satisfies a protocol as it stands,
so mypy checks all four against this one: a missing member or a changed signature is a type
error where the module is routed to, not a surprise at run time. Server side only; the client
side of each format is its adapter in `harness.providers`.
"""

from __future__ import annotations

from typing import Any, Protocol

from harness.messages import Message, Reply, ToolChoice, ToolSpec, Usage
from offline.emulator._errors import WireError
from offline.emulator._ids import CallIds, Ledger


class WireAPI(Protocol):
    """One wire format's server side. Example: `api: WireAPI = gemini` type-checks.

    The constants are read-only properties here: a module's `INDENT = 2` is an `int`, and only a
    read-only member may be narrower than the protocol's `int | None`.
    """

    @property
    def PROVIDER(self) -> str:
        """The format's name in the provider table (`harness.providers.catalog.PROVIDERS`), as
        its reasoning items and the emulator's prompt caches are named."""

    @property
    def FAMILY(self) -> str:
        """The provider family whose models, keys and rate limits the format shares, read from
        the table: "openai" for both of OpenAI's formats."""

    @property
    def INDENT(self) -> int | None:
        """How the API lays out its JSON bodies: indented by 2 (OpenAI, Google) or compact
        (None: Anthropic)."""

    def validate(self, body: dict[str, Any], *, ledger: Ledger) -> None:
        """Raise `WireError` for the first rule the request breaks, with the real status and text.
        `ledger` holds what this emulator has signed, for the formats that check signatures."""

    def parse_request(self, body: dict[str, Any]
                      ) -> tuple[list[Message], list[ToolSpec], ToolChoice]:
        """The neutral view of a validated request: its messages, tools and tool choice."""

    def render(self, reply: Reply, body: dict[str, Any], *, ids: CallIds, usage: Usage,
               model: str | None = None) -> dict[str, Any]:
        """The API's response body for a neutral reply to `body`, with the call's `ids` and the
        emulator's `usage`; `model` is the one named in the path (Gemini), if any."""

    def cache_blocks(self, body: dict[str, Any]) -> list[str]:
        """The request's prompt as text blocks in cache order, for `_cache.PromptCache`."""

    def error_body(self, status: int, error_type: str, message: str) -> dict[str, Any]:
        """The API's error envelope for one error (the HTTP status itself is not in it)."""

    def not_found_error(self, method: str, path: str) -> WireError:
        """The API's answer to a method or path it does not serve."""

    def invalid_json_error(self, error: ValueError) -> WireError:
        """The API's answer to a body that is not a JSON object; `error` says why."""
