"""Benchmark: gas of PorVerdictRegistry's calls (propose, challenge, ruling
settlement, finalize, withdraw) and of its two-level inclusion check, beside the
bare precompile costs, measured in one EVM run.

Runs the committed contract artifact (contracts/build) in revm (pyrevm, the
test extra) with CANCUN rules, and reports *execution gas*: the gas a call
used minus the 21 000 intrinsic and its EIP-2028 calldata cost (both paid by
any transaction, whatever the contract does); the total is shown beside it.

* proposeVerdict: a verdict signed by the test-only key for every demo bundle
  (fixtures/bundles/valid), each into a fresh market (three new storage slots)
  by a registered signer, with the proposer's bond;
* a game (SPEC §14.4) on anvil (tests/chain/anvil, when installed; the gas of
  its receipts) on a market of 1 000 evidence leaves: proposeVerdict, three
  openChallenge (inclusion, two new slots), a rejecting and an upholding
  submitRuling (ecrecover, credits, the strike), closeMoot, withdraw, the
  struck market's re-proposal (next round: archives the struck root, SPEC §14.2),
  and finalize of an unchallenged verdict after its window;
* ecrecover: a bare call of precompile 0x01 on the same digest and signature;
* checkInclusion: an evidence leaf of 300 bytes (about an EvidenceItem) at
  index 0 of trees of 10^1 .. 10^6 leaves (index 0 has the longest path,
  ceil(log2 n) hashes) plus the 3-hash component path; the tree's other
  nodes are fixed pseudo-random hashes, which give the contract the same work
  as a built tree (any sibling hashes define some tree of that size);
* sha256: a bare call of precompile 0x02 on a 65-byte node input (one level),
  a 41-byte component leaf and the 301-byte leaf input; "bare" for a proof is
  their sum over its levels: the precompile work without the contract.

* checkCitationProof (PorProofCheck, SPEC §14.8): CitationProofs of every step of
  every fixture market carrying no item, one cited item and two adjacent cited
  items (the median is "typical"), and the largest in the run; "bare" is the
  sha256 precompile work of their inclusion levels and challenge ids alone.
* settleByProof (SPEC §14.4): issue 22's lying bundles (scenario 08, citations
  reordered; one repeated) proposed, then struck by the CitationProof ``por verify
  --challenges`` writes, in revm and in the anvil game, beside checkCitationProof
  of the same proof alone (the registry's part is the difference: the external
  call, copying the proof, the strike's storage writes); and a bundle whose map
  step is forged (tests/chain/map_lies.py), struck by its OneStepProof, which the
  registry re-executes (checkProof on the honest map step of every fixture market
  beside it). In the anvil game also ``settleByForms``: scenario 08's forged deduce
  step struck by its FormStepProof (``bench/registry_gas.py``'s forms rows have all
  four classes).

Usage: ``PYTHONPATH=. python bench/gas.py [--json]``.  Gas is deterministic:
the same code and inputs give the same numbers on any machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "chain"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))  # registry_gas, when loaded by path (a test)

SIZES = [10**k for k in range(1, 7)]
LEAF = bytes(range(256)) + b"por-evidence" * 3 + b"xxxx"  # 300 bytes
ECRECOVER = "0x" + "00" * 19 + "01"
SHA256 = "0x" + "00" * 19 + "02"


#: SPEC §14.6 targets (issue 24 item 7), execution gas.
TARGETS = {"proposeVerdict": 90_000, "openChallenge": 120_000, "settleByProof": 300_000,
           "settleByForms": 300_000}


def submit_gas() -> dict[str, Any]:
    from chain_support import DEMO_BUNDLES, TEST_ONLY_SECRET, Chain, address_of, register_bundle

    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    runs = []
    bundles = sorted(p for p in DEMO_BUNDLES.glob("*.cbor") if ".signed-" not in p.name)
    for path in bundles:
        register_bundle(chain, path.read_bytes())
        runs.append(chain.last)
    execution = [r.execution_gas for r in runs]
    return {"calls": len(runs), "execution_min": min(execution), "execution_max": max(execution),
            "total_max": max(r.gas_used for r in runs), "calldata_bytes": len(runs[0].calldata),
            "ecrecover_bare": _ecrecover_bare(chain, runs[0].calldata)}


def _ecrecover_bare(chain: Any, submit: bytes) -> int:
    from chain_support import VERDICT_TUPLE
    from eth_abi import decode

    words, _path, _signer, signature = decode([VERDICT_TUPLE, "bytes32[]", "address", "bytes"],
                                              submit[4:])
    digest = chain.call("verdictDigest", words)
    data = digest + signature[64].to_bytes(32, "big") + signature[:64]
    gas: int = chain.send(data, to=ECRECOVER).execution_gas
    return gas


def game_gas() -> dict[str, int] | None:
    """Execution gas of each call of a dispute game (SPEC §14.4) on anvil, or None
    without it.  A real node, because pyrevm keeps one journal across calls: a slot
    touched by an earlier call stays warm and its writes dirty, so a later call on
    the same market would read low there."""
    import hashlib

    from anvil_node import ANVIL, anvil, deploy
    from chain_support import (
        CHAIN_ID,
        CHALLENGER_BOND,
        PROPOSER_BOND,
        WINDOW,
        bundle_proposal,
        call_data,
        key_of,
        propose_data,
        ruling_calldata,
        synthetic_verdict,
    )

    from por.chain import challenge_id, leaf_id, open_challenge_calldata
    from por.chain.calldata import proof_commitment
    from por.merkle import leaf_hash

    if not ANVIL.exists():
        return None
    gas: dict[str, int] = {}
    case = [hashlib.sha256(b"case %d" % n).digest() for n in range(3)]
    with anvil() as node:
        registry, accounts = deploy(node)
        contract = bytes.fromhex(registry[2:])
        oracle, first, second = accounts[1], accounts[2], accounts[3]

        def measure(name: str, sender: str, data: bytes, value: int = 0) -> None:
            gas[name] = node.send(sender, registry, data, value)["execution_gas"]

        words, proof = synthetic_verdict("evidence_leaf", 1000, 0, LEAF, nonce=100)
        market, leaf = key_of(words), (2, 0, leaf_hash(LEAF))
        measure("proposeVerdict", oracle, propose_data(words, CHAIN_ID, contract), PROPOSER_BOND)
        for name, sender, n in (("openChallenge (first)", first, 0),
                                ("openChallenge (second)", second, 1),
                                ("openChallenge (third)", oracle, 2)):
            measure(name, sender, open_challenge_calldata(market, case[n], proof),
                    CHALLENGER_BOND)
        measure("submitRuling (rejected)", first, ruling_calldata(
            contract, market, leaf, challenger=second, case=case[1], upheld=False))
        measure("submitRuling (upheld: strike)", first, ruling_calldata(
            contract, market, leaf, challenger=first, case=case[0], upheld=True))
        moot = challenge_id(leaf_id(market, 2, 0), leaf[2], bytes.fromhex(oracle[2:]), case[2])
        measure("closeMoot", oracle, call_data("closeMoot", moot))
        measure("withdraw", first, call_data("withdraw"))
        again, _proof = synthetic_verdict("evidence_leaf", 1000, 0, LEAF, nonce=102, round_=1,
                                          market=words[0])
        measure("proposeVerdict (after a strike)", oracle,
                propose_data(again, CHAIN_ID, contract), PROPOSER_BOND)
        words, _proof = synthetic_verdict("evidence_leaf", 1000, 0, LEAF, nonce=101)
        node.send(oracle, registry, propose_data(words, CHAIN_ID, contract), PROPOSER_BOND)
        node.advance(WINDOW)
        measure("finalize", second, call_data("finalize", key_of(words)))
        lie, proof_bytes = _lie((1, 0, 2))
        market, propose = bundle_proposal(lie, CHAIN_ID, contract)
        node.send(oracle, registry, propose, PROPOSER_BOND)
        measure("commitProof", first, call_data("commitProof", proof_commitment(
            market, proof_bytes, bytes.fromhex(first[2:]))))
        measure("settleByProof (issue 22 lie)", first,
                call_data("settleByProof", market, proof_bytes))
        lie, proof_bytes = _map_lie()
        market, propose = bundle_proposal(lie, CHAIN_ID, contract)
        node.send(oracle, registry, propose, PROPOSER_BOND)
        node.send(first, registry, call_data("commitProof", proof_commitment(
            market, proof_bytes, bytes.fromhex(first[2:]))))
        measure("settleByProof (forged map step)", first,
                call_data("settleByProof", market, proof_bytes))
        from registry_gas import forms_cases

        for name, make in forms_cases():  # the deduce step's FormStepProof (SPEC §14.4)
            if name.startswith("deduce"):
                lie, kind, args = make()
                # scenario 08's market id under its own PromptSpec: a market key of its
                # own (SPEC §14.2), round 0
                market, propose = bundle_proposal(lie, CHAIN_ID, contract)
                node.send(oracle, registry, propose, PROPOSER_BOND)
                node.send(first, registry, call_data("commitProof", proof_commitment(
                    market, kind + args, bytes.fromhex(first[2:]))))
                measure("settleByForms (forged deduce step)", first,
                        call_data("settleByForms", market, kind, args))
    return gas


def _map_lie() -> tuple[bytes, bytes]:
    """A bundle whose map step is forged (tests/chain/map_lies.py) and the won
    OneStepProof of that step, the one ``por verify --challenges`` writes."""
    from map_lies import lying_map

    from por.challenge.one_step import build_one_step_proof

    _honest, bundle = lying_map()
    return bundle.to_cbor(), build_one_step_proof(bundle, len(bundle.steps) - 1).to_cbor()


def _lie(order: tuple[int, ...]) -> tuple[bytes, bytes]:
    """Issue 22's lying bundle (citation_support) and its won CitationProof, the one
    ``por verify --challenges`` writes (build_citation_proof of the first fault)."""
    sys.path.insert(0, str(ROOT / "tests" / "unit" / "challenge"))
    from citation_support import reordered_08

    from por.challenge import build_citation_proof, citation_faults

    bundle, _outcome = reordered_08(order)
    proof = build_citation_proof(bundle, citation_faults(bundle)[0]).to_cbor()
    return bundle.to_cbor(), proof


def settle_gas() -> list[dict[str, Any]]:
    """settleByProof in revm on issue 22's lies, beside checkCitationProof alone."""
    from chain_support import settled
    from proof_check_support import ProofChecker

    from por.encoding import decode

    checker = ProofChecker()
    rows = []
    for name, order in (("reordered", (1, 0, 2)), ("repeated", (0, 0, 1, 2))):
        lie, proof = _lie(order)
        out = settled(lie, proof)
        won, check_id, alone = checker.citation(proof)
        assert won
        rows.append({"lie": name, "won": check_id, "items": len(decode(proof)["extract_steps"]),
                     "proof_bytes": len(proof), "execution": out.execution_gas,
                     "check_alone": alone, "total": out.gas_used})
    lie, proof = _map_lie()
    out = settled(lie, proof)
    won, check_id, alone = checker.any_proof(proof)
    assert won
    rows.append({"lie": "map step", "won": check_id, "items": len(decode(proof)["evidence"]),
                 "proof_bytes": len(proof), "execution": out.execution_gas,
                 "check_alone": alone, "total": out.gas_used})
    return rows


