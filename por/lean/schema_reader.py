"""How :mod:`por.lean.generate` reads a pydantic model (issue 21).

:func:`columns` gives one :class:`Column` per field of a model: its wire key
(the alias), attribute, whether it may be absent (only a ``X | None = None``
field), and a :data:`Node` tree of what a value must be (``Scalar`` with its
length or value bounds, ``Lit`` texts, a ``Nested`` model, a ``ListOf`` with
its caps), the ``Annotated`` constraints of every level added up as pydantic
adds them.  Anything else a model says (a pattern, a field validator, a
serializer used outside JSON, a ``model_validator`` without a hook in the
table) raises :class:`GenerateError`: a constraint the lean checks would leave
out would make them looser than the model.  Leaves out: writing (``generate``).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Union

import annotated_types as at
from pydantic import BaseModel, BeforeValidator, FailFast, PlainSerializer
from pydantic.fields import FieldInfo

from por.schemas import base


class GenerateError(Exception):
    """A model says something the lean checks cannot say (so nothing is written)."""


@dataclass(frozen=True)
class Lean:
    """How one pydantic model becomes a lean record.

    ``base``: ``Struct``, ``CborRecord`` (a record that keeps its bytes) or a
    class of :mod:`por.lean.hooks`; ``invariants``: the hook restating the
    model's ``model_validator``; ``fields``: field name -> ``shared`` (one
    object per distinct value), ``shared:<name>`` (the same, one cache named
    ``shared_<name>`` for every field that names it), ``interned`` (one record
    per distinct value), ``leaves`` (a list of byte strings read as spans) or
    ``spanned`` (bytes, or a span kept in ``_<field>``)."""

    model: type[BaseModel]
    base: str = "Struct"
    invariants: str | None = None
    fields: Mapping[str, str] = field(default_factory=dict)


#: Validators that act only on a JSON form (``context={"json": True}``).
_JSON_ONLY = base.JSON_ONLY_VALIDATORS  # read, never called


@dataclass
class Scalar:
    kind: str  # text, integer, blob, boolean, decimal
    lo: int | None = None
    hi: int | None = None
    hint: Any = None


@dataclass
class Lit:
    values: tuple[str, ...]


@dataclass
class Nested:
    model: type[BaseModel]


@dataclass
class ListOf:
    item: Node
    lo: int | None = None
    hi: int | None = None


Node = Scalar | Lit | Nested | ListOf
_SCALARS = {str: "text", int: "integer", bytes: "blob", bool: "boolean"}


def _node(hint: Any, where: str) -> Node:
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        inner, *metadata = typing.get_args(hint)
        node = _node(inner, where)
        for meta in metadata:
            _apply(node, meta, where)
        if isinstance(node, Scalar) and node.hint is None:
            node.hint = hint
        return node
    if origin is Literal:
        values = typing.get_args(hint)
        if not values or not all(type(v) is str for v in values):
            raise GenerateError(f"{where}: a Literal of non-texts")
        return Lit(values)
    if origin is list:
        return ListOf(_node(typing.get_args(hint)[0], f"{where}[]"))
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return Nested(hint)
    if hint in _SCALARS:
        return Scalar(_SCALARS[hint])
    raise GenerateError(f"{where}: no lean check for {hint!r}")


def node_of(hint: Any, where: str) -> Node:
    """What a value of type ``hint`` must be (``where`` names it in errors)."""
    return _node(hint, where)


def python_type(node: Node) -> str:
    """The annotation of a lean attribute holding a value of ``node`` (a nested
    record is the lean class of the model's name)."""
    if isinstance(node, Scalar):
        return {"text": "str", "decimal": "str", "integer": "int", "blob": "bytes",
                "boolean": "bool"}[node.kind]
    if isinstance(node, Lit):
        return "str"
    if isinstance(node, Nested):
        return node.model.__name__
    return f"list[{python_type(node.item)}]"


def _tighter(old: int | None, new: int, pick: Any) -> int:
    return new if old is None else int(pick(old, new))


def _apply(node: Node, meta: Any, where: str) -> None:
    """Narrow ``node`` by one ``Annotated`` item (constraints add up, as in pydantic)."""
    if isinstance(meta, FieldInfo):
        for item in meta.metadata:
            _apply(node, item, where)
        return
    if isinstance(meta, FailFast):  # error reporting only
        return
    if isinstance(meta, PlainSerializer) and meta.when_used == "json":
        return
    if isinstance(meta, BeforeValidator):
        if meta.func in _JSON_ONLY or (
                meta.func is base.DECIMAL_VALIDATOR and isinstance(node, Scalar)
                and node.kind == "decimal"):  # seen twice: in the hint and the FieldInfo
            return
        if meta.func is base.DECIMAL_VALIDATOR and isinstance(node, Scalar) and (
                node.kind == "text" and node.lo is None and node.hi is None):
            node.kind = "decimal"
            return
        raise GenerateError(f"{where}: validator {meta.func!r} has no lean check")
    sized = isinstance(node, ListOf) or (isinstance(node, Scalar)
                                         and node.kind in ("text", "blob"))
    ranged = isinstance(node, Scalar) and node.kind == "integer"
    if isinstance(node, ListOf | Scalar):
        if sized and isinstance(meta, at.MinLen):
            node.lo = _tighter(node.lo, meta.min_length, max)
            return
        if sized and isinstance(meta, at.MaxLen):
            node.hi = _tighter(node.hi, meta.max_length, min)
            return
        if ranged and isinstance(meta, at.Ge | at.Gt):
            low = meta.ge if isinstance(meta, at.Ge) else meta.gt
            if type(low) is not int:
                raise GenerateError(f"{where}: a bound that is not an int")
            node.lo = _tighter(node.lo, low if isinstance(meta, at.Ge) else low + 1, max)
            return
        if ranged and isinstance(meta, at.Le | at.Lt):
            high = meta.le if isinstance(meta, at.Le) else meta.lt
            if type(high) is not int:
                raise GenerateError(f"{where}: a bound that is not an int")
            node.hi = _tighter(node.hi, high if isinstance(meta, at.Le) else high - 1, min)
            return
    raise GenerateError(f"{where}: no lean check for {meta!r}")


@dataclass
class Column:
    """One field of one record: its wire key, attribute, check and optionality."""

    key: str
    attr: str
    node: Node
    optional: bool
    flavour: str | None


_FLAVOURS = ("shared", "interned", "leaves", "hash_leaves", "spanned")


def columns(spec: Lean) -> list[Column]:
    """The fields of ``spec.model`` as the lean record declares them."""
    model, name = spec.model, spec.model.__name__
    config = model.model_config
    if not (config.get("strict") and config.get("frozen") and config.get("extra") == "forbid"):
        raise GenerateError(f"{name}: not strict, frozen and closed")
    decorators = model.__pydantic_decorators__
    if decorators.field_validators or decorators.validators or decorators.root_validators \
            or decorators.field_serializers or decorators.model_serializers \
            or decorators.computed_fields:
        raise GenerateError(f"{name}: a validator or serializer the generator cannot read")
    if bool(decorators.model_validators) != (spec.invariants is not None):
        raise GenerateError(f"{name}: model_validators and the invariants hook disagree")
    unknown = set(spec.fields) - set(model.model_fields)
    if unknown:
        raise GenerateError(f"{name}: the table names no such field {sorted(unknown)}")
    hints = typing.get_type_hints(model, include_extras=True)
    out = []
    for attr, info in model.model_fields.items():
        where = f"{name}.{attr}"
        hint, optional = hints[attr], False
        defaults_to_none = info.default is None and not info.is_required()
        if typing.get_origin(hint) in (Union, types.UnionType):
            arms = [a for a in typing.get_args(hint) if a is not type(None)]
            if len(arms) != 1 or not defaults_to_none:
                raise GenerateError(f"{where}: a union other than `X | None = None`")
            hint, optional = arms[0], True
        elif defaults_to_none:
            raise GenerateError(f"{where}: default None for a type without None")
        node = _node(hint, where)
        for meta in info.metadata:
            _apply(node, meta, where)
        flavour = spec.fields.get(attr)
        if flavour is not None and flavour.split(":")[0] not in _FLAVOURS:
            raise GenerateError(f"{where}: unknown flavour {flavour!r}")
        out.append(Column(info.alias or attr, attr, node, optional, flavour))
    return out


__all__ = ["Column", "GenerateError", "Lean", "ListOf", "Lit", "Nested", "Node", "Scalar",
           "columns", "node_of", "python_type"]
