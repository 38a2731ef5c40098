"""``por verify --challenges DIR``: write only the proofs a challenger wins.

For every ChallengeRef in a failed verification report,
``por.challenge.winning_proof`` tries the candidate proofs (most specific
first), checks each exactly as ``por check-proof`` would, and hands back the
first one the challenger wins.  Nothing else is written: a corrupted copy
(records that do not hash to its own commitments) gets
``no proof: this file is a corrupted copy; por_root is not disputed by it``,
and a bundle whose every proof is lost gets one ``no proof: ...`` line.

File names (SPEC §10.3) are ``<kind>-<16 hex digits of challenge_id>.cbor``;
the same proof is written once (for a second input it is reported as the same
file), and an existing file of that name with other bytes is never
overwritten: ``-2``, ``-3``... are appended.  Leaves out: printing (the
caller prints :attr:`ChallengeFile.line`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from por.cli.common import make_dir, safe_text, write_atomic

if TYPE_CHECKING:
    from verifier.report_form import Report


@dataclass(frozen=True)
class ChallengeFile:
    """What happened to one disputed leaf: a written proof, or why there is none."""

    path: Path | None
    line: str


def write_challenges_for_report(report: Report, bundle_bytes: bytes,
                                out_dir: str | os.PathLike[str], *,
                                max_size: int | None = None,
                                seen: dict[bytes, Path] | None = None) -> list[ChallengeFile]:
    """Write a winning proof for every ChallengeRef in ``report``'s failed checks.

    ``seen`` maps the SHA-256 of proof bytes already written (by earlier
    inputs of the same run) to their path.  ``CliError('io.write_failed')``
    (exit 2) if the directory or a file cannot be written.
    """
    import hashlib

    from por.challenge import NoProof, bundle_from_bytes, proof_file_name, winning_proof
    from por.errors import PorError
    from por.schemas.verification import ChallengeRef

    refs: list[ChallengeRef] = []
    for check in report.checks:
        # A failed check names its leaf with a ChallengeRef (the full verifier's report).
        if not check.ok and isinstance(check.challenge, ChallengeRef) and (
                check.challenge not in refs):
            refs.append(check.challenge)
    if not refs:
        return []
    try:
        bundle = bundle_from_bytes(bundle_bytes, max_size=max_size)
    except PorError as exc:
        return [ChallengeFile(None, f"no proof: the bundle does not decode ({exc.check_id});"
                                    " nothing in it can be shown against a por_root")]
    known = seen if seen is not None else {}
    results: list[ChallengeFile] = []
    for ref in refs:
        found = winning_proof(bundle, ref)
        if isinstance(found, NoProof):
            line = f"no proof: {safe_text(found.message)}"
            if all(r.line != line for r in results):
                results.append(ChallengeFile(None, line))
            if found.reason == "no_proof.corrupted_copy":
                break
            continue
        proof, checked = found
        data = proof.to_cbor()
        digest = hashlib.sha256(data).digest()
        outcome = checked.outcome
        why = "" if outcome is None else f" (challenge won: {outcome.reason})"
        if digest in known:
            if all(r.path != known[digest] for r in results):
                results.append(ChallengeFile(known[digest],
                                             f"same challenge proof {known[digest]}{why}"))
            continue
        make_dir(os.fspath(out_dir))
        path = _free_path(Path(out_dir), proof_file_name(proof), data)
        write_atomic(os.fspath(path), data)
        known[digest] = path
        results.append(ChallengeFile(path, f"wrote challenge proof {path}{why}"))
    return results


def _free_path(directory: Path, name: str, data: bytes) -> Path:
    """``name`` in ``directory``, or ``stem-2.cbor``... when another file has it."""
    stem, suffix = name.rsplit(".", 1)
    candidate = directory / name
    for n in range(2, 10_000):
        try:
            if not candidate.exists() or candidate.read_bytes() == data:
                return candidate
        except OSError:
            pass
        candidate = directory / f"{stem}-{n}.{suffix}"
    return candidate


__all__ = ["ChallengeFile", "write_challenges_for_report"]
