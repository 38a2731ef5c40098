"""The FormProof on chain for the VERDICT family
(``contracts/src/forms/PorFormProofVerdict.sol`` in ``PorFormFamilyVerdict``, through the
envelope ``PorFormProof``; ADR 0017 s41 addendum ``fpmap``, split in s42 ``fpsplit``).

* ``F`` VERDICT built from the verdict's CBOR leaf (``PorFormFamilyVerdict.form``) equals
  ``por.forms``' byte for byte on every fixture market's verdict, and on edits of one
  (``VERDICT_EDITS``): each valid edit has the same form on both sides, each invalid one is
  invalid on both.
* ``check(bytes)`` on a ``por.FormProof/1`` file of kind ``verdict`` answers as Python's
  ``verify_form_proof`` (won, check id): honest (lost ``form.match``), the form leaf changed
  (won ``form.mismatch``), an invalid verdict (won ``one_step.invalid_record``), tampered
  proofs (``proof.*``).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

from bundle_edits import honest, recommit
from formproof_families import family_form
from scratch_harness import SOLC
from test_forms_formproof import Edit, _drop, _set, _vals, agree, resealed

from por.bundle.layout import Bundle
from por.challenge.form_proof import build_form_proof
from por.challenge.records import FormProof
from por.encoding import decode, encode
from por.errors import PorError
from por.forms.verdict import verdict_form
from por.scenarios import list_scenarios
from por.schemas import DeterministicVerdict

pytestmark = SOLC


def chain_verdict_form(leaf: bytes) -> tuple[bool, bool, bytes]:
    """The VERDICT family contract's (valid, defined, F) of a verdict leaf."""
    return family_form("PorFormFamilyVerdict", leaf)


def python_verdict_form(leaf: bytes) -> tuple[bool, bool, bytes]:
    """Python's (valid, defined, F): ``DeterministicVerdict`` validity, then its form."""
    try:
        DeterministicVerdict.from_cbor(leaf)
    except (PorError, ValueError):
        return False, False, b""
    try:
        return True, True, verdict_form(decode(leaf))
    except PorError as exc:
        assert exc.check_id == "form.none"
        return True, False, b""


H32 = bytes(range(32))
#: Edits of a verdict: (name, edit); the answers are Python's, compared, not assumed.
VERDICT_EDITS: list[tuple[str, Edit]] = [
    *((f"outcome {v!r}", _set("outcome", v))
      for v in _vals("YES", "NO", "INVALID", "yes", "", 1, [])),
    *((f"confidence_bps {v!r}", _set("confidence_bps", v))
      for v in _vals(0, 1, 9_999, 10_000, 10_001, -1, 2**64 - 1, "5", True)),
    *((f"rule {v!r}", _set("resolution_rule_id", v))
      for v in _vals("R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_CONFIDENCE",
                     "R_INVALID_FALLBACK", "R_OTHER", "r_validity", "", 3)),
    *((f"resolution_time {v!r}", _set("resolution_time", v))
      for v in _vals(0, 1, 2**63 - 1, 2**63, 2**64 - 1, -1, "5", True)),
    ("drop resolution_time", _drop("resolution_time")),
    *((f"{k} {v!r}", _set(k, v))
      for k in ("prompt_spec_hash", "evidence_root", "reasoning_root")
      for v in _vals(H32, bytes(32), b"\xff" * 32, H32[:31], H32 + b"\x00", "x" * 32, 0)),
    *((f"{k} {v!r}", _set(k, v))
      for k in ("evidence_count", "reasoning_count")
      for v in _vals(0, 1, 2**63 - 1, 2**63, -1, "1")),
    *((f"market_id {v!r}", _set("market_id", v))
      for v in _vals("m", "é€😀" * 10, "x" * 128, "x" * 129, "😀" * 128, "😀" * 129, "", 5)),
    *((f"drop {k}", _drop(k))
      for k in ("market_id", "outcome", "confidence_bps", "resolution_rule_id",
                "prompt_spec_hash", "evidence_root", "evidence_count", "reasoning_root",
                "reasoning_count", "schema")),
    ("an extra key", _set("extra", 1)),
    ("another schema", _set("schema", "por.DeterministicVerdict/2")),
]


