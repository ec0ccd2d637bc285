"""Google's proto JSON: how the Gemini API reads a request before any rule of its own applies.

Every field may be spelt in camelCase or in snake_case (`read`). A body that does not fit the
protos is refused with one "Invalid JSON payload received" violation per misfit (`violations`):
a key that a function's `parameters` may not hold (the `Schema` proto has only `SCHEMA_FIELDS`),
or a list where a function response's Struct belongs. The API's own rules, and the error body
the violations go out in, are in `offline.emulator.gemini`.
"""

from __future__ import annotations

import re
from typing import Any

# The fields of the API's `Schema` proto (ai.google.dev/api/caching#Schema); `parameters` takes
# only these, so JSON-Schema keys such as additionalProperties, $schema or const are rejected.
SCHEMA_FIELDS = {"type", "format", "title", "description", "nullable", "enum", "maxItems",
                 "minItems", "properties", "required", "minProperties", "maxProperties",
                 "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering",
                 "default", "items", "minimum", "maximum"}


def _snake(name: str) -> str:
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


SCHEMA_FIELDS |= {_snake(name) for name in SCHEMA_FIELDS}


def read(obj: Any, camel: str, default: Any = None) -> Any:
    """A field under its camelCase or its snake_case name (the API accepts both).

    Example:
        >>> read({"function_call": {"name": "f"}}, "functionCall"), read(None, "parts", [])
        ({'name': 'f'}, [])
    """
    if not isinstance(obj, dict):
        return default
    return obj.get(camel, obj.get(_snake(camel), default))


def violations(body: dict[str, Any]) -> list[tuple[str, str]]:
    """Each misfit of the body as (field path, text), in the order Google lists them."""
    return _response_lists(body) + _schema_violations(body)


def _response_lists(body: dict[str, Any]) -> list[tuple[str, str]]:
    # Real text: vercel/ai#3589.
    found = []
    for i, content in enumerate(body.get("contents") or []):
        for j, part in enumerate(content.get("parts") or []):
            if isinstance(read(read(part, "functionResponse"), "response"), list):
                field = f"contents[{i}].parts[{j}].function_response"
                found.append((field, f"Invalid JSON payload received. Unknown name \"response\" "
                                     f"at '{field}': Proto field is not repeating, cannot start "
                                     "list."))
    return found


def _schema_violations(body: dict[str, Any]) -> list[tuple[str, str]]:
    # Real text: nanbingxyz/5ire#42, Laisky/one-api#60; nested paths as in mnfst/llm-gateway#1858.
    found: list[tuple[str, str]] = []
    for t, tool in enumerate(body.get("tools") or []):
        for d, declaration in enumerate(read(tool, "functionDeclarations") or []):
            schema = read(declaration, "parameters")
            if isinstance(schema, dict):
                _walk_schema(schema, f"tools[{t}].function_declarations[{d}].parameters", found)
    return found


def _walk_schema(schema: dict[str, Any], path: str, found: list[tuple[str, str]]) -> None:
    for key, value in schema.items():
        if key not in SCHEMA_FIELDS:
            found.append((path, f"Invalid JSON payload received. Unknown name \"{key}\" at "
                                f"'{path}': Cannot find field."))
        elif key == "properties" and isinstance(value, dict):
            for index, child in enumerate(value.values()):
                if isinstance(child, dict):
                    _walk_schema(child, f"{path}.properties[{index}].value", found)
        elif key == "items" and isinstance(value, dict):
            _walk_schema(value, f"{path}.items", found)
        elif key in ("anyOf", "any_of") and isinstance(value, list):
            for index, child in enumerate(value):
                if isinstance(child, dict):
                    _walk_schema(child, f"{path}.any_of[{index}]", found)
