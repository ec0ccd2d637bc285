"""Request bodies compared by their JSON meaning, as replay matches a request to a recorded one.

Key order, whitespace, camelCase or snake_case keys and re-encoded signatures do not matter;
`first_difference` says in plain words, in the sent body's own keys, where two bodies part.
Knows no wire format and no cassette: `offline.cassettes` matches with it.
"""

from __future__ import annotations

import json
from typing import Any

SIGNATURE_FIELDS = {"signature", "thoughtSignature", "thought_signature", "encrypted_content"}
"""Keys whose text is a signature, compared on its bytes rather than its base64 spelling."""


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
