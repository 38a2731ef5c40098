"""Plain ``__slots__`` records and the field checks they are built with.

A lean record is built from a decoded ``por-cbor/1`` map by :meth:`Struct.build`:
every key must be a field, every field a record's canonical bytes carry must be
there, and each value passes its check.  The rules are *at least* as strict as
the pydantic model of the same name (``por.schemas``), never looser:

* a field with a default other than ``None`` is required (``Record.from_cbor``
  refuses bytes that omit it: the model would dump the default back, so the
  bytes are not its canonical form);
* a field whose default is ``None`` may be absent (then ``None``) but never
  present as ``None``;
* types are exact (``type(v) is int``: a bool is not an int), bounds and
  lengths are those of the model.

Anything a lean check refuses raises :class:`Reject`, which carries no check id:
the caller hands the input to the full, pydantic verifier, which alone reports
failures with their check ids.  So "stricter than pydantic" costs only speed
on odd input, while "looser" would be a silent acceptance; the differential
tests in ``tests/unit/lean`` pin that a lean record exists only where the
pydantic model accepts the same value and holds equal attributes.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, ClassVar

from por.encoding.spans import Spans
from por.numbers import is_canonical_decimal
from por.protocol.limits import MAX_ID_LENGTH, MAX_UINT63

Check = Callable[[Any], Any]


class Reject(Exception):  # control flow to the full verifier, not an error
    """The lean path does not accept this input; the full verifier decides."""


class Struct:
    """A frozen record with the attribute names of the pydantic model it mirrors.

    ``FIELDS`` lists ``(wire key, attribute, check, optional)``; ``optional``
    means the model's default is ``None``.  Subclasses may override
    :meth:`_invariants` for the model's cross-field validators.
    """

    __slots__ = ()
    FIELDS: ClassVar[tuple[tuple[str, str, Check, bool], ...]] = ()
    KEYS: ClassVar[frozenset[str]] = frozenset()

    _HAS_INVARIANTS: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.KEYS = frozenset(key for key, _, _, _ in cls.FIELDS)
        # Most records have none: build skips the call (3 records an evidence item).
        cls._HAS_INVARIANTS = cls._invariants is not Struct._invariants

    @classmethod
    def build(cls, value: Any) -> Any:
        """The record for a decoded map, or :class:`Reject`."""
        if type(value) is not dict or not cls.KEYS.issuperset(value):
            raise Reject(cls.__name__)
        obj = object.__new__(cls)
        put = object.__setattr__
        for key, attr, check, optional in cls.FIELDS:
            if key in value:
                put(obj, attr, check(value[key]))
            elif optional:
                put(obj, attr, None)
            else:
                raise Reject(f"{cls.__name__}.{key}")
        if cls._HAS_INVARIANTS:
            obj._invariants()
        return obj

    def _invariants(self) -> None:
        """Cross-field rules of the model (its ``model_validator``s)."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __repr__(self) -> str:
        parts = ", ".join(f"{a}={getattr(self, a)!r}" for _, a, _, _ in self.FIELDS)
        return f"{type(self).__name__}({parts})"


#: A span of a bundle's bytes kept as one int, ``start << 32 | length`` (32 bytes
#: for a bundle under 256 MiB) where a ``slice`` and its two ints cost about 120
#: (issue 16).  A record or body is far shorter than 4 GiB (``DEFAULT_MAX_SIZE``).
_LENGTH_BITS = 32
_LENGTH_MASK = (1 << _LENGTH_BITS) - 1


def packed(start: int, stop: int) -> int:
    """The span ``data[start:stop]`` as one int (:func:`unpacked` reads it)."""
    if not 0 <= start <= stop or stop - start > _LENGTH_MASK:
        raise Reject("span")
    return start << _LENGTH_BITS | (stop - start)


def unpacked(data: bytes, span: int) -> bytes:
    """``data[start:stop]`` for ``span = packed(start, stop)``."""
    start = span >> _LENGTH_BITS
    return data[start : start + (span & _LENGTH_MASK)]


class CborRecord(Struct):
    """A record that travels on its own: it keeps the canonical bytes it was read
    from, or the bundle's bytes and its span in them (no copy, SPEC §5.1)."""

    __slots__ = ("_cbor", "_span")
    _cbor: bytes
    _span: int | None  # packed(start, stop) in _cbor, or None: all of _cbor

    @classmethod
    def from_value(cls, value: Any, data: bytes, span: slice | None = None) -> Any:
        """The record for ``value``, the strict decode of its canonical bytes:
        ``data``, or ``data[span]``."""
        record = cls.build(value)
        object.__setattr__(record, "_cbor", data)
        object.__setattr__(record, "_span",
                           None if span is None else packed(span.start, span.stop))
        return record

    def to_cbor(self) -> bytes:
        """The canonical bytes (those it was read from)."""
        span = self._span
        return self._cbor if span is None else unpacked(self._cbor, span)


class Leaves:
    """The leaf records of a bundle as spans of its bytes: :meth:`place` says where
    leaf ``i`` is, so it is compared where it lies and the bundle's bytes are held
    once (SPEC §5.1)."""

    __slots__ = ("_data", "_starts", "_stops")

    def __init__(self, data: bytes, spans: Spans) -> None:
        if not spans.bytes_only:
            raise Reject("leaves")
        self._data = data
        self._starts, self._stops = spans.bounds()

    def __len__(self) -> int:
        return len(self._starts)

    def place(self, index: int) -> tuple[bytes, int, int]:
        """Where leaf ``index`` is: ``(data, start, stop)``, for a comparison
        without a copy (``Step.matches``)."""
        return self._data, self._starts[index], self._stops[index]


