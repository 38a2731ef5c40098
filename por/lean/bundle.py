"""Lean ``por.Bundle/2`` top-level map and its commitments (mirrors ``por.bundle.layout``).

:class:`Bundle` and :class:`Commitments` are generated from the pydantic models
into :mod:`por.lean.records_gen.bundle` (``python -m por.lean.generate``); the leaf
arrays are read by :func:`por.lean.hooks.leaves` as spans of the bundle.  The
component order, leaves and ``por_root`` come from the one component spec
(:data:`por.container.POR_BUNDLE`, SPEC §5.5); this module re-exports them for
the fast path.
"""

from __future__ import annotations

from por.container import POR_BUNDLE, component_leaf
from por.lean.hooks import leaves
from por.lean.records_gen.bundle import Bundle, Commitments

#: Component order in the por_root tree (SPEC §5.4), declared once in
#: :data:`por.container.POR_BUNDLE`.  Never reorder.
COMPONENTS: tuple[str, ...] = POR_BUNDLE.names


#: Default size cap for a whole bundle (SPEC §5.1): 256 MiB.  A bundle of 10^5
#: evidence items is about 90 MB.  Memory stays bounded by the decoder's
#: container cap; each record inside is decoded on its own under the record cap.
DEFAULT_BUNDLE_MAX_SIZE = 256 * 1024 * 1024


def component_leaves(c: object) -> list[bytes]:
    """The seven component leaves of commitments ``c`` (lean or pydantic), in
    :data:`COMPONENTS` order (derived from :data:`~por.container.POR_BUNDLE`)."""
    return POR_BUNDLE.leaves(c)


def por_root_of(c: object) -> bytes:
    """``por_root``: the RFC 9162 root over the component leaves of ``c``."""
    return POR_BUNDLE.top_root(c)


__all__ = [
    "COMPONENTS",
    "DEFAULT_BUNDLE_MAX_SIZE",
    "Bundle",
    "Commitments",
    "component_leaf",
    "component_leaves",
    "leaves",
    "por_root_of",
]
