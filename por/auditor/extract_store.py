"""The claims of a streaming audit's extract steps, packed (issue 16: memory per item).

``audit_core(..., retain=False)`` drops each extract step once it is compared;
its later readers (``check_requirement``, ``aggregate``, ``contradictions``)
read the claims from one :class:`ExtractStore`: per item an interned *shape*
(the ``(kind, key, path)`` of each claim), the claim ids (a canonical id as its
48-bit number) and the values in flat lists.  :meth:`ExtractStore.claims`
gives them back as :class:`StoredClaim` tuples with ``Claim``'s attributes,
made per read and dropped after.  The steps that cite extract steps name them
by :func:`step_ids`: :class:`StepIds`, made when encoded or checked.
:func:`por.auditor.step_io.read_extract` reads an :class:`ExtractMemo` as it
reads the step it stands for.

Leaves out: computing claims (``claim_extraction``) and checking citations
(``step_io``).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, cast, overload

from por.auditor.claim_extraction import Claim, ClaimValue
from por.encoding import encode
from por.encoding.encoder import Fragments
from por.errors import AuditError
from por.protocol.limits import step_id as _step_id
from por.protocol.limits import step_number

if TYPE_CHECKING:
    from por.lean.trace import Step

#: ``step_io.CITATION_MISMATCH`` (step_io reads this module: not imported from there).
CITATION_MISMATCH = "step.citation_mismatch"


class ExtractStore:
    """The claims of every ``extract`` step of a streaming audit, packed (issue 16:
    memory per evidence item).

    Per item it keeps one interned *shape* (the ``(kind, key, path)`` of each
    claim: the same few tuples for every item of a requirement), and the claim
    ids and values in two flat lists; :meth:`claims` gives the item's claims
    again, as :class:`StoredClaim` tuples read like ``Claim``, when a later step
    reads them (each reader drops them when done).  ``items`` is the audit's own
    list: a read with an item that is not the one the claims were extracted from
    is a wiring error, reported as the step would report it
    (``step.citation_mismatch``)."""

    __slots__ = ("_ids", "_shapes", "_starts", "_values", "first_step", "items")

    def __init__(self, items: Sequence[Any], first_step: int) -> None:
        self.items = items
        self.first_step = first_step  # the 1-based number of item 0's extract step
        self._starts = array("q", [0])
        self._shapes: list[tuple[tuple[str, str, str], ...]] = []
        self._ids: list[int | str] = []
        self._values: list[ClaimValue] = []

    def add(self, step: Step) -> None:
        """Keep what :func:`read_extract` gives for the next item's extract ``step``
        (``extract_step`` primes it; nothing else feeds the store)."""
        position = len(self._shapes)
        memo = step._claims
        item = self.items[position]
        if memo is None or memo[0] != (item.evidence_id, item.confidence_bps) or \
                step.step_id != _step_id(self.first_step + position):
            raise ValueError(f"extract step {step.step_id} is not item {position}'s")
        ids, values, parts = self._ids, self._values, []
        for claim in memo[1]:
            parts.append((claim.kind, claim.key, claim.path))
            ids.append(_packed_id(claim.claim_id))
            values.append(claim.value)
        shape = tuple(parts)
        kept = _SHAPES.get(shape)
        if kept is None and len(_SHAPES) < _SHAPES_MAX:
            kept = _SHAPES[shape] = shape
        self._shapes.append(shape if kept is None else kept)
        self._starts.append(len(ids))

    def shape(self, position: int, item: Any) -> tuple[tuple[str, str, str], ...]:
        """``(kind, key, path)`` of each claim of item ``position``, read with ``item``."""
        if self.items[position] is not item:
            raise AuditError(CITATION_MISMATCH,
                             f"extract step {_step_id(self.first_step + position)} "
                             f"is not about {item.evidence_id}",
                             expected=item.evidence_id,
                             actual=self.items[position].evidence_id)
        return self._shapes[position]

    def claims(self, position: int, item: Any) -> tuple[Claim, ...]:
        """The claims of item ``position``, read with ``item``."""
        shape = self.shape(position, item)
        start, stop = self._starts[position], self._starts[position + 1]
        eid, confidence, new = item.evidence_id, item.confidence_bps, tuple.__new__
        # StoredClaims: read as Claims (attributes only) by every reader.
        return cast(tuple[Claim, ...], tuple([
            new(StoredClaim, (packed, kind, key, path, value, eid, confidence))
            for (kind, key, path), packed, value in zip(
                shape, self._ids[start:stop], self._values[start:stop], strict=True)]))

    def release(self) -> None:
        """Drop every claim (their last reader is done)."""
        self._starts, self._shapes, self._ids, self._values = array("q", [0]), [], [], []

    def memos(self, positions: Sequence[int]) -> ExtractMemos:
        """The extract steps of items ``positions``, as the step builders cite them."""
        return ExtractMemos(self, positions)


class StoredClaim(tuple):  # type: ignore[type-arg]
    """A :class:`Claim` as :meth:`ExtractStore.claims` gives it back: the same
    attributes, read from a tuple made in one call (a reader makes one per claim
    per item: issue 16), the claim id formatted only when read."""

    __slots__ = ()

    @property
    def claim_id(self) -> str:
        return _claim_id(self[0])

    kind = property(itemgetter(1))
    key = property(itemgetter(2))
    path = property(itemgetter(3))
    value = property(itemgetter(4))
    evidence_id = property(itemgetter(5))
    confidence_bps = property(itemgetter(6))

    def to_value(self) -> dict[str, Any]:
        """As :meth:`Claim.to_value`."""
        return {"key": self.key, "kind": self.kind, "path": self.path, "value": self.value,
                "claim_id": self.claim_id}

    def __repr__(self) -> str:
        return (f"StoredClaim(claim_id={self.claim_id!r}, kind={self.kind!r}, "
                f"key={self.key!r}, value={self.value!r}, evidence_id={self.evidence_id!r})")


def _packed_id(claim_id: str) -> int | str:
    """A claim id ``cl_`` + 12 lowercase hex digits as its number (32 bytes, not 64);
    any other text as it is."""
    digits = claim_id[3:]
    # Exactly [0-9a-f]{12}: int() alone would also take "0x", " ", "_", "+",
    # capitals and other scripts' digits, which would not come back the same.
    if len(claim_id) != 15 or claim_id[:3] != "cl_" or digits.strip(_HEX):
        return claim_id
    return int(digits, 16)


_HEX = "0123456789abcdef"


def _claim_id(packed: int | str) -> str:
    """:func:`_packed_id` undone."""
    return f"cl_{packed:012x}" if type(packed) is int else packed  # type: ignore[return-value]


#: Claim shapes, one object each (bounded: a hostile bundle of all-distinct
#: paths stops sharing, it never grows this).
_SHAPES: dict[tuple[tuple[str, str, str], ...], tuple[tuple[str, str, str], ...]] = {}
_SHAPES_MAX = 1 << 10


class ExtractMemo:
    """An ``extract`` step of a streaming audit as its later readers see it: its
    ``step_id`` and (through :func:`read_extract`) its claims, from the
    :class:`ExtractStore`.  Made when read, dropped after."""

    __slots__ = ("position", "store")

    def __init__(self, store: ExtractStore, position: int) -> None:
        self.store = store
        self.position = position

    @property
    def step_id(self) -> str:
        return _step_id(self.store.first_step + self.position)

    def claims_for(self, item: Any) -> tuple[Claim, ...]:
        """The claims of its item, read with ``item``."""
        return self.store.claims(self.position, item)


class ExtractMemos(Sequence[ExtractMemo]):
    """The extract steps of some items of an :class:`ExtractStore` (a view: one
    :class:`ExtractMemo` is made per read)."""

    __slots__ = ("positions", "store")

    def __init__(self, store: ExtractStore, positions: Sequence[int]) -> None:
        self.store = store
        self.positions = positions

    def __len__(self) -> int:
        return len(self.positions)

    @overload
    def __getitem__(self, index: int) -> ExtractMemo: ...

    @overload
    def __getitem__(self, index: slice) -> ExtractMemos: ...

    def __getitem__(self, index: int | slice) -> ExtractMemo | ExtractMemos:
        if isinstance(index, slice):
            return ExtractMemos(self.store, self.positions[index])
        return ExtractMemo(self.store, self.positions[index])

    def __iter__(self) -> Iterator[ExtractMemo]:
        store = self.store
        return (ExtractMemo(store, p) for p in self.positions)


class StepIds(Fragments):
    """The ids of some extract steps then of other steps, as :func:`step_ids`
    makes them; :meth:`numbers` gives their ``step_number`` without the texts
    (the trace policy's check of a long citation list: issue 16)."""

    __slots__ = ("numbers",)

    def __init__(self, make: Any, count: int, *, encoded: Any,
                 numbers: Callable[[], Iterable[int | None]]) -> None:
        super().__init__(make, count, depth=2, encoded=encoded)
        self.numbers = numbers


def step_ids(steps: Sequence[Any], *more: str) -> list[str] | Fragments:
    """The ids of ``steps`` and then ``more``, as a step's ``prior_step_ids``.

    For a streaming audit's extract steps (:class:`ExtractMemos`) they are
    :class:`~por.encoding.encoder.Fragments`: each id is made when the step is
    encoded or its citations are checked, never all held (issue 16: a step
    cites one extract step per evidence item)."""
    if not isinstance(steps, ExtractMemos):
        return [s.step_id for s in steps] + list(more)
    first, positions = steps.store.first_step, steps.positions

    def make() -> Iterator[str]:
        for p in positions:
            yield _step_id(first + p)
        yield from more

    def encoded() -> bytearray:  # the items' encodings, at once (no list of them)
        out = bytearray()
        for p in positions:  # ASCII texts under 24 bytes: one head byte (RFC 8949 §3.1)
            number = first + p
            if number < 10_000:  # b"i" = 0x69: a text of 9 bytes
                out += b"istep_%04d" % number
            else:
                text = b"step_%d" % number
                out += bytes((0x60 | len(text),)) + text
        for more_id in more:
            out += encode(more_id)
        return out
    def numbers() -> Iterator[int | None]:
        for p in positions:
            yield first + p
        for more_id in more:
            yield step_number(more_id)
    return StepIds(make, len(positions) + len(more), encoded=encoded, numbers=numbers)


__all__ = ["ExtractMemo", "ExtractMemos", "ExtractStore", "StepIds", "StoredClaim",
           "step_ids"]
