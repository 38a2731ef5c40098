"""Every executor's entry with its proof at odd calldata offsets (ADR 0013 s36: the
hand-written reads and calls use absolute calldata positions, ``proof.offset + p``).

The router ABI-encodes ``execute(bytes)``/``check(bytes)`` with the proof at 0x24; any
caller may place it elsewhere (the ABI decoder reads the offset word; no alignment is
required) and fill the gaps with anything. Each executor's answer on the same proof
must not move: here each proof (honest and forged, five step kinds and the JudgeProof)
is sent at offsets 0x20 + 1, 7, 31, 33 and 0x1000 + 3 with 0xff bytes around it, and the
answer (won, check id) must be the canonical call's, which is Python's.
"""

from __future__ import annotations

import random

from aggregate_lies import aggregates
from bundle_edits import honest
from eth_abi import decode as abi_decode
from exec_support import ExecChecker, judge_proof
from proof_check_support import BY_HASH, court_path, python_answer
from test_deduce_summary_ids import with_list
from test_judge_long_texts import _verdict_market
from test_onchain_aggregate_keys import forged
from test_onchain_check import chunks_of
from test_onchain_deduce import _deduce

from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode
from por.signing.eip712 import keccak256

SHIFTS = (1, 7, 31, 33, 0x1000 - 0x20 + 3)


def _at(chain: ExecChecker, entry: str, proof: bytes, shift: int) -> tuple[bool, str]:
    """``entry(proof)`` with the proof's length word at 4 + 0x20 + ``shift``."""
    gap = b"\xff" * shift
    data = (keccak256(entry.encode())[:4] + (0x20 + shift).to_bytes(32, "big") + gap
            + len(proof).to_bytes(32, "big") + proof + b"\xff" * 40)
    try:
        out = chain.call(data)
    except RuntimeError as exc:
        return False, court_path(str(exc))
    won, check_id, _root = abi_decode(["bool", "bytes32", "bytes32"], out)
    return bool(won), BY_HASH[check_id]


def _proofs(bundle: Bundle, rng: random.Random) -> list[tuple[str, bytes]]:
    kinds = [decode(s)["inputs"].get("kind") for s in bundle.steps]
    at = {"PorAggregateExec": aggregates(bundle)[0], "PorDeduceExec": _deduce(bundle),
          "PorCheckExec": chunks_of(bundle)[0],
          "PorContradictionsExec": kinds.index("contradictions"),
          "PorMapExec": len(bundle.steps) - 1}
    out = [(name, bytes(build_one_step_proof(bundle, i).to_cbor())) for name, i in at.items()]
    ids = decode(bundle.steps[at["PorDeduceExec"]])["evidence_ids"]
    lie = with_list(bundle, at["PorDeduceExec"], ids[::-1])
    out.append(("PorDeduceExec", bytes(build_one_step_proof(lie, at["PorDeduceExec"]).to_cbor())))
    agg, index = forged(bundle, rng)
    out.append(("PorAggregateExec", bytes(build_one_step_proof(agg, index).to_cbor())))
    out.append(("PorJudgeExec", judge_proof(bundle)))
    out.append(("PorJudgeExec", judge_proof(_verdict_market(bundle, "m-other"))))
    return out


def test_proof_at_odd_offsets() -> None:
    rng = random.Random(3706)  # noqa: S311 - seeded cases, not secrets
    chains: dict[str, ExecChecker] = {}
    seen = 0
    for market in ("08-quorum-agree", "67-two-of-three-below"):
        for name, proof in _proofs(honest(market), rng):
            entry = "check(bytes)" if name == "PorJudgeExec" else "execute(bytes)"
            chain = chains.setdefault(name, ExecChecker(name, entry))
            want = chain.execute(proof)[:2]
            if not want[1].startswith("court_path"):
                assert want == python_answer(proof), (name, want)
            for shift in SHIFTS:
                assert _at(chain, entry, proof, shift) == want, (market, name, shift)
                seen += 1
    assert seen == 2 * 9 * len(SHIFTS)