def step_check_gas() -> dict[str, Any]:
    """Execution gas of PorProofCheck.checkProof on the honest map step's OneStepProof
    of every fixture market (SPEC §14.8: lost one_step.match, the full re-execution)."""
    from bundle_edits import honest
    from proof_check_support import ProofChecker

    from por.challenge.one_step import build_one_step_proof
    from por.scenarios import list_scenarios

    chain = ProofChecker()
    found = []
    for name in list_scenarios():
        bundle = honest(name)
        proof = build_one_step_proof(bundle, len(bundle.steps) - 1).to_cbor()
        _won, _id, gas = chain.any_proof(proof)
        found.append((gas, len(proof)))
    found.sort()
    gas, size = found[len(found) // 2]
    return {"proofs": len(found), "median": gas, "median_bytes": size, "max": found[-1][0],
            "max_bytes": max(f[1] for f in found)}


def inclusion_gas() -> list[dict[str, Any]]:
    from chain_support import TEST_ONLY_SECRET, Chain, address_of, synthetic_market

    from por.chain import check_inclusion_calldata

    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    node = chain.send(b"\x01" + bytes(range(64)), to=SHA256).execution_gas
    component = chain.send(b"\x00" + bytes(range(40)), to=SHA256).execution_gas
    leaf = chain.send(b"\x00" + LEAF, to=SHA256).execution_gas
    rows = []
    for nonce, size in enumerate(SIZES):
        market, proof = synthetic_market(chain, "evidence_leaf", size, 0, LEAF, nonce=nonce)
        out = chain.send(check_inclusion_calldata(market, proof))
        levels = len(proof.leaf_path) + len(proof.component_path)
        bare = leaf + component + levels * node
        rows.append({"leaves": size, "leaf_path": len(proof.leaf_path),
                     "component_path": len(proof.component_path),
                     "execution": out.execution_gas, "bare_sha256": bare,
                     "total": out.gas_used, "calldata_bytes": len(out.calldata)})
    return [{"sha256_node_bare": node, "sha256_component_leaf_bare": component,
             "sha256_leaf_bare": leaf}, *rows]


def proof_check_gas() -> dict[str, Any]:
    """Execution gas of PorProofCheck.checkCitationProof on fixture-market proofs
    (``items_k``: carrying the extract steps of k cited items)."""
    from bundle_edits import honest
    from proof_check_support import ProofChecker, citation_proof

    from por.encoding import decode
    from por.scenarios import list_scenarios

    chain = ProofChecker()
    rows: dict[int, list[tuple[int, int, int]]] = {0: [], 1: [], 2: []}
    for name in list_scenarios():
        bundle = honest(name)
        first = {decode(leaf)["evidence_id"]: i for i, leaf in reversed(
            list(enumerate(bundle.evidence)))}
        for step in range(len(bundle.steps)):
            cited = [first[e] for e in decode(bundle.steps[step])["evidence_ids"]]
            for items in ([], cited[:1], cited[:2]):
                proof = citation_proof(bundle, step, items)
                _won, _id, gas = chain.citation(proof)
                levels = sum(len(p["leaf_path"]) + len(p["component_path"])
                             for p in [decode(proof)["step"], *decode(proof)["extract_steps"]])
                rows[len(items)].append((gas, len(proof), levels))
    node = 60 + 12 * 3  # sha256 precompile: 60 + 12 per 32-byte word (65 bytes: 3 words)
    out: dict[str, Any] = {}
    for count, found in rows.items():
        found.sort()
        gas, size, levels = found[len(found) // 2]
        out[f"items_{count}"] = {"proofs": len(found), "median": gas, "max": found[-1][0],
                                 "median_bytes": size, "max_bytes": max(r[1] for r in found),
                                 "bare_sha256_levels": levels * node}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    submit = submit_gas()
    game = game_gas()
    bare, *rows = inclusion_gas()
    proofs = proof_check_gas()
    settles = settle_gas()
    steps = step_check_gas()
    if args.json:
        print(json.dumps({"schema": "por/bench-gas/4", "proposeVerdict": submit, "game": game,
                          "targets": TARGETS, "precompiles": bare, "checkInclusion": rows,
                          "checkCitationProof": proofs, "checkProof (map)": steps,
                          "settleByProof": settles}, indent=2))
        return 0
    print("proposeVerdict in revm (execution gas; total = + 21000 intrinsic + calldata)")
    print(f"  {submit['calls']} demo verdicts: {submit['execution_min']}..{submit['execution_max']}"
          f" (target <= {TARGETS['proposeVerdict']}; total <= {submit['total_max']}, "
          f"{submit['calldata_bytes']} calldata bytes)")
    print(f"  bare ecrecover precompile: {submit['ecrecover_bare']}")
    print()
    if game is None:
        print("dispute game: skipped, anvil absent (cd tests/chain/anvil && npm ci)")
    else:
        print("dispute game on anvil, 1 000-leaf evidence tree (execution gas from receipts)")
        for name, value in game.items():
            target = TARGETS.get(name.split(" ")[0])
            print(f"  {name:<31} {value:>7}" + (f"  (target <= {target})" if target else ""))
        print(f"  bare: ecrecover {submit['ecrecover_bare']}; sha256 {bare['sha256_node_bare']} "
              f"per level x {rows[2]['leaf_path'] + rows[2]['component_path']} levels + "
              f"{bare['sha256_leaf_bare'] + bare['sha256_component_leaf_bare']} (leaf, "
              f"component leaf) = {rows[2]['bare_sha256']}")
    print()
    print("checkInclusion, 300-byte leaf at index 0 (execution gas)")
    print(f"  bare sha256 precompile: node (65 B) {bare['sha256_node_bare']}, component leaf "
          f"(41 B) {bare['sha256_component_leaf_bare']}, leaf (301 B) {bare['sha256_leaf_bare']}")
    print(f"  {'leaves':>9} {'path':>4} {'+comp':>5} {'execution':>9} {'bare sha256':>11}"
          f" {'per level':>9} {'total':>7}")
    first = rows[0]
    for row in rows:
        levels = row["leaf_path"] - first["leaf_path"]
        per = (row["execution"] - first["execution"]) // levels if levels else 0
        print(f"  {row['leaves']:>9} {row['leaf_path']:>4} {row['component_path']:>5}"
              f" {row['execution']:>9} {row['bare_sha256']:>11} {per or '':>9} {row['total']:>7}")
    print()
    print("checkCitationProof, every step of every fixture market (execution gas)")
    for key, row in proofs.items():
        print(f"  {key[6:]} item(s): {row['proofs']} proofs, median {row['median']} "
              f"({row['median_bytes']} B), max {row['max']} ({row['max_bytes']} B); bare "
              f"sha256 of the median's levels {row['bare_sha256_levels']}")
    print()
    print("checkProof, the honest map step's OneStepProof of every fixture market (execution gas)")
    print(f"  {steps['proofs']} proofs, median {steps['median']} ({steps['median_bytes']} B), "
          f"max {steps['max']} ({steps['max_bytes']} B)")
    print()
    print(f"settleByProof in revm, issue 22's lies and a forged map step (execution gas; target <= "
          f"{TARGETS['settleByProof']} for a typical proof)")
    for row in settles:
        print(f"  {row['lie']:<9} {row['won']:<26} {row['items']} item(s), "
              f"{row['proof_bytes']} B: {row['execution']} (the check alone "
              f"{row['check_alone']}; the registry's part {row['execution'] - row['check_alone']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
