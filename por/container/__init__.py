"""One container for committed bundles (SPEC §5.5; issue 21, part 3).

A committed bundle family declares its components once (a
:class:`BundleSpec` of :class:`Component` s); commitments, component leaves,
the top root and two-level component proofs derive from that declaration
(:mod:`.spec`, :mod:`.proofs`, plain Python: the fast path imports them
without pydantic).  :mod:`.families` holds the three families of
por-cbor/1.  :class:`por.container.models.Container` binds a spec to a
family's pydantic models for assembly and strict opening; import it from
there (this package does not, so importing it stays light).
"""

from por.container.families import COURT_BUNDLE, JUDGEMENT_BUNDLE, POR_BUNDLE
from por.container.proofs import (
    ComponentProof,
    component_path,
    component_proof,
    root_from_component_path,
    root_from_component_proof,
)
from por.container.spec import (
    BundleSpec,
    Component,
    RecordBytes,
    component_leaf,
    hashes,
    many,
    one,
)

__all__ = [
    "COURT_BUNDLE",
    "JUDGEMENT_BUNDLE",
    "POR_BUNDLE",
    "BundleSpec",
    "Component",
    "ComponentProof",
    "RecordBytes",
    "component_leaf",
    "component_path",
    "component_proof",
    "hashes",
    "many",
    "one",
    "root_from_component_path",
    "root_from_component_proof",
]
