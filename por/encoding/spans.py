"""The items of one decoded array, byte strings kept as spans of the input.

``decode(data, slices_at=d)`` returns a :class:`Spans` for every array whose
items sit at depth ``d`` (a bundle's leaf arrays, SPEC §5.1): each byte-string
item is two machine integers in an ``array('q')`` (about 16 bytes), where a
list of ``slice`` objects costs about 120 bytes an item with their two ints
(issue 16: verification memory per evidence item).  Read it like the list of
slices it stands for: ``len``, ``spans[i]`` and iteration give
``slice(start, stop)`` into ``data`` for a byte string and the value itself for
anything else, and a :class:`Spans` equals the list of those items.

An array may mix byte strings with other values (only a hostile bundle's
does): the other values are kept in a list, so nothing is lost and
:meth:`Spans.materialise` gives back exactly the array the plain decoder
returns; :attr:`Spans.bytes_only` tells the two kinds apart.

Leaves out: parsing (``por.encoding.decoder`` fills it with :meth:`Spans.add`
and :meth:`Spans.append`) and what the spans mean.
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Iterator
from typing import Any


class Spans:
    """A decoded array; byte-string items as ``(start, stop)`` pairs of the input.

    Item ``i`` is ``slice(_starts[i], _stops[i])`` when ``_starts[i] >= 0``;
    otherwise it is the other value ``_values[_stops[i]]`` (a start is an
    offset of the input, never negative)."""

    __slots__ = ("_starts", "_stops", "_values")

    def __init__(self) -> None:
        self._starts = array("q")
        self._stops = array("q")
        self._values: list[Any] | None = None

    def add(self, start: int, stop: int) -> None:
        """Append the byte string ``data[start:stop]`` (the decoder's hot path)."""
        self._starts.append(start)
        self._stops.append(stop)

    def append(self, value: Any) -> None:
        """Append any other item: a hostile array mixing kinds keeps every value."""
        values = self._values
        if values is None:
            values = self._values = []
        self._starts.append(-1)
        self._stops.append(len(values))
        values.append(value)

    @property
    def bytes_only(self) -> bool:
        """Every item is a byte string (a span)."""
        return self._values is None

    def bounds(self) -> tuple[array[int], array[int]]:
        """The starts and the stops of the items (read-only use): item ``i`` is
        ``data[starts[i]:stops[i]]`` when :attr:`bytes_only`."""
        return self._starts, self._stops

    def longest(self) -> int:
        """The length of the longest item, 0 if none (when :attr:`bytes_only`)."""
        return max(map(operator.sub, self._stops, self._starts), default=0)

    def __len__(self) -> int:
        return len(self._starts)

    def __getitem__(self, index: int) -> Any:
        start = self._starts[index]
        stop = self._stops[index]
        if start < 0:
            return self._values[stop]  # type: ignore[index]
        return slice(start, stop)

    def __iter__(self) -> Iterator[Any]:
        if self._values is None:
            return map(slice, self._starts, self._stops)
        return self._mixed()

    def _mixed(self) -> Iterator[Any]:
        values: list[Any] = self._values  # type: ignore[assignment]
        for start, stop in zip(self._starts, self._stops, strict=True):
            yield values[stop] if start < 0 else slice(start, stop)

    def materialise(self, data: bytes) -> list[Any]:
        """The array as the plain decoder returns it: each span is ``data[span]``.

        No other item is a ``slice``: the decoder slices only byte strings, and
        a byte string inside a nested container is not an item of this array."""
        return [data[item] if type(item) is slice else item for item in self]

    def __eq__(self, other: object) -> bool:
        """Equal to the list of its items (slices and values), or to a ``Spans``
        holding the same items."""
        if isinstance(other, Spans):
            return list(self) == list(other)
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like the list it replaces

    def __repr__(self) -> str:
        return f"Spans({list(self)!r})"


__all__ = ["Spans"]
