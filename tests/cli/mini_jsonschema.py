"""A tiny JSON Schema (draft 2020-12) validator for the subset the CLI schemas use.

Supported keywords: ``type`` (a name or a list), ``enum``, ``const``,
``properties``, ``required``, ``additionalProperties: false``, ``items``,
``minItems``, ``minimum``, ``maximum``, ``pattern``, ``oneOf`` and local
``$ref`` (``#/$defs/<name>``).  Any other keyword raises, so a schema cannot
silently use something this validator ignores.  No dependency on
``jsonschema`` (not installed in the project venv).
"""

from __future__ import annotations

import re
from typing import Any

_ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description", "default"}
_KNOWN = _ANNOTATIONS | {"type", "enum", "const", "properties", "required",
                         "additionalProperties", "items", "minItems", "minimum", "maximum",
                         "pattern", "oneOf", "$ref"}
_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def errors(instance: Any, schema: dict[str, Any], root: dict[str, Any] | None = None,
           path: str = "$") -> list[str]:
    """Every violation of ``schema`` by ``instance`` (empty list: valid)."""
    root = schema if root is None else root
    unknown = set(schema) - _KNOWN
    if unknown:
        raise ValueError(f"unsupported keywords at {path}: {sorted(unknown)}")
    found: list[str] = []
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise ValueError(f"unsupported $ref {ref}")
        found += errors(instance, root["$defs"][ref.removeprefix("#/$defs/")], root, path)
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[n](instance) for n in names):
            return [*found, f"{path}: {instance!r} is not of type {names}"]
    if "const" in schema and instance != schema["const"]:
        found.append(f"{path}: {instance!r} != const {schema['const']!r}")
    if "enum" in schema and not any(instance == e and type(instance) is type(e)
                                    for e in schema["enum"]):
        found.append(f"{path}: {instance!r} not in {schema['enum']!r}")
    if "oneOf" in schema:
        passing = sum(1 for s in schema["oneOf"] if not errors(instance, s, root, path))
        if passing != 1:
            found.append(f"{path}: matches {passing} of oneOf, not exactly 1")
    if isinstance(instance, dict):
        props = schema.get("properties", {})
        found += [f"{path}: missing {k!r}" for k in schema.get("required", [])
                  if k not in instance]
        if schema.get("additionalProperties") is False:
            found += [f"{path}: unexpected {k!r}" for k in instance if k not in props]
        for key, sub in props.items():
            if key in instance:
                found += errors(instance[key], sub, root, f"{path}.{key}")
    if isinstance(instance, list):
        if len(instance) < schema.get("minItems", 0):
            found.append(f"{path}: fewer than {schema['minItems']} items")
        if "items" in schema:
            for i, item in enumerate(instance):
                found += errors(item, schema["items"], root, f"{path}[{i}]")
    if _TYPES["integer"](instance):
        if "minimum" in schema and instance < schema["minimum"]:
            found.append(f"{path}: {instance} < {schema['minimum']}")
        if "maximum" in schema and instance > schema["maximum"]:
            found.append(f"{path}: {instance} > {schema['maximum']}")
    if isinstance(instance, str) and "pattern" in schema and \
            re.search(schema["pattern"], instance) is None:
        found.append(f"{path}: {instance!r} does not match {schema['pattern']}")
    return found
