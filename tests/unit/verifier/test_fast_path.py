"""The fast path (``verifier.fast``) and the full verifier give one answer.

The fast path may only say "verified"; when it does, the full verifier must
say the same with the same report.  Pinned on every example market, every
fixture bundle (valid, and each invalid one: the fast path must step aside),
every single-byte change of a small bundle, and edits with every commitment
recomputed (what an attacker can make), so that a hole in a lean check or in
the byte comparisons shows up as an acceptance the full path refuses.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from bundle_edits import UNSIGNED_OPTIONS as OPTIONS
from bundle_edits import honest, paths_agree, recommit

from por.bundle import current_manifest
from por.protocol.manifest import manifest_bytes
from por.scenarios import list_scenarios
from por.schemas import EvidenceItem, PromptSpec
from por.signing.policy import TrustPolicy
from verifier.fast import fast_report
from verifier.full import check_full
from verifier.stages import Handoff

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "bundles"

_agree = paths_agree


def test_manifest_bytes_are_the_current_manifest() -> None:
    assert manifest_bytes() == current_manifest().to_cbor()


@pytest.mark.parametrize("name", list_scenarios())
def test_every_example_market_takes_the_fast_path(name: str) -> None:
    data = honest(name).to_cbor()
    assert fast_report(data, OPTIONS) is not None
    assert _agree(data) == "verified"


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*/*.cbor")), ids=lambda p: p.name)
def test_fixture_bundles(path: Path) -> None:
    data = path.read_bytes()
    status = _agree(data)
    if "invalid" in path.parts:
        assert fast_report(data, OPTIONS) is None
        assert status != "verified"


def test_signed_or_required_signature_goes_to_the_full_path() -> None:
    data = honest("01-boolean-observed").to_cbor()
    assert fast_report(data, replace(OPTIONS, trust=TrustPolicy(require_signature=True))) is None
    signed = sorted(FIXTURES.glob("valid/*signed*.cbor"))
    for path in signed:
        assert fast_report(path.read_bytes(), OPTIONS) is None


def test_every_single_byte_change() -> None:
    data = honest("01-boolean-observed").to_cbor()
    buf = bytearray(data)
    for offset in range(len(buf)):
        original = buf[offset]
        buf[offset] = original ^ 0x01
        assert fast_report(bytes(buf), OPTIONS) is None, offset
        buf[offset] = original


def _edit_item(item: EvidenceItem, **changes: object) -> bytes:
    return EvidenceItem.model_validate({**item.model_dump(), **changes}).to_cbor()


@pytest.mark.parametrize("name", ["03-threshold-gt-boundary", "08-quorum-agree",
                                  "11-fallback-chain", "14-html-regex"])
def test_recommitted_edits(name: str) -> None:
    """Consistent commitments, wrong content: the fast path must step aside."""
    bundle = honest(name)
    items = [EvidenceItem.from_cbor(b) for b in bundle.evidence]
    spec = PromptSpec.from_cbor(bundle.prompt_spec)
    edits = [
        {"evidence": [_edit_item(items[0], confidence_bps=items[0].confidence_bps // 2),
                      *bundle.evidence[1:]]},
        {"evidence": [_edit_item(items[0], content=items[0].content + b" "),
                      *bundle.evidence[1:]]},
        {"evidence": list(bundle.evidence[1:])},
        {"evidence": list(reversed(bundle.evidence))},
        {"steps": list(bundle.steps[:-1])},
        {"steps": [*bundle.steps[:1], bundle.steps[0], *bundle.steps[2:]]},
        {"prompt_spec": spec.model_copy(update={"timestamp_slack_seconds": 7}).to_cbor()},
    ]
    for edit in edits:
        data = recommit(bundle, **edit).to_cbor()
        assert _agree(data) != "verified" or fast_report(data, OPTIONS) is not None


@pytest.mark.parametrize("key", ["schema", "manifest", "verdict", "evidence", "extra"])
def test_handoff_gives_the_same_report(key: str) -> None:
    """Found by review: spans left in a non-leaf array changed a failure message."""
    from por.encoding import decode, encode

    raw = decode(honest("01-boolean-observed").to_cbor())
    for value in ([b"x"], [b"x", 1, [b"y"]], [[b"z"]]):
        data = encode({**raw, key: value})
        handoff = Handoff()
        assert fast_report(data, OPTIONS, handoff) is None
        assert check_full(data, OPTIONS, handoff) == check_full(data, OPTIONS)


@pytest.mark.parametrize("value", [[[b"x"], b"y"], [[b"x", 1, [b"y"]], []], [b"x"], b"x", 7])
def test_handoff_of_a_top_level_non_map(value: object) -> None:
    """The handoff of any decoded value is the plain decode: leaf arrays are
    ``Spans`` under the top-level array too, not only under the top-level map."""
    from por.encoding import decode, encode
    from verifier.fast import _materialised

    data = encode(value)
    handoff = Handoff()
    assert fast_report(data, OPTIONS, handoff) is None
    assert handoff.decoded is not None
    assert handoff.decoded.value == decode(data) == value
    assert _materialised(data, decode(data, slices_at=2)) == value
    assert check_full(data, OPTIONS, handoff) == check_full(data, OPTIONS)


@pytest.mark.parametrize("name", ["01-boolean-observed", "08-quorum-agree"])
def test_leaf_arrays_are_spans(name: str) -> None:
    """The fast path holds leaves as ``Spans`` (two ints each), not lists of
    slices; handed to the full path they are the plain decode again."""
    from por.encoding import decode
    from por.encoding.spans import Spans
    from por.lean.bundle import Bundle as LeanBundle
    from verifier.fast import _materialised

    data = honest(name).to_cbor()
    raw = decode(data, slices_at=2)
    bundle = LeanBundle.build(raw)
    for leaves in (bundle.evidence, bundle.steps, bundle.signatures):
        assert type(leaves) is Spans and leaves.bytes_only
    assert len(bundle.evidence) > 0 and len(bundle.steps) > 0
    assert _materialised(data, raw) == decode(data)
