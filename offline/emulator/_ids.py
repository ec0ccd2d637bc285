"""Deterministic, realistic-looking ids, signatures, encrypted reasoning and timestamps.

Everything here is derived with hashlib from (seed, call number, kind, position), never from the
clock or a random source, so recording the same scenario twice gives byte-identical cassettes.
The shapes copy the real ones (lengths, prefixes, alphabets); the bytes mean nothing.
`Ledger` also remembers what this emulator has signed, for the validators that check it.

Anthropic thinking signatures have the real layout (standard base64 of protobuf: field 2 holds
a header with a 64-byte signature, then 12, 12 and 48 bytes and a ciphertext; field 3 is 1). An
emulated one carries the emulator's key id in the first 12-byte field, so a validator can tell
its own signatures (which it verifies) from real ones (which only Anthropic can verify).
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


def _fields(data: bytes) -> dict[int, bytes | int] | None:
    """The top-level fields of protobuf bytes (field number: payload or integer), or None when
    the bytes are not protobuf made of varint and length-delimited fields."""
    fields: dict[int, bytes | int] = {}
    position = 0
    while position < len(data):
        key, position = _read_varint(data, position)
        number, wire_type = key >> 3, key & 7
        if wire_type == 0:
            fields[number], position = _read_varint(data, position)
        elif wire_type == 2:
            size, position = _read_varint(data, position)
            if position + size > len(data):
                return None
            fields[number], position = data[position:position + size], position + size
        else:
            return None
    return fields


def _read_varint(data: bytes, position: int) -> tuple[int, int]:
    number = shift = 0
    while position < len(data):
        byte = data[position]
        number, shift, position = number | (byte & 0x7F) << shift, shift + 7, position + 1
        if not byte & 0x80:
            return number, position
    return -1, len(data) + 1  # truncated: no field key is negative, so parsing stops


EMULATOR_KEY_ID = hashlib.sha256(b"agent-loop-kit emulator").digest()[:12]
"""Where real signatures have 12 bytes of their own, the emulator's carry this constant."""


def thinking_signature_fields(signature: object) -> dict[int, bytes | int] | None:
    """The inner fields of a signature in Anthropic's format, or None when it is not one:
    standard base64 of protobuf whose field 2 holds field 1 (a header with a 64-byte field 5)
    and field 2 (12 bytes). Real ones seen: 230 to 1,700 characters starting "E" (or "CAIS")."""
    try:
        data = base64.b64decode(str(signature), validate=True)
    except ValueError:
        return None
    inner = _nested(_fields(data), 2)
    header = _nested(inner, 1)
    mac, key_id = _payload(header, 5), _payload(inner, 2)
    if mac is None or len(mac) != 64 or key_id is None or len(key_id) != 12:
        return None
    return inner


def _payload(fields: dict[int, bytes | int] | None, number: int) -> bytes | None:
    """The bytes of length-delimited field `number`; None when there is no such field."""
    found = fields.get(number) if fields else None
    return found if isinstance(found, bytes) else None


def _nested(fields: dict[int, bytes | int] | None, number: int) -> dict[int, bytes | int] | None:
    """Field `number` read as a message of its own, as `_fields` reads one."""
    payload = _payload(fields, number)
    return None if payload is None else _fields(payload)


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
        self.ledger.signed_turns.setdefault(fingerprint, []).append(signature)
        return signature


@dataclass
class Ledger:
    """The seed, plus what this emulator has signed (Gemini turns; Anthropic signatures are
    a keyed hash of the thinking text, so they need no memory)."""

    seed: str = ""
    signed_turns: dict[str, list[str]] = field(default_factory=dict)

    def call(self, number: int) -> CallIds:
        return CallIds(self, number)

    def thinking_signature(self, thinking: str) -> str:
        """The signature of an Anthropic thinking block: bound to the seed and the exact text,
        so an edited text or a made-up signature fails verification, like the real API."""
        mac = hmac.new(self.seed.encode(), thinking.encode(), hashlib.sha512).digest()
        noise = _stream(self.seed, "thinking", thinking, size=60 + 100 + len(thinking) // 2)
        inner = (_blob(0x0A, b"\x08\x0b\x18\x02" + _blob(0x2A, mac))
                 + _blob(0x12, EMULATOR_KEY_ID) + _blob(0x1A, noise[:12])
                 + _blob(0x22, noise[12:60]) + _blob(0x2A, noise[60:]))
        return base64.b64encode(_blob(0x12, inner) + b"\x18\x01").decode()

    def issued_thinking_signature(self, signature: object) -> bool:
        """Whether a signature in Anthropic's format was made by an emulator (any seed)."""
        inner = thinking_signature_fields(signature)
        return inner is not None and inner[2] == EMULATOR_KEY_ID
