"""Shared pieces of the fuzz harnesses (issue 11): seeds, rebuilds, invariants.

Each harness module defines ``check(data: bytes) -> None``, which raises
``AssertionError`` (or any unexpected exception) when an invariant breaks, and
a ``main()`` that hands ``check`` to atheris (coverage-guided, libFuzzer).
``check`` itself needs no atheris, so ``tests/unit/hostile/test_fuzz_corpus.py``
replays the committed corpus and every past crash (``fuzz/regressions/``)
through it in the ordinary test suite.

Invariants, per harness:
* decode: only ``EncodingError``; an accepted input re-encodes to itself.
* bundle: ``check_bundle`` never raises and never reports ``internal.error``;
  ``error`` only for an unsupported version or a missing time; a mutant that
  verifies is byte-identical to an honest build of its own committed inputs.
* build: an honest build of any evidence either refuses with a ``PorError``
  (one line) or produces a bundle that verifies.
* proof: ``check_proof`` never raises; against an honest bundle's por_root a
  verified inclusion proof names a leaf the bundle commits, and no one-step or
  bundle challenge is upheld.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

VALID = ROOT / "fixtures" / "bundles" / "valid"
#: Scenarios the harnesses draw from (small, and covering JSON, HTML and quorum paths).
SCENARIOS = ("01-boolean-observed", "08-quorum-agree", "09-conflict-invalid",
             "11-fallback-chain", "14-html-regex")
ALLOWED_ERRORS = ("manifest.unsupported_", "signature.no_time")
SLOTS = ("manifest", "prompt_spec", "evidence", "trace_header", "steps", "verdict")
CONTENT_TYPES = ("application/json", "text/html", "text/plain")


@functools.cache
def seed_bundle(index: int) -> Any:
    from por.bundle import Bundle

    name = SCENARIOS[index % len(SCENARIOS)]
    return Bundle.from_cbor((VALID / f"{name}.cbor").read_bytes())


def rebuild(bundle: Any, **parts: Any) -> bytes:
    """``bundle`` with records replaced; commitments and, when the verdict still
    decodes, its references recomputed, so a mutant reaches replay."""
    from por.bundle import compute_commitments, with_forms
    from por.errors import PorError
    from por.schemas import DeterministicVerdict

    records = {k: getattr(bundle, k) for k in SLOTS}
    records.update(parts)
    c = compute_commitments(**records)
    try:
        verdict = DeterministicVerdict.from_cbor(records["verdict"])
        records["verdict"] = verdict.model_copy(update={
            "prompt_spec_hash": c.prompt_spec_hash, "evidence_root": c.evidence_root,
            "evidence_count": c.evidence_count, "reasoning_root": c.reasoning_root,
            "reasoning_count": c.reasoning_count}).to_cbor()
        c = compute_commitments(**records)
    except PorError:
        pass
    records = with_forms({**records, "forms": parts.get("forms")})
    c = compute_commitments(**records)
    return bundle.model_copy(update={**records, "commitments": c}).to_cbor()


def assert_report_sound(data: bytes, report: Any) -> None:
    """The verifier's invariants over one (possibly hostile) bundle."""
    failure = report.first_failure
    if report.status == "verified":
        assert failure is None
        assert_honest(data)
        return
    assert failure is not None, "a non-verified report names its failure"
    shown = (report.status, failure.check_id, failure.message)
    assert failure.check_id != "internal.error", shown
    if report.status == "error":
        assert failure.check_id.startswith(ALLOWED_ERRORS), shown
    else:
        assert report.status == "rejected", shown


def assert_honest(data: bytes) -> None:
    """A verified bundle is exactly what an honest build of its inputs gives."""
    from por.bundle import Bundle, build_bundle
    from por.schemas import EvidenceBundle, EvidenceItem, PromptSpec

    bundle = Bundle.from_cbor(data)
    spec = PromptSpec.from_cbor(bundle.prompt_spec)
    items = [EvidenceItem.from_cbor(blob) for blob in bundle.evidence]
    evidence = EvidenceBundle(bundle_id="fuzz", market_id=spec.market.market_id, items=items)
    rebuilt = build_bundle(spec, evidence)
    unsigned = bundle.model_copy(update={"signatures": []}).to_cbor()
    assert unsigned == rebuilt, "a verified bundle differs from an honest build"


def run_atheris(check: Any) -> None:
    """Hand ``check`` to atheris with the process arguments (libFuzzer flags)."""
    import atheris  # the `fuzz` extra; imported here so `check` works without it

    atheris.Setup(sys.argv, check)
    atheris.Fuzz()