def edited(raw: bytes, edit: Edit) -> bytes:
    verdict: dict[str, Any] = decode(raw)
    edit(verdict)
    return encode(verdict)


def test_every_fixture_verdict_form() -> None:
    seen = 0
    for name in list_scenarios():
        raw = honest(name).verdict
        assert chain_verdict_form(raw) == (True, True, verdict_form(decode(raw))), name
        seen += 1
    assert seen >= 40, seen


def test_edited_verdict_forms() -> None:
    """Every edit of ``VERDICT_EDITS`` on two markets' verdicts (both carry
    ``resolution_time``; ``drop resolution_time`` is the form's ``O`` absent)."""
    seen: Counter[str] = Counter()
    for name in ("01-boolean-observed", "03-threshold-gt-boundary"):
        raw = honest(name).verdict
        for what, edit in VERDICT_EDITS:
            leaf = edited(raw, edit)
            py = python_verdict_form(leaf)
            assert chain_verdict_form(leaf) == py, (name, what)
            seen["form" if py[1] else "none" if py[0] else "invalid"] += 1
    assert seen["form"] > 40 and seen["invalid"] > 40, seen


def verdict_proof(bundle: Bundle) -> FormProof:
    return build_form_proof(bundle, len(bundle.forms) - 1)


def test_form_proofs_of_every_fixture_verdict() -> None:
    """Honest, three lied form leaves, an edited verdict (rotating through the edits)."""
    seen: Counter[str] = Counter()
    k = 0
    for name in list_scenarios():
        bundle = honest(name)
        seen[agree(bundle, 0, f"{name} honest", verdict_proof(bundle))] += 1
        forms = list(bundle.forms)
        for lie in (hashlib.sha256(forms[-1]).digest(), forms[-2], bytes(32)):
            forms[-1] = lie
            lied = recommit(bundle, forms=list(forms))
            seen[agree(lied, 0, f"{name} lied leaf", verdict_proof(lied))] += 1
        for _ in range(2):
            what, edit = VERDICT_EDITS[k % len(VERDICT_EDITS)]
            k += 5
            changed = recommit(bundle, verdict=edited(bundle.verdict, edit))
            seen[agree(changed, 0, f"{name} {what}", verdict_proof(changed))] += 1
    print(f"verdict formproof cases: {dict(sorted(seen.items()))}")
    assert seen["form.match"] >= 40 and seen["form.mismatch"] >= 120, seen
    assert seen["one_step.invalid_record"] >= 10, seen


def test_tampered_verdict_proofs() -> None:
    """Faults of the proof itself on the verdict (not won): each one id, Python's."""
    bundle = honest("08-quorum-agree")
    proof = verdict_proof(bundle)
    flip = bytes(x ^ 1 for x in proof.form_leaf)
    step = build_form_proof(bundle, len(bundle.forms) - 2)  # the last step's form
    cases = {
        "form_leaf": resealed(proof, form_leaf=flip),
        "form_index": resealed(proof, form_index=proof.form_index - 1),
        "a step's form": resealed(proof, form_index=step.form_index, form_leaf=step.form_leaf,
                                  form_path=step.form_path),
        "por_root": resealed(proof, por_root=flip),
        "challenge_id": FormProof.from_dict({**proof.to_dict(), "challenge_id": flip}),
    }
    ids = {what: agree(bundle, 0, what, p) for what, p in cases.items()}
    assert ids["form_leaf"] == "proof.leaf_path"
    assert ids["a step's form"] == "proof.form_index"
    assert ids["challenge_id"] == "proof.challenge_id"
