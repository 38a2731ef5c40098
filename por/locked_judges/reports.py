"""Seed 002's outputs for people: the judge manifest JSON and the replay comparison.

``judge_manifest_json`` is the seed's "Judge Manifest Output" filled from a
verified judgement (ids are hashes, never UUIDs; ``created_at`` only when the
caller passes a time).  ``compare`` is the seed's "Replay Comparison Report" as a
committed ``por.JudgeComparison/1`` record: confidences and deltas in basis
points, the change rate in basis points, never a float (SPEC §15.7).
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from por.locked_judges.verify import JudgementSummary
from por.schemas.base import Bps, Count, Hash32, Id, Model, Record
from por.schemas.verdict import Outcome

#: The seed's judge contract name, written into judge_manifest.json.
SEED_CONTRACT = "judge_contract_v0.1"


class ComparisonEntry(Model):
    """One subject under both judges (absent vote: the subject failed there)."""

    subject_id: Id
    subject_hash: Hash32
    original_rating: Outcome | None = None
    original_confidence_bps: Bps | None = None
    replay_rating: Outcome | None = None
    replay_confidence_bps: Bps | None = None
    rating_changed: bool
    confidence_delta_bps: Annotated[int, Field(ge=-10_000, le=10_000)]


class ComparisonSummary(Model):
    """Totals; ``avg_confidence_delta_bps`` truncates toward zero."""

    total_runs: Count
    rating_changes: Count
    rating_change_rate_bps: Bps
    avg_confidence_delta_bps: Annotated[int, Field(ge=-10_000, le=10_000)]
    recommendation: Annotated[str, Field(max_length=4096)]


class JudgeComparison(Record):
    """``por.JudgeComparison/1``: original vs replay judgement over the same subjects."""

    SCHEMA: ClassVar[str] = "por.JudgeComparison/1"

    record_schema: Literal["por.JudgeComparison/1"] = Field(
        "por.JudgeComparison/1", alias="schema")
    original_judgement_root: Hash32
    original_manifest_digest: Hash32
    replay_judgement_root: Hash32
    replay_manifest_digest: Hash32
    kind: Literal["judge_swap", "reexecution"]
    comparison: list[ComparisonEntry]
    summary: ComparisonSummary


def _votes(summary: JudgementSummary) -> dict[bytes, tuple[str, int]]:
    return {v.subject_hash: (v.outcome, v.confidence_bps) for v in summary.votes}


def compare(original: JudgementSummary, replay: JudgementSummary) -> JudgeComparison:
    """The comparison of two verified judgements of the *same* subjects."""
    before, after = _votes(original), _votes(replay)
    entries: list[ComparisonEntry] = []
    deltas: list[int] = []
    for subject in original.subjects:
        old, new = before.get(subject.bundle_hash), after.get(subject.bundle_hash)
        delta = (new[1] - old[1]) if old and new else 0
        if old and new:
            deltas.append(delta)
        entries.append(ComparisonEntry(
            subject_id=subject.subject_id, subject_hash=subject.bundle_hash,
            original_rating=old[0] if old else None,  # type: ignore[arg-type]
            original_confidence_bps=old[1] if old else None,
            replay_rating=new[0] if new else None,  # type: ignore[arg-type]
            replay_confidence_bps=new[1] if new else None,
            rating_changed=(old[0] if old else None) != (new[0] if new else None),
            confidence_delta_bps=delta))
    changed = [e for e in entries if e.rating_changed]
    total = len(entries)
    avg = 0
    # Integer truncation toward zero without a float: floor-divide the magnitude.
    if deltas:
        magnitude = abs(sum(deltas)) // len(deltas)
        avg = magnitude if sum(deltas) >= 0 else -magnitude
    if changed:
        names = ", ".join(e.subject_id for e in changed[:20])
        recommendation = (f"REVIEW: {len(changed)} rating change(s) detected. "
                          f"Manual review recommended for {names}.")
    else:
        recommendation = "OK: no rating change."
    kind: Literal["judge_swap", "reexecution"] = (
        "reexecution" if original.manifest.digest() == replay.manifest.digest()
        else "judge_swap")
    return JudgeComparison(
        original_judgement_root=original.judgement_root,
        original_manifest_digest=original.manifest.digest(),
        replay_judgement_root=replay.judgement_root,
        replay_manifest_digest=replay.manifest.digest(), kind=kind, comparison=entries,
        summary=ComparisonSummary(
            total_runs=total, rating_changes=len(changed),
            rating_change_rate_bps=(len(changed) * 10_000 // total) if total else 0,
            avg_confidence_delta_bps=avg, recommendation=recommendation))


#: The versioned ``schema`` of the JSON comparison report (``por schema judge-comparison``).
COMPARISON_REPORT_SCHEMA = "por/judge-comparison/1"


def comparison_json(comparison: JudgeComparison, *, original_path: str, replay_path: str,
                    original: JudgementSummary, replay: JudgementSummary,
                    history: dict[str, Any] | None) -> dict[str, Any]:
    """The seed's comparison report shape (integers and bps, never floats)."""
    body = comparison.to_json_obj()
    replay_id = hashlib.sha256(comparison.to_cbor()).hexdigest()
    return {
        "schema": COMPARISON_REPORT_SCHEMA,
        "replay_id": f"replay_{replay_id[:16]}",
        "original_judgement": {"judge_version": original.manifest.judge_version,
                               "model": original.manifest.model.version_lock,
                               "judgement_path": original_path},
        "replay_judgement": {"judge_version": replay.manifest.judge_version,
                             "model": replay.manifest.model.version_lock,
                             "judgement_path": replay_path},
        "kind": body["kind"],
        "comparison": body["comparison"],
        "summary": body["summary"],
        "replay_history": [history] if history else [],
        "record": {"schema": comparison.SCHEMA, "sha256": replay_id},
    }


