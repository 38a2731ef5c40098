"""Benchmark: gas of the OmissionProof on chain (SPEC §10.2.4, §14.8, PorOmissionExec).

* ``check``: execution gas of ``PorOmissionExec.check`` (the committed build, revm,
  CANCUN; the call's gas less the 21 000 intrinsic and its EIP-2028 calldata cost) on
  won OmissionProofs: every (chunk or aggregate, item) pair a market audited on all its
  items but one gives (``omission.uncited_item``, the item's extract step carried), the
  position proof of those bundles (rule 3, the item itself carried), and ``bench/proofs.py``'s
  ``omitted_evidence`` class (scenario 08 over 23 items, the last one never read) as
  ``por verify --challenges`` writes it; the lost proofs of the honest bundles beside
  them; ``PorProofCheck.checkProof`` (the router) on the same won proofs.
* ``settleByProof``: the ``omitted_evidence`` lie, and scenario 08 audited on two of its
  three items (``omission.uncited_item``, the item itself carried), each proposed and
  struck by the proof ``por verify --challenges`` writes, in revm (execution and total
  gas) and, when anvil is installed (tests/chain/anvil), the receipt's ``gasUsed`` on a
  real node; baseline in the same run: the CitationProof of issue 22's reordered lie
  (``bench/gas.py``'s), settled the same way.

Usage: ``PYTHONPATH=. python bench/omission_gas.py``.  Gas is deterministic.
"""

from __future__ import annotations

import contextlib
import io
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "chain"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from bundle_edits import audited_on  # noqa: E402
from exec_support import ExecChecker, deployed_size  # noqa: E402
from proof_check_support import ProofChecker  # noqa: E402

from por.bundle.layout import Bundle  # noqa: E402
from por.challenge.omission import build_omission_proof, omissions  # noqa: E402
from por.scenarios import load_scenario  # noqa: E402

ITEMS = 23
MARKETS = ("01-boolean-observed", "08-quorum-agree", "09-conflict-invalid",
           "11-fallback-chain", "50-commodities-per-source-quorum")


def written(bundle: Bundle) -> bytes:
    """The first proof ``por verify --challenges`` writes for ``bundle``."""
    from por.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        path, out = Path(tmp) / "lie.cbor", Path(tmp) / "proofs"
        path.write_bytes(bundle.to_cbor())
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(["verify", "--challenges", str(out), str(path)])
        return sorted(out.iterdir())[0].read_bytes()


def omitted_lie() -> Bundle:
    """bench/proofs.py's ``omitted_evidence`` class over 23 items."""
    from proofs import classes, market

    lie: Bundle = classes(market(ITEMS), ITEMS)["omitted_evidence"][0]()
    return lie


def check_rows(exec_: ExecChecker, router: ProofChecker) -> None:
    won: dict[str, list[tuple[int, int, int]]] = {}
    lost: list[int] = []
    for name in MARKETS:
        count = len(load_scenario(name).evidence.items)
        for drop in range(count):
            bundle = audited_on(name, [k for k in range(count) if k != drop])
            for step, item in omissions(bundle):
                proof = bytes(build_omission_proof(bundle, step, item).to_cbor())
                ok, check_id, gas = exec_.execute(proof)
                assert ok, (name, step, item, check_id)
                _, _, routed = router.any_proof(proof)
                won.setdefault(check_id, []).append((gas, len(proof), routed))
            for item in range(len(bundle.evidence)):
                proof = bytes(build_omission_proof(bundle, count - 1, item).to_cbor())
                ok, _check_id, gas = exec_.execute(proof)
                if not ok:
                    lost.append(gas)
    for check_id, rows in sorted(won.items()):
        gases = [r[0] for r in rows]
        print(f"check, won {check_id}: {len(rows)} proofs, median {statistics.median(gases):.0f}"
              f" gas (median {statistics.median(r[1] for r in rows):.0f} bytes), max "
              f"{max(gases)}; checkProof (router) median "
              f"{statistics.median(r[2] for r in rows):.0f}")
    print(f"check, lost proofs: {len(lost)}, median {statistics.median(lost):.0f} gas")


def settle_rows(exec_: ExecChecker) -> None:
    from chain_support import settled
    from gas import _lie

    lie, dropped = omitted_lie(), audited_on("08-quorum-agree", [0, 1])
    cases = [("omitted_evidence (OmissionProof)", lie.to_cbor(), written(lie)),
             ("08 audited on 2 of 3 items (OmissionProof)", dropped.to_cbor(), written(dropped)),
             ("issue 22 reordered (CitationProof, baseline)", *_lie((1, 0, 2)))]
    for name, bundle, proof in cases:
        out = settled(bundle, proof)
        alone = exec_.execute(proof)[2] if "Omission" in name else None
        print(f"settleByProof revm, {name}: {len(proof)} bytes, execution {out.execution_gas}, "
              f"total {out.gas_used}" + (f"; check alone {alone}" if alone else ""))
    from anvil_node import ANVIL, anvil, settle_fresh

    if not ANVIL.exists():
        print("anvil: not installed (cd tests/chain/anvil && npm ci)")
        return
    for name, bundle, proof in cases:
        with anvil() as node:
            receipt = settle_fresh(node, bundle, proof)
            print(f"settleByProof anvil, {name}: gasUsed {int(receipt['gasUsed'], 16)} "
                  f"(execution {receipt['execution_gas']})")


def main() -> None:
    exec_ = ExecChecker("PorOmissionExec", entry="check(bytes)")
    print(f"PorOmissionExec deployed size: {deployed_size('PorOmissionExec')} bytes "
          "(limit 24576)")
    check_rows(exec_, ProofChecker())
    settle_rows(exec_)


if __name__ == "__main__":
    main()
