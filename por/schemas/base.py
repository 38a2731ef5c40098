"""Base classes and field types shared by every record (SPEC §4).

Every model is a pydantic v2 model with ``strict=True, frozen=True,
extra="forbid"``: it is valid by construction and lax coercion (``"1"`` or
``True`` for ``1``) is refused, because coercion is a determinism bug.

A *record* is a model that travels on its own: it carries a ``schema`` text
field (``por.EvidenceItem/1``...) and converts to and from ``por-cbor/1`` bytes.
Its JSON form (for people) writes 32-byte hashes as lower-case hex and other
byte strings as standard padded base64; that conversion happens only when the
validation context says ``{"json": True}``, so a CBOR record never accepts a hex
string where bytes belong.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Self, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
)
from pydantic_core import PydanticCustomError
from typing_extensions import TypeAliasType

from por.encoding import decode, encode
from por.errors import SchemaError
from por.jsontext import JsonTextError, loads_strict
from por.numbers import is_canonical_decimal
from por.protocol.limits import MAX_ID_LENGTH  # one definition (issue 16)
from por.schemas.shape import EXTRA_FIELD_TEXT, precheck

M = TypeVar("M", bound="Model")

#: Most arrays and objects a JSON form may hold (the CBOR decoder's cap, SPEC §17.7).
MAX_JSON_CONTAINERS = 1_000_000


class Model(BaseModel):
    """Strict, frozen, closed: the configuration of every por model."""

    model_config = ConfigDict(
        strict=True,
        frozen=True,
        extra="forbid",
        populate_by_name=True,
        serialize_by_alias=True,
        validate_by_alias=True,
        validate_by_name=True,
    )


def _is_json(info: ValidationInfo) -> bool:
    return isinstance(info.context, dict) and info.context.get("json") is True


_LOWER_HEX = re.compile(r"(?:[0-9a-f]{2})*")


def _hex_in(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, str) and _is_json(info):
        # fullmatch, not bytes.fromhex: fromhex skips whitespace.
        if _LOWER_HEX.fullmatch(value) is None:
            raise PydanticCustomError("hex", "not lower-case hex of whole bytes")
        return bytes.fromhex(value)
    return value


def _b64_in(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, str) and _is_json(info):
        try:
            raw = base64.b64decode(value.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError):
            raise PydanticCustomError("base64", "not standard padded base64") from None
        if base64.b64encode(raw).decode("ascii") != value:
            raise PydanticCustomError("base64", "base64 is not canonical")
        return raw
    return value


def _decimal_ok(value: Any) -> Any:
    if isinstance(value, str) and not is_canonical_decimal(value):
        raise PydanticCustomError("decimal", "not a canonical decimal string")
    return value


#: A SHA-256 value: exactly 32 bytes; lower-case hex in JSON.
Hash32 = Annotated[
    bytes,
    BeforeValidator(_hex_in),
    Field(min_length=32, max_length=32),
    PlainSerializer(lambda b: b.hex(), return_type=str, when_used="json"),
]
#: Any byte string; standard padded base64 in JSON.
Blob = Annotated[
    bytes,
    BeforeValidator(_b64_in),
    PlainSerializer(lambda b: base64.b64encode(b).decode("ascii"), return_type=str,
                    when_used="json"),
]
#: A canonical decimal string (SPEC §3.2): "101.5", "-0.25", "0".
DecimalStr = Annotated[str, BeforeValidator(_decimal_ok)]

#: The validators that act only on a JSON form (``context={"json": True}``) and the
#: decimal-text one: ``por.lean.schema_reader`` reads the annotations by these names.
JSON_ONLY_VALIDATORS = (_hex_in, _b64_in)
DECIMAL_VALIDATOR = _decimal_ok
#: An identifier: non-empty text of bounded length.
Id = Annotated[str, Field(min_length=1, max_length=MAX_ID_LENGTH)]
#: Basis points, 0..10000.
Bps = Annotated[int, Field(ge=0, le=10_000)]
#: Unix seconds (UTC), non-negative, 64-bit.
UnixTime = Annotated[int, Field(ge=0, le=2**63 - 1)]
#: A non-negative 64-bit count or size.
Count = Annotated[int, Field(ge=0, le=2**63 - 1)]

#: Generic committed values inside step inputs/outputs: no floats, no null, no
#: bytes (so the JSON form is unambiguous).
Value = TypeAliasType("Value", "int | bool | str | list[Value] | dict[str, Value]")


class Record(Model):
    """A model with a ``schema`` field that converts to and from ``por-cbor/1``.

    A record is immutable, so its canonical bytes are computed once and kept
    (``from_cbor`` keeps the verified input bytes).  The cache is invisible:
    equality compares fields only and ``model_copy`` starts a fresh cache.
    Lists inside a record must not be mutated (they are part of a frozen value).
    """

    SCHEMA: ClassVar[str]
    #: True when no field but ``schema`` has a default, in nested models too
    #: (tests/unit/perf pins it): validated bytes then dump back to the same
    #: value, so :meth:`from_cbor` skips a round trip that could prove nothing.
    ALL_REQUIRED: ClassVar[bool] = False
    _cbor: bytes | None = PrivateAttr(default=None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseModel):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # records hold lists: not hashable

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Self:
        """A copy with ``update`` applied (not validated, as pydantic's); no cached bytes."""
        copy = super().model_copy(update=update, deep=deep)
        if copy.__pydantic_private__ is not None:  # every memo starts afresh
            copy.__pydantic_private__ = dict.fromkeys(copy.__pydantic_private__)
        return copy

    def to_dict(self) -> dict[str, Any]:
        """The record as a plain dict of por-cbor/1 values (absent optionals omitted)."""
        return self.model_dump(mode="python", by_alias=True, exclude_none=True)

    def to_cbor(self) -> bytes:
        """Canonical ``por-cbor/1`` bytes: the record's committed form."""
        # The private-attribute dict directly: ``self._cbor`` goes through
        # pydantic's ``__getattr__``, a measurable cost on the replay path.
        private = self.__pydantic_private__
        data: bytes | None = private.get("_cbor") if private is not None else None
        if data is None:
            data = encode(self._cbor_value())
            self._cbor = data
        return data

    def _cbor_value(self) -> dict[str, Any]:
        """What :meth:`to_cbor` encodes: :meth:`to_dict`, or an equal dict built
        faster by a record on the hot path (the encoder copies it, so it may
        share the record's own lists and maps)."""
        return self.to_dict()

    @classmethod
    def from_dict(cls, value: Any) -> Self:
        """Validate a decoded por-cbor/1 value; raise ``SchemaError`` on any mismatch."""
        return cls._from_value(value, None)

    @classmethod
    def _from_value(cls, value: Any, context: dict[str, Any] | None) -> Self:
        if not isinstance(value, dict):
            raise SchemaError("schema.type", f"{cls.SCHEMA}: record is not a map")
        got = value.get("schema")
        if got != cls.SCHEMA:
            raise SchemaError(
                "schema.unknown_schema", f"expected schema {cls.SCHEMA}",
                expected=cls.SCHEMA, actual=got if isinstance(got, str) else repr(got),
            )
        return _validate(cls, value, context=context)

    @classmethod
    def from_cbor(cls, data: bytes, *, max_size: int | None = None,
                  max_items: int | None = None) -> Self:
        """Strictly decode and validate; the bytes must be exactly the canonical form.
        ``max_size``: the decoder's size cap when not its 64 MiB default (a record
        that holds a whole bundle follows the bundle cap); ``max_items``: the
        decoder's item cap, if any."""
        value = decode(data, max_items=max_items) if max_size is None else decode(
            data, max_size=max_size, max_items=max_items)
        # The bytes ride along for a validator that measures the record's canonical
        # size (§4.2's PromptSpec cap): see canonical_size.
        record = cls._from_value(value, {"cbor": (cls, data, value)})
        # decode() proved the bytes canonical; they are the record's canonical
        # form iff the model dumps back to the same value (a defaulted field the
        # bytes omit would appear here).  Strict validation keeps every type, so
        # Python's 1 == True cannot hide a difference.
        if not cls.ALL_REQUIRED and record.to_dict() != value:
            # Only reachable when the bytes spell an optional field in a way
            # the model would not (SPEC §4.1: one record, one encoding).
            raise SchemaError("schema.non_canonical_record",
                              f"{cls.SCHEMA}: bytes are not the record's canonical form")
        record._cbor = bytes(data)
        return record

    @classmethod
    def assembled(cls, cbor: bytes, **fields: Any) -> Self:
        """A record this implementation built together with its canonical bytes
        ``cbor`` (e.g. a proof written field by field): not validated, as
        ``model_construct``; the caller guarantees ``cbor == encode(fields)``."""
        record: Self = cls.model_construct(**fields)  # type: ignore[assignment]  # plugin: Record
        record._cbor = cbor
        return record

    def to_json_obj(self) -> dict[str, Any]:
        """The JSON form for people: hashes as hex, other bytes as base64."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)

    @classmethod
    def from_json_obj(cls, value: Any) -> Self:
        """Validate a JSON form (as parsed by :func:`load_json`)."""
        if not isinstance(value, dict):
            raise SchemaError("schema.type", f"{cls.SCHEMA}: JSON form is not an object")
        if value.get("schema") != cls.SCHEMA:
            raise SchemaError("schema.unknown_schema", f"expected schema {cls.SCHEMA}",
                              expected=cls.SCHEMA, actual=str(value.get("schema")))
        if _contains_null(value):
            raise SchemaError("schema.type", f"{cls.SCHEMA}: null is not a value; omit "
                              "an absent field")
        return _validate(cls, value, context={"json": True})


def _contains_null(value: Any) -> bool:
    stack = [value]
    while stack:
        node = stack.pop()
        if node is None:
            return True
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def load_json(text: str | bytes) -> Any:
    """Parse JSON for people (``por.jsontext.loads_strict``): numbers with a fraction
    become ``Decimal`` (never float); duplicate keys, NaN and deep nesting are refused."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise SchemaError("schema.json", "JSON text is not UTF-8") from None
    try:
        # The CBOR decoder's container cap, for the same reason (SPEC §17.7).
        return loads_strict(text, max_containers=MAX_JSON_CONTAINERS)
    except JsonTextError as exc:
        raise SchemaError("schema.json", str(exc)) from None


def canonical_size(record: Record, info: ValidationInfo) -> int:
    """``len(record.to_cbor())`` for a record under validation, from the bytes
    ``from_cbor`` read when they are its canonical form (the validated record dumps
    back to the decoded value, so re-encoding it would give those very bytes), else
    by encoding it: same number, one encoding fewer on the verify path (issue 22)."""
    read = info.context.get("cbor") if isinstance(info.context, dict) else None
    value = record._cbor_value()
    if read is not None and read[0] is type(record) and value == read[2]:
        return len(read[1])
    return len(encode(value))


def _validate(cls: type[M], value: Any, *, context: dict[str, Any] | None) -> M:
    # Fail fast on shape first: pydantic would materialise one error per bad
    # item of an arbitrarily long list or map (SPEC §17.2).
    precheck(cls, value)
    try:
        return cls.model_validate(value, strict=True, context=context)
    except ValidationError as exc:
        raise schema_error_from(cls.__name__, exc) from None


_KIND = {
    "missing": "schema.missing_field",
    "extra_forbidden": "schema.extra_field",
    "literal_error": "schema.enum",
}


#: Our sentence where pydantic's would read as a validator's (issue 26).
_TEXT = {"missing": "required field is missing", "extra_forbidden": EXTRA_FIELD_TEXT}


def schema_error_from(name: str, exc: ValidationError) -> SchemaError:
    """One ``SchemaError`` for the first pydantic error, with a stable check id."""
    err = exc.errors(include_url=False)[0]
    kind = err["type"]
    loc = ".".join(str(p) for p in err["loc"]) or "(record)"
    if kind == "literal_error" and not isinstance(err.get("input"), str):
        check_id = "schema.type"  # a non-text value where an enum of texts belongs
    elif kind in _KIND:
        check_id = _KIND[kind]
    elif kind.endswith("_type") or kind in {"model_type", "dataclass_type", "is_instance_of"}:
        check_id = "schema.type"
    else:
        check_id = "schema.value"
    return SchemaError(check_id, f"{name}.{loc}: {_TEXT.get(kind) or err['msg']}")


__all__ = [
    "DECIMAL_VALIDATOR",
    "JSON_ONLY_VALIDATORS",
    "Blob",
    "Bps",
    "Count",
    "DecimalStr",
    "Hash32",
    "Id",
    "Model",
    "Record",
    "UnixTime",
    "Value",
    "load_json",
    "schema_error_from",
]