def judge_manifest_json(summary: JudgementSummary, *, subject_paths: list[str],
                        created_at: int | None, operator: str | None) -> dict[str, Any]:
    """The seed's ``judge_manifest.json`` for a verified judgement."""
    manifest = summary.manifest
    report = summary.report
    return {
        "manifest_version": "0.1",
        "judgement_id": summary.judgement_root.hex(),
        "created_at": created_at,
        "judge": {
            "contract_version": SEED_CONTRACT,
            "judge_id": manifest.judge_id,
            "model": f"{manifest.model.provider}/{manifest.model.model}",
            "model_version_lock": manifest.model.version_lock,
            "weights_sha256": (manifest.model.weights_sha256.hex()
                               if manifest.model.weights_sha256 else None),
            "judge_version": manifest.judge_version,
            "manifest_digest": manifest.digest().hex(),
            "system_prompt_file": manifest.system_prompt.file,
            "system_prompt_hash": manifest.system_prompt.hash.hex(),
            "template_file": manifest.template.file,
            "template_hash": manifest.template.hash.hex(),
            "parameters": dict(manifest.parameters),
            "runtime": manifest.runtime.model_dump(mode="json", exclude_none=True),
        },
        "run_artefacts": [
            {"run_id": s.subject_id, "run_manifest_path": path,
             "bundle_hash": s.bundle_hash.hex(), "por_root": s.por_root.hex()}
            for s, path in zip(summary.subjects, subject_paths, strict=True)
        ],
        "execution": {
            "mode": "offline_batch",
            "scenarios_judged": report.judged_count,
            "failures": len(report.failed),
            "attempts": report.calls_count,
            "status": report.status,
            "fail_closed": True,
            "fail_closed_mode": report.mode,
            "operator": operator,
        },
        "judgement_file": "./judgement.cbor",
        "scores_file": "./scores.json",
        "checksums_file": "./checksums.sha256",
        "replay_metadata": None,
    }


def scores_json(summary: JudgementSummary) -> dict[str, Any]:
    """Votes for people, keyed by subject (the committed votes are in judgement.cbor)."""
    by_hash = {s.bundle_hash: s for s in summary.subjects}
    return {
        "schema": "por/judge-scores/1",
        "judgement_id": summary.judgement_root.hex(),
        "scores": [{"run_id": by_hash[v.subject_hash].subject_id,
                    "bundle_hash": v.subject_hash.hex(), "rating": v.outcome,
                    "confidence_bps": v.confidence_bps, "attempt": v.attempt}
                   for v in summary.votes],
        "failed": [{"run_id": summary.subjects[f.subject_index].subject_id,
                    "error_kind": f.error_kind, "check_id": f.check_id}
                   for f in summary.report.failed],
    }


def checksums(files: dict[str, bytes]) -> bytes:
    """``sha256sum`` format, sorted by file name."""
    return "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n"
                   for name, data in sorted(files.items())).encode()


__all__ = ["ComparisonEntry", "ComparisonSummary", "JudgeComparison", "checksums", "compare",
           "comparison_json", "judge_manifest_json", "scores_json"]
