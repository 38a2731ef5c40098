"""Fail-fast shape check run before pydantic validation (SPEC §17.2).

pydantic collects *every* error of an input before it raises: a list of a
million ill-typed items, a map with a million unknown keys or a step output
of a million byte strings materialises a million error objects (1-7 KB
each), gigabytes for a 1 MB record.  This walk stops at the first problem
and reports it with the check id pydantic would give, so validation of an
ill-formed record costs no more than walking it once:

* a model's value must be a map (``schema.type``) whose keys are all field
  names (``schema.extra_field``, the first unknown key in map order);
* a ``list[...]`` field must be an array and a ``dict[...]`` field a map
  (``schema.type``), and their items are walked in order;
* a committed ``Value`` (step inputs and outputs) holds only ints, bools,
  texts, arrays and maps (``schema.type`` for the first other item).

Scalars are left to pydantic (one error per field at most), and every list
field is ``FailFast``, so what pydantic then reports is bounded by the number
of fields, not by the size of the input.  Leaves out: value constraints.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Iterator
from typing import Any, Union

from pydantic import BaseModel
from typing_extensions import TypeAliasType

from por.errors import SchemaError

# A node of the shape tree: ("model", name, {key: node}), ("list", node),
# ("dict", node), ("value",) or None (nothing to check before pydantic).
Shape = tuple[Any, ...] | None

_VALUE_TYPES = (int, str, list, dict)  # bool is an int


#: The one sentence for a field a record does not have (pydantic's own text, "Extra
#: inputs are not permitted", never reaches a user: issue 26).
EXTRA_FIELD_TEXT = "no such field in this record (SPEC §4)"


def _is_value_alias(annotation: Any) -> bool:
    return isinstance(annotation, TypeAliasType) and annotation.__name__ == "Value"


def _shape_of(annotation: Any) -> Shape:
    if _is_value_alias(annotation):
        return ("value",)
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _shape_of(typing.get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        arms = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _shape_of(arms[0]) if len(arms) == 1 else None
    if origin is list:
        return ("list", _shape_of(typing.get_args(annotation)[0]))
    if origin is dict:
        return ("dict", _shape_of(typing.get_args(annotation)[1]))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return model_shape(annotation)
    return None


@functools.cache
def model_shape(cls: type[BaseModel]) -> Shape:
    """The shape tree of a model (cached per class)."""
    fields: dict[str, Shape] = {}
    for name, info in cls.model_fields.items():
        node = _shape_of(info.annotation)
        fields[info.alias or name] = node
        fields.setdefault(name, node)
    return ("model", cls.__name__, fields)


def precheck(cls: type[BaseModel], value: Any) -> None:
    """Raise ``SchemaError`` for the first shape problem of ``value`` as a ``cls``.

    Recursion depth is bounded by the model nesting (decoded values are at most
    32 deep, JSON forms 64); paths are built only for the error message."""
    _walk(model_shape(cls), value, cls.__name__)


def _walk(shape: Shape, node: Any, where: str) -> None:
    if shape is None:
        return
    kind = shape[0]
    if kind == "value":
        _check_value(node, where)
    elif kind == "model":
        if not isinstance(node, dict):
            raise SchemaError("schema.type", f"{where}: expected a map")
        fields: dict[str, Shape] = shape[2]
        for key in node:
            if key not in fields:
                raise SchemaError("schema.extra_field",
                                  f"{where}.{str(key)[:64]}: {EXTRA_FIELD_TEXT}")
        for key, item in node.items():
            if fields[key] is not None:
                _walk(fields[key], item, f"{where}.{key}")
    elif kind == "list":
        if not isinstance(node, list):
            raise SchemaError("schema.type", f"{where}: expected an array")
        if shape[1] is not None:
            for item in node:
                _walk(shape[1], item, f"{where}[]")
    else:
        if not isinstance(node, dict):
            raise SchemaError("schema.type", f"{where}: expected a map")
        if shape[1] is not None:
            for key, item in node.items():
                _walk(shape[1], item, f"{where}.{str(key)[:64]}")


def _check_value(value: Any, where: str) -> None:
    """A committed ``Value``: ints, bools, texts, arrays and maps with text keys only.

    Nodes are visited depth first, each container's items last to first (the
    order of a stack that pushes them all), through one iterator per level: a
    long array is never copied (SPEC §17.8: a hostile step output of millions
    of items)."""
    stack: list[Iterator[Any]] = [iter((value,))]
    while stack:
        node = next(stack[-1], _DONE)
        if node is _DONE:
            stack.pop()
            continue
        if type(node) not in _VALUE_TYPES and not isinstance(node, bool):
            raise SchemaError("schema.type", f"{where}: {type(node).__name__} is not a "
                                             "step value (int, bool, text, array, map)")
        if isinstance(node, list):
            stack.append(reversed(node))
        elif isinstance(node, dict):
            for key in node:
                if not isinstance(key, str):
                    raise SchemaError("schema.type", f"{where}: map key is not text")
            stack.append(reversed(node.values()))


_DONE = object()


__all__ = ["model_shape", "precheck"]
