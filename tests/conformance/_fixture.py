"""What a conformance fixture is: a request body, and how the real API answered that shape.

Each fixture states one fact about a real API, learned from public recorded traffic and
written again here with our own ids, texts and values (no recording is copied). `status` 200
means the real API accepted such a body; any other status comes with the real error body.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Fixture:
    fact: str
    """The rule the body exercises, in one sentence: the fixture's comment and its test id."""
    body: dict[str, Any]
    status: int = 200
    error: dict[str, Any] | None = None
    """The real error body (Anthropic's `request_id` varies per call and is left out)."""
    path: str = ""
    """Only where the API puts more than the route in the path (Gemini's model)."""
    tags: tuple[str, ...] = field(default=())
    """The false-rejection class a fixture belongs to, when it was one."""


def foreign_signature(label: str, *, thinking_bytes: int = 120) -> str:
    """A thinking signature in Anthropic's layout that no emulator issued: standard base64 of
    protobuf, field 2 = {1: header (version, 2, a 64-byte signature), 2: 12 bytes, 3: 12 bytes,
    4: 48 bytes, 5: ciphertext}, then field 3 = 1. The bytes are ours (a hash of `label`)."""
    def noise(kind: str, size: int) -> bytes:
        out = b""
        while len(out) < size:
            out += hashlib.sha256(f"{label}/{kind}/{len(out)}".encode()).digest()
        return out[:size]

    def blob(tag: int, payload: bytes) -> bytes:
        size, length = len(payload), b""
        while True:
            low, size = size & 0x7F, size >> 7
            length += bytes([low | (0x80 if size else 0)])
            if not size:
                return bytes([tag]) + length + payload

    header = b"\x08\x0c\x18\x02" + blob(0x2A, noise("signature", 64))
    inner = (blob(0x0A, header) + blob(0x12, noise("key", 12)) + blob(0x1A, noise("iv", 12))
             + blob(0x22, noise("tag", 48)) + blob(0x2A, noise("text", thinking_bytes)))
    return base64.b64encode(blob(0x12, inner) + b"\x18\x01").decode()


def tagged(fixtures: list[Fixture], tag: str) -> Fixture:
    """The first fixture of a false-rejection class."""
    return next(fixture for fixture in fixtures if tag in fixture.tags)
