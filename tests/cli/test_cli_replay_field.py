"""Issue 26 item 5: ``verify`` says committed/recomputed and names the first
differing field of a replay mismatch.

Before: ``verify -v`` printed ``expected``/``actual`` and a replay mismatch
named only two leaf hashes; the differing field appeared only after
``--challenges`` and ``check-proof``.  The field comes from the same diff
``check-proof`` prints (``por.challenge.diffs``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from por.cli.app import main

INVALID = Path(__file__).resolve().parents[2] / "fixtures" / "bundles" / "invalid"
CASES = [
    ("replay.step_mismatch/altered-output-rehashed.cbor", "description", '"forged"',
     '"extract 2 claim(s) from ev-acme-newsroom"'),
    ("replay.trace_header/forged-trace-id-rehashed.cbor", "trace_id", '"trace_forged"',
     '"trace_51eb6ebbebc8deaa"'),
    ("replay.verdict_mismatch/flipped-outcome-rehashed.cbor", "outcome", '"NO"', '"YES"'),
    ("replay.verdict_mismatch/confidence-rehashed.cbor", "confidence_bps", "10000", "7000"),
]


@pytest.mark.parametrize(("name", "field", "committed", "recomputed"), CASES,
                         ids=[case[0].split("/")[0] for case in CASES])
def test_replay_mismatch_names_the_first_differing_field(
        name: str, field: str, committed: str, recomputed: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(INVALID / name)
    assert main(["verify", path]) == 1
    line = capsys.readouterr().out
    assert (f": first differing field {field}: committed {committed}, "
            f"recomputed {recomputed}") in line
    assert main(["verify", "--json", path]) == 1
    [result] = json.loads(capsys.readouterr().out)["results"]
    failure = next(c for c in result["checks"] if c["status"] == "failed")
    assert failure["id"] == name.split("/", maxsplit=1)[0]
    assert failure["details"] == {"field": field, "committed": committed,
                                  "recomputed": recomputed}
    assert len(failure["committed"]) == len(failure["recomputed"]) == 64  # leaf hashes


def test_verbose_says_committed_and_recomputed(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(INVALID / "commit.evidence_root" / sorted(
        p.name for p in (INVALID / "commit.evidence_root").glob("*.cbor"))[0])
    assert main(["verify", "-v", path]) == 1
    out = capsys.readouterr().out
    assert "\n          committed  " in out and "\n          recomputed " in out
    assert "expected" not in out and "actual" not in out
    assert main(["verify", "--json", path]) == 1
    [result] = json.loads(capsys.readouterr().out)["results"]
    for check in result["checks"]:
        assert "expected" not in check and "actual" not in check
        assert {"committed", "recomputed"} <= set(check)
