"""The PoR bundle: layout, manifest, commitments and construction (SPEC §5)."""

from por.bundle.build import BuildResult, build, build_bundle
from por.bundle.layout import (
    COMPONENT_INDEX,
    COMPONENTS,
    DEFAULT_BUNDLE_MAX_SIZE,
    Bundle,
    Commitments,
    component_leaf,
    compute_commitments,
    por_root_from_components,
)
from por.bundle.manifest import (
    AUDITOR_VERSION,
    JUDGE_VERSION,
    Manifest,
    current_manifest,
    rule_set_hash,
)
from por.bundle.sign import sign_bundle, verdict_struct

__all__ = [
    "AUDITOR_VERSION",
    "COMPONENTS",
    "COMPONENT_INDEX",
    "DEFAULT_BUNDLE_MAX_SIZE",
    "JUDGE_VERSION",
    "BuildResult",
    "Bundle",
    "Commitments",
    "Manifest",
    "build",
    "build_bundle",
    "component_leaf",
    "compute_commitments",
    "current_manifest",
    "por_root_from_components",
    "rule_set_hash",
    "sign_bundle",
    "verdict_struct",
]
