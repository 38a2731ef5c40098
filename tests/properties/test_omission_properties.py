"""Issue 12 §1: every bundle rejected by replay has a proof the challenger wins.

Family: honest audits of a *subset* of a scenario's items whose bundle commits
every item anyway (the auditor never saw the dropped ones; every step, the
header and the verdict are computed honestly from what it saw).  Full replay
rejects each such bundle; the property is that ``verify --challenges``
(``por.challenge.winning_proof`` over the report's ChallengeRefs) then finds a
proof that ``check_proof`` judges won, by itself, against the committed
``por_root``.  The forged-step family (a step's output altered, later steps
recomputed honestly) is covered by ``test_challenge_scenarios``.
"""

from __future__ import annotations

from bundle_edits import audited_on
from hypothesis import HealthCheck, assume, event, given, note, settings
from hypothesis import strategies as st
from test_verifier_differential import mutated_bundles

from por.challenge import NoProof, bundle_from_bytes, check_proof, winning_proof
from por.encoding import decode
from por.scenarios import list_scenarios, load_scenario
from verifier import check_bundle

SCENARIOS = [n for n in list_scenarios() if len(load_scenario(n).evidence.items) >= 2]


@settings(max_examples=settings().max_examples // 2)
@given(st.sampled_from(SCENARIOS), st.data())
def test_every_replay_rejected_omission_has_a_won_proof(name: str, data: st.DataObject) -> None:
    count = len(load_scenario(name).evidence.items)
    keep = sorted(data.draw(st.sets(st.integers(0, count - 1), min_size=1,
                                    max_size=count - 1)))
    note(f"{name} keep {keep}")
    blob = audited_on(name, keep).to_cbor()
    report = check_bundle(blob)
    failure = report.first_failure
    assert report.status == "rejected" and failure is not None
    assert failure.check_id.startswith("replay."), failure.check_id
    bundle = bundle_from_bytes(blob)
    refs = [c.challenge for c in report.checks if not c.ok and c.challenge is not None]
    assume(refs)
    won = [found for found in (winning_proof(bundle, ref) for ref in refs)
           if not isinstance(found, NoProof)]
    assert won, [winning_proof(bundle, ref) for ref in refs]
    proof, _ = won[0]
    # Checked again from the bytes alone, as a third party would.
    result = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
    assert (result.status, result.won, result.exit_code) == ("valid", True, 0)


@settings(max_examples=settings().max_examples * 2,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(mutated_bundles())
def test_every_replay_rejection_has_a_won_proof(blob: bytes) -> None:
    """The differential suite's mutated bundles: whenever replay rejects
    (``replay.*``: a step, the step count, the trace header or the verdict) and
    every cited evidence id is carried by a leaf, ``verify --challenges`` finds a
    proof the challenger wins.  The exception (SPEC §10.7) is a *phantom
    evidence citation*: a step citing an evidence id no leaf carries, where
    absence needs a non-membership proof (random mutations that rename items
    are still caught by the header proof).  A phantom *step* citation is
    decidable (``inclusion.prior_order``: step ids are positional)."""
    report = check_bundle(blob)
    failure = report.first_failure
    assume(failure is not None and failure.check_id.startswith("replay."))
    bundle = bundle_from_bytes(blob)
    carried = {decode(leaf).get("evidence_id") for leaf in bundle.evidence}
    assume(all(set(decode(leaf).get("evidence_ids", [])) <= carried
               for leaf in bundle.steps))
    refs = [c.challenge for c in report.checks if not c.ok and c.challenge is not None]
    won = [found for found in (winning_proof(bundle, ref) for ref in refs)
           if not isinstance(found, NoProof)]
    assert won, (failure.check_id, failure.message)
    result = check_proof(won[0][0].to_cbor(), por_root=bundle.commitments.por_root)
    assert (result.status, result.won) == ("valid", True)
    assert result.outcome is not None
    event(result.outcome.reason)
