"""Component specs: one declaration from which a committed bundle's commitments,
component leaves and top root derive (SPEC §5.3-§5.5, §15.2.5, §16.5).

A committed bundle family (PoR bundles, judgement bundles, court bundles, and
whatever comes next) declares its components once, as a :class:`BundleSpec`:
each :class:`Component` is one record (``<name>_hash``, size 1) or a list of
records (``<name>_root`` and ``<name>_count``), or a list of leaf hashes
(``<name>_root`` and ``<name>_count`` over hashes the bundle carries as given:
PoR's ``forms``, SPEC §5.4), held in a bundle field; the top root
(``por_root``, ``judgement_root``, ``court_root``) is the RFC 9162 root over the
fixed-width component leaves ``root || uint64_be(size)`` in the declared order
(docs/adr/0003).  Everything here is plain Python over bytes: the fast
verification path imports it without pydantic.

Leaves out: the wire models (pydantic ``*Commitments`` and bundle records stay
in their families' packages and are bound to a spec in
:mod:`por.container.models`), strict opening (also there) and component proofs
(:mod:`por.container.proofs`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from por.merkle import leaf_hash, root_from_leaf_hashes, root_hash

#: What a component is committed from: one record's canonical bytes, or a list of them.
RecordBytes = bytes | Sequence[bytes]


def component_leaf(root: bytes, size: int) -> bytes:
    """``root || uint64_be(size)``: the fixed-width 40-byte component leaf (SPEC §5.4)."""
    if len(root) != 32 or not 0 <= size < 2**64:
        raise ValueError("component leaf needs a 32-byte root and a 64-bit size")
    return root + size.to_bytes(8, "big")


@dataclass(frozen=True, slots=True)
class Component:
    """One committed component: its name, whether it is one record or a list, and
    the bundle field holding it (``field`` defaults to ``name``; PoR's
    ``reasoning`` component lives in the field ``steps``).  ``hashed``: the list
    holds 32-byte leaf hashes, the tree's leaves as given (no second ``LH``)."""

    name: str
    single: bool
    field: str = ""
    hashed: bool = False

    def __post_init__(self) -> None:
        if not self.field:
            object.__setattr__(self, "field", self.name)

    @property
    def root_field(self) -> str:
        """The commitment holding the component root: ``<name>_hash`` or ``<name>_root``."""
        return f"{self.name}_hash" if self.single else f"{self.name}_root"

    @property
    def count_field(self) -> str | None:
        """The commitment holding the size of a list component (``<name>_count``)."""
        return None if self.single else f"{self.name}_count"


def one(name: str, *, field: str = "") -> Component:
    """A single-record component (``<name>_hash``, size 1)."""
    return Component(name, True, field)


def many(name: str, *, field: str = "") -> Component:
    """A list component (``<name>_root`` and ``<name>_count``)."""
    return Component(name, False, field)


def hashes(name: str, *, field: str = "") -> Component:
    """A list component of leaf hashes (``<name>_root`` = MTH over the carried
    32-byte hashes taken as the tree's leaf hashes, and ``<name>_count``)."""
    return Component(name, False, field, hashed=True)


@dataclass(frozen=True)
class BundleSpec:
    """One committed bundle family: its schema, its components in committed order
    (never reorder: the order is part of the protocol) and its top root's name."""

    schema: str
    root: str
    components: tuple[Component, ...]
    index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    #: (root field, count field or None) per component: the hot path reads these.
    _pairs: tuple[tuple[str, str | None], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [c.name for c in self.components]
        if not names or len(set(names)) != len(names):
            raise ValueError(f"{self.schema}: component names must be present and unique")
        object.__setattr__(self, "index", {name: i for i, name in enumerate(names)})
        object.__setattr__(self, "_pairs",
                           tuple((c.root_field, c.count_field) for c in self.components))

    @property
    def names(self) -> tuple[str, ...]:
        """The component names, in committed order."""
        return tuple(c.name for c in self.components)

    @property
    def commitment_fields(self) -> tuple[str, ...]:
        """Every commitment field, in declared order, the top root last."""
        fields: list[str] = []
        for c in self.components:
            fields.append(c.root_field)
            if c.count_field is not None:
                fields.append(c.count_field)
        return (*fields, self.root)

    def component(self, name: str) -> Component:
        """The component called ``name`` (``KeyError`` for another name)."""
        return self.components[self.index[name]]

    def pair(self, commitments: object, name: str) -> tuple[bytes, int]:
        """(root, size) of one component as ``commitments`` states it."""
        c = self.component(name)
        root: bytes = getattr(commitments, c.root_field)
        size: int = 1 if c.count_field is None else getattr(commitments, c.count_field)
        return root, size

    def leaves(self, commitments: object) -> list[bytes]:
        """The component leaves of ``commitments``, in committed order (SPEC §5.4)."""
        return [component_leaf(getattr(commitments, root),
                               1 if count is None else getattr(commitments, count))
                for root, count in self._pairs]

    def top_root(self, commitments: object) -> bytes:
        """The top root the component values of ``commitments`` imply (its stated
        top root is not read)."""
        return root_hash(self.leaves(commitments))

    def commitments(self, records: Mapping[str, RecordBytes]) -> dict[str, bytes | int]:
        """Every commitment, top root included, from the records' canonical bytes,
        keyed by bundle field (SPEC §5.3: a single record's hash is the root of
        a one-leaf tree, so every component is a (root, size) pair)."""
        values: dict[str, bytes | int] = {}
        leaves: list[bytes] = []
        for c in self.components:
            held = records[c.field]
            if c.single:
                if not isinstance(held, bytes):
                    raise TypeError(f"{self.schema}: {c.field} is one record's bytes")
                root, size = leaf_hash(held), 1
            else:
                if isinstance(held, bytes):
                    raise TypeError(f"{self.schema}: {c.field} is a list of records")
                root = root_from_leaf_hashes(held) if c.hashed else root_hash(held)
                size = len(held)
                values[f"{c.name}_count"] = size
            values[c.root_field] = root
            leaves.append(component_leaf(root, size))
        values[self.root] = root_hash(leaves)
        return {name: values[name] for name in self.commitment_fields}

    def records(self, bundle: object) -> dict[str, RecordBytes]:
        """The component records a bundle holds, keyed by bundle field."""
        return {c.field: getattr(bundle, c.field) for c in self.components}


__all__ = [
    "BundleSpec",
    "Component",
    "RecordBytes",
    "component_leaf",
    "hashes",
    "many",
    "one",
]
