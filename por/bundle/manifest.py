"""The pipeline manifest (SPEC §5.2): what locks a bundle to one auditor and judge.

A verifier replays a bundle only with exactly the auditor and judge versions
the manifest names; an unknown version is *unsupported* (exit 2), never
verified with another version.  ``rule_set_hash`` pins the judge's rule set.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from por import SPEC_VERSION
from por.protocol.manifest import (
    AUDITOR_VERSION,
    HASH_ALG,
    JUDGE_VERSION,
    PROFILE,
    TREE_ALG,
    rule_set_hash,
)
from por.schemas.base import Hash32, Id, Record


class Manifest(Record):
    """Versions and profiles a bundle was produced with."""

    SCHEMA: ClassVar[str] = "por.Manifest/1"

    record_schema: Literal["por.Manifest/1"] = Field("por.Manifest/1", alias="schema")
    spec_version: Id
    profile: Id
    hash_alg: Id
    tree_alg: Id
    auditor_version: Id
    judge_version: Id
    rule_set_hash: Hash32


def current_manifest() -> Manifest:
    """The manifest this implementation writes and can replay."""
    return Manifest(
        spec_version=SPEC_VERSION,
        profile=PROFILE,
        hash_alg=HASH_ALG,
        tree_alg=TREE_ALG,
        auditor_version=AUDITOR_VERSION,
        judge_version=JUDGE_VERSION,
        rule_set_hash=rule_set_hash(),
    )


__all__ = [
    "AUDITOR_VERSION",
    "HASH_ALG",
    "JUDGE_VERSION",
    "PROFILE",
    "TREE_ALG",
    "Manifest",
    "current_manifest",
    "rule_set_hash",
]
