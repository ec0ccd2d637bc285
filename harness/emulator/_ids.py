"""Deterministic, realistic-looking ids, signatures, encrypted reasoning and timestamps.

Everything here is derived with hashlib from (seed, call number, kind, position), never from the
clock or a random source, so recording the same scenario twice gives byte-identical cassettes.
The shapes copy the real ones (lengths, prefixes, alphabets); the bytes mean nothing.
`Ledger` also remembers what this emulator has signed, for the validators that check it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import string
from dataclasses import dataclass, field

BASE_TIME = 1767225600
"""2026-01-01T00:00:00Z; call N is stamped BASE_TIME + N."""

ALNUM = string.ascii_letters + string.digits


def _stream(*parts: object, size: int) -> bytes:
    """`size` pseudo-random bytes from the parts (SHA-256 in counter mode)."""
    key = "\x1f".join(str(part) for part in parts).encode()
    out = b""
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(key + counter.to_bytes(4, "big")).digest()
        counter += 1
    return out[:size]


def _pick(data: bytes, alphabet: str) -> str:
    return "".join(alphabet[byte % len(alphabet)] for byte in data)


def _varint(number: int) -> bytes:
    out = b""
    while True:
        low, number = number & 0x7F, number >> 7
        out += bytes([low | (0x80 if number else 0)])
        if not number:
            return out


def _blob(tag: int, payload: bytes) -> bytes:
    """A protobuf length-delimited field: real signatures are base64 of protobuf bytes."""
    return bytes([tag]) + _varint(len(payload)) + payload


@dataclass(frozen=True)
class CallIds:
    """The ids of one emulated call (number counts every request the emulator answered)."""

    ledger: Ledger
    number: int

    @property
    def created(self) -> int:
        return BASE_TIME + self.number

    def alnum(self, kind: str, length: int, position: int = 0) -> str:
        return _pick(_stream(self.ledger.seed, self.number, kind, position, size=length), ALNUM)

    def hex(self, kind: str, length: int, position: int = 0) -> str:
        return _stream(self.ledger.seed, self.number, kind, position, size=length).hex()[:length]

    def openai_item(self, prefix: str, position: int = 0) -> str:
        """Responses ids: 16 hex shared by one response, "01", the creation time, 24 hex.

        Real example: rs_04962823ecde01b901698e138042688193a657e07614b238c3.
        """
        shared = self.hex("response", 16)
        return f"{prefix}_{shared}01{self.created:08x}{self.hex(prefix, 24, position)}"

    def request_id(self) -> str:
        """Anthropic's request ids, as in its error bodies: req_011 + 21 characters."""
        return "req_011" + self.alnum("request", 21)

    def encrypted_reasoning(self, text: str) -> str:
        """A Fernet-shaped token (version 0x80, timestamp, IV, ciphertext, HMAC), like OpenAI's
        "gAAAAAB..." encrypted_content. It is opaque: the text cannot be recovered from it."""
        body = _stream(self.ledger.seed, self.number, "cipher", text, size=48 + len(text) // 2)
        token = (b"\x80" + self.created.to_bytes(8, "big")
                 + _stream(self.ledger.seed, self.number, "iv", size=16) + body
                 + _stream(self.ledger.seed, "mac", body, size=32))
        return base64.urlsafe_b64encode(token).decode()

    def thought_signature(self, fingerprint: str) -> str:
        """A Gemini thoughtSignature for one model turn, remembered so the next request can be
        checked for it. Standard base64, as the real API sends it."""
        payload = _blob(0x0A, _stream(self.ledger.seed, self.number, "thought", size=180))
        signature = base64.b64encode(payload).decode()
        self.ledger.signed_turns[fingerprint] = signature
        return signature


@dataclass
class Ledger:
    """The seed, plus what this emulator has signed (Gemini turns; Anthropic signatures are
    a keyed hash of the thinking text, so they need no memory)."""

    seed: str = ""
    signed_turns: dict[str, str] = field(default_factory=dict)

    def call(self, number: int) -> CallIds:
        return CallIds(self, number)

    def thinking_signature(self, thinking: str) -> str:
        """The signature of an Anthropic thinking block: bound to the seed and the exact text,
        so an edited text or a made-up signature fails verification, like the real API."""
        mac = hmac.new(self.seed.encode(), thinking.encode(), hashlib.sha512).digest()
        inner = _blob(0x0A, b"\x08\x0b\x18\x02" + _blob(0x2A, mac)) + _blob(
            0x12, _stream(self.seed, "thinking", thinking, size=220))
        return base64.b64encode(_blob(0x12, inner)).decode()
