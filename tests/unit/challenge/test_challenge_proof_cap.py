"""One proof cap (SPEC §10.7): the library, ``verify --challenges`` and ``check-proof``.

Issue 22: a 159 MB winning one-step proof was "lost" for ``verify --challenges``
(the library's 64 MiB decoder default) and WON for ``check-proof`` (its 256 MiB
``--max-size``).  Now one constant, ``PROOF_MAX_SIZE``, is every checker's
default, and a builder whose only winning proof is over it says so
(``no_proof.too_large``) instead of calling the challenge lost.
"""

from __future__ import annotations

import argparse

import pytest
from citation_support import reordered_08

from por.challenge import PROOF_MAX_SIZE, NoProof, check_proof, records, winning_proof
from por.challenge.citations import build_citation_proof
from por.cli import common
from por.cli.challenge_cmd import add_check_proof_parser
from por.schemas.verification import ChallengeRef

CHECK = 3  # scenario 08: the check step whose citations are reordered


def test_one_constant_for_library_and_cli() -> None:
    parser = argparse.ArgumentParser()
    add_check_proof_parser(parser.add_subparsers())
    args = parser.parse_args(["check-proof", "proof.cbor"])
    assert PROOF_MAX_SIZE == 256 * 1024 * 1024  # SPEC §10.7
    assert args.max_size == common.DEFAULT_MAX_SIZE == PROOF_MAX_SIZE


def test_check_proof_default_is_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    bundle, _ = reordered_08()
    data = build_citation_proof(bundle, CHECK).to_cbor()
    root = bundle.commitments.por_root
    assert check_proof(data, por_root=root).won
    monkeypatch.setattr(records, "PROOF_MAX_SIZE", len(data) - 1)
    report = check_proof(data, por_root=root)
    assert (report.won, report.check_id) == (False, "proof.malformed")
    assert report.message.startswith("codec.too_large")
    assert check_proof(data, por_root=root, max_size=len(data)).won


def test_builder_says_too_large_not_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    bundle, _ = reordered_08()
    ref = ChallengeRef(kind="reasoning_leaf", step_id=f"step_{CHECK + 1:04d}",
                       leaf_index=CHECK)
    found = winning_proof(bundle, ref)
    assert not isinstance(found, NoProof)
    monkeypatch.setattr(records, "PROOF_MAX_SIZE", 512)  # smaller than every proof
    found = winning_proof(bundle, ref)
    assert isinstance(found, NoProof) and found.reason == "no_proof.too_large"
    assert "SPEC §10.7" in found.message