def _sized(kind: type[str] | type[bytes], name: str, min_length: int,
           max_length: int | None) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not kind or len(value) < min_length or (
                max_length is not None and len(value) > max_length):
            raise Reject(name)
        return value
    return check


def text(min_length: int = 0, max_length: int | None = None) -> Check:
    """A ``str`` of ``min_length`` .. ``max_length`` code points."""
    return _sized(str, "text", min_length, max_length)


def integer(lo: int, hi: int) -> Check:
    """An ``int`` (not a bool) in ``lo .. hi``."""
    def check(value: Any) -> int:
        if type(value) is not int or not lo <= value <= hi:
            raise Reject("integer")
        return value
    return check


def boolean(value: Any) -> bool:
    """A ``bool``."""
    if type(value) is not bool:
        raise Reject("boolean")
    return value


def blob(min_length: int = 0, max_length: int | None = None) -> Check:
    """A byte string of ``min_length`` .. ``max_length`` bytes."""
    return _sized(bytes, "blob", min_length, max_length)


def literal(*allowed: str) -> Check:
    """One of the texts ``allowed`` (the constant itself is kept, not the decoded copy)."""
    choices = {value: value for value in allowed}

    def check(value: Any) -> str:
        if type(value) is not str or value not in choices:
            raise Reject("literal")
        return choices[value]
    return check


def _shared(check: Check, kind: type, max_entries: int) -> Check:
    """``check``, keeping one object per distinct value it accepts.

    A value of type ``kind`` equal to one this check accepted before is that
    one, without checking again: it is the same value (same exact type, so no
    ``True == 1``), so it passes again.  Bounded: the cache is emptied when
    full, so values that never repeat cost at most ``max_entries`` entries
    (~40 bytes each), whatever the bundle; a verifier of many bundles reuses it."""
    cache: dict[Any, Any] = {}

    def shared(value: Any) -> Any:
        if type(value) is kind:
            kept = cache.get(value)
            if kept is not None:
                return kept
        value = check(value)
        if len(cache) >= max_entries:
            cache.clear()
        cache[value] = value
        return value
    return shared


def shared_text(min_length: int = 0, max_length: int | None = None) -> Check:
    """:func:`text`, keeping one object per distinct value (source ids, URIs,
    requirement ids repeat from item to item)."""
    return _shared(text(min_length, max_length), str, 1 << 12)


def shared_integer(lo: int, hi: int) -> Check:
    """:func:`integer`, keeping one object per distinct value among the last few
    (a confidence above 256 costs 28 bytes an item otherwise).  An entry costs
    more than the int it saves, so the cache is small: a bundle of a few values
    shares them, one of many distinct values pays at most 64 entries."""
    return _shared(integer(lo, hi), int, 64)


def decimal_text(value: Any) -> str:
    """A canonical decimal string (SPEC §3.2)."""
    if type(value) is not str or not is_canonical_decimal(value):
        raise Reject("decimal")
    return value


def nested(cls: type[Struct]) -> Check:
    """A nested record."""
    return cls.build


def interned(cls: type[Struct], max_entries: int = 256) -> Check:
    """:func:`nested`, keeping one record per distinct value: a record whose
    attributes equal those of one already built is that one (lean records are
    frozen).  Only for records of scalar fields, each checked to one exact type
    (so equal attributes are the same values: no ``True == 1``).

    For small records that repeat across items (an item's source, its receipt):
    each repeat saves a record (~56 bytes, plus its ints), while a cache entry
    costs ~100 bytes, so the cache is small and emptied when full: records that
    never repeat cost at most ``max_entries`` entries (~25 KB), whatever the bundle."""
    key_of = operator.attrgetter(*(attr for _, attr, _, _ in cls.FIELDS))
    build = cls.build
    cache: dict[Any, Any] = {}

    def check(value: Any) -> Any:
        record = build(value)
        key = key_of(record)
        kept = cache.get(key)
        if kept is not None:
            return kept
        if len(cache) >= max_entries:
            cache.clear()
        cache[key] = record
        return record
    return check


def list_of(item: Check, min_length: int = 0, max_length: int | None = None) -> Check:
    """An array of ``min_length`` .. ``max_length`` items, each passing ``item``."""
    def check(value: Any) -> list[Any]:
        if type(value) is not list or len(value) < min_length or (
                max_length is not None and len(value) > max_length):
            raise Reject("list")
        return [item(v) for v in value]
    return check


def unique(values: list[Any]) -> None:
    """Reject a list with a repeated value."""
    if len(set(values)) != len(values):
        raise Reject("unique")


#: The field types of ``por.schemas.base`` (same bounds).
identifier = text(1, MAX_ID_LENGTH)
any_text = text()
bps = integer(0, 10_000)
unix_time = integer(0, MAX_UINT63)
count = integer(0, MAX_UINT63)
hash32 = blob(32, 32)
any_blob = blob()


def schema_tag(name: str) -> tuple[str, str, Check, bool]:
    """The ``schema`` field of a record: exactly ``name``, always present."""
    return ("schema", "record_schema", literal(name), False)


__all__ = [
    "CborRecord",
    "Leaves",
    "Reject",
    "Struct",
    "any_blob",
    "any_text",
    "blob",
    "boolean",
    "bps",
    "count",
    "decimal_text",
    "hash32",
    "identifier",
    "integer",
    "interned",
    "list_of",
    "literal",
    "nested",
    "packed",
    "schema_tag",
    "shared_integer",
    "shared_text",
    "text",
    "unique",
    "unix_time",
    "unpacked",
]
