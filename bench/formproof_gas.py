"""The FormProof on chain for every record family
(``contracts/src/forms/PorFormProof.sol``, ADR 0017: s41 spike ``formproof``/``fpmap``, s42
split ``fpsplit`` and the families ``fpextract``, ``fpchunk2``, ``fpagg2``, ``fpcontra``, s43
the PromptSpec's ``psfamily``, ``--family common requirement``: the
envelope ``PorFormProof`` calls the family contracts ``PorFormFamily*``,
``tests/chain/formproof_families.py``), in revm: execution gas of the envelope's
``check(bytes)`` on a ``por.FormProof/1`` file (the record part, the form leaf's path, the
component path, the proof's id, the family's call: the record's validity and ``F`` rebuilt
from its CBOR; ``LH(F)``), of the family contract's ``form(bytes)`` alone (the §2 reader and
the record's validity, then ``F``), the file's bytes and their call data price (EIP-2028),
the transaction at that price (21 000 + call data + ``check``; a node pricing EIP-7623's
floor charges at least 21 000 + 2.5 x the call data price), the record leaf's bytes and
``F``'s words.

Rows, one table a family (``--family``): every fixture market's record of the family
(honest: ``form.match``; min, median, max and scenario 08), scenario 08 with its committed
form leaf lied (``form.mismatch``) and with ``F`` undefined (``form.none``, by one edit of
:data:`UNDEFINED`; the verdict, whose valid records all have a form: invalid,
``one_step.invalid_record``); ``bench/largest_shapes.py``'s markets at the caps
(``--fill-bytes``: the filler's UTF-8 widths), the largest record of the family in each.
Execution gas is a call's gas less 21 000 and its call data price (``bench/gas_steps.py``'s
count). The contracts' deployed and init code sizes close the table.

``--settle``: instead, for each family, scenario 08 with its first form leaf lied (its
hash replaced by its SHA-256, as ``tests/chain/test_anvil_formproof_settle.py``'s lie)
settled whole in revm (``chain_support.Chain``: the registry and its checker deployed, the
lie proposed, ``commitProof`` a block earlier, then ``settleByForms(marketKey,
keccak256("form:form"), file)``): the transaction's gas (21 000 + call data + execution,
the receipt's ``gasUsed``), its call data price, the envelope's ``check`` alone and the
registry's part (execution less ``check``).

Usage: ``PYTHONPATH=. python bench/formproof_gas.py [--family common requirement
extract_claims check_requirement aggregate contradictions deduce map verdict]
[--fill-bytes 1 2 3 4] [--settle [--anvil]]``. COMMON and REQUIREMENT
(``PorFormFamilyPrompt.formAt``): the PromptSpec's forms, every requirement a record of
REQUIREMENT; its ``F`` undefined by an edit Python finds invalid
(``one_step.invalid_record``; the chain answers ``form.none``: SPEC §10.2.8's stated case).
Gas is deterministic.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from bundle_edits import honest, recommit, steps_of  # noqa: E402
from eth_abi.abi import encode as abi_encode  # noqa: E402
from formproof_families import ENVELOPE, FAMILIES, check_call, family_gas, prompt_gas  # noqa: E402
from forms_harness import compiled, selector, sizes  # noqa: E402
from proof_check_support import calldata_gas  # noqa: E402

from por.bundle.layout import Bundle  # noqa: E402
from por.challenge.form_proof import build_form_proof, verify_form_proof  # noqa: E402
from por.challenge.records import FormProof  # noqa: E402
from por.encoding import decode, encode  # noqa: E402
from por.errors import PorError  # noqa: E402
from por.forms import form_of, step_form  # noqa: E402
from por.forms.verdict import verdict_form  # noqa: E402
from por.scenarios import list_scenarios  # noqa: E402
from por.signing.eip712 import keccak256  # noqa: E402

NAME = ENVELOPE
KIND = keccak256(b"form:form")
FAMILY = {"common": "PorFormFamilyPrompt", "requirement": "PorFormFamilyPrompt",
          "extract_claims": "PorFormFamilyExtract", "check_requirement": "PorFormFamilyChunk",
          "aggregate": "PorFormFamilyAggregate",
          "contradictions": "PorFormFamilyContradictions", "deduce": "PorFormFamilyDeduce",
          "map": "PorFormFamilyMap", "verdict": "PorFormFamilyVerdict"}
#: One edit of scenario 08's record of a family that leaves ``F`` undefined: (label, path
#: under the step, value); the verdict's is invalid instead.
UNDEFINED: dict[str, tuple[str, tuple[str | int, ...], object]] = {
    "common": ("sources_required 65", ("prediction_semantics", "sources_required"), 65),
    "requirement": ("min_sources 65", ("data_requirements", 0, "selection_policy",
                                       "min_sources"), 65),
    "extract_claims": ("card status_code 600", ("output", "card", "status_code"), 600),
    "check_requirement": ("a reason sanity.bogus", ("output", "items", 0, "reasons"),
                          ["sanity.bogus"]),
    "aggregate": ("value 251.40", ("output", "fields", 0, "value"), "251.40"),
    "contradictions": ("tolerance 0.10", ("output", "numeric_tolerance"), "0.10"),
    "deduce": ("numeric_value 1.50", ("output", "numeric_value"), "1.50"),
    "map": ("numeric_value 1.50", ("output", "evaluation_variables", "numeric_value"), "1.50"),
}
FILLS = {1: "x", 2: "\u00e9", 3: "\u20ac", 4: "\U0001f600"}


def leaves(bundle: Bundle, family: str) -> list[int]:
    """The family's records in ``bundle``: step leaf indexes, ``[-1]`` (the verdict), the
    PromptSpec's form indexes (``[0]`` COMMON, ``1..r`` REQUIREMENT)."""
    if family in PROMPT:
        r = len(bundle.forms) - len(bundle.steps) - 2
        return [0] if family == "common" else list(range(1, r + 1))
    return [-1] if family == "verdict" else steps_of(bundle, family)


PROMPT = ("common", "requirement")


def form_at(bundle: Bundle, leaf: int, family: str) -> int:
    """The forms index of the family's record ``leaf`` (``leaves``)."""
    if family in PROMPT:
        return leaf
    if family == "verdict":
        return len(bundle.forms) - 1
    return len(bundle.forms) - len(bundle.steps) - 1 + leaf


def measure(bundle: Bundle, leaf: int, family: str = "deduce") -> dict[str, object]:
    """One record's FormProof: Python's answer, the chain's gas and sizes."""
    verdict = family == "verdict"
    proof = build_form_proof(bundle, form_at(bundle, leaf, family))
    data = selector("check(bytes)") + abi_encode(["bytes"], [proof.to_cbor()])
    out, gas = check_call(proof.to_cbor())
    assert not isinstance(out, str), out
    if family in PROMPT:
        raw = bundle.prompt_spec
        form_gas = prompt_gas(raw, leaf)
    else:
        raw = bundle.verdict if verdict else bundle.steps[leaf]
        form_gas = family_gas(FAMILY[family], raw)
    try:
        if family in PROMPT:
            words = len(form_of(decode(raw), leaf - 1 if leaf else None)) // 32
        else:
            words = len((verdict_form if verdict else step_form)(decode(raw))) // 32
    except PorError:  # no form (or an invalid record): no words
        words = 0
    return {"answer": verify_form_proof(proof).reason, "gas": gas, "form gas": form_gas,
            "file": len(proof.to_cbor()), "calldata gas": calldata_gas(data),
            "tx": 21_000 + calldata_gas(data) + gas, "leaf": len(raw), "words": words}


def line(label: str, m: dict[str, object]) -> str:
    return (f"| {label} | {m['answer']} | {m['gas']:,} | {m['form gas']:,} | {m['file']:,} | "
            f"{m['calldata gas']:,} | {m['tx']:,} | {m['leaf']:,} | {m['words']} |")


def edited(b08: Bundle, leaf: int, family: str) -> tuple[str, Bundle]:
    """Scenario 08 edited so ``F`` is undefined (the verdict: so it is invalid)."""
    if family == "verdict":
        v = decode(b08.verdict)
        v["confidence_bps"] = 10_001
        return "confidence_bps 10001", recommit(b08, verdict=encode(v))
    label, path, value = UNDEFINED[family]
    if family in PROMPT:
        spec = decode(b08.prompt_spec)
        at = spec
        for key in path[:-1]:
            at = at[key]
        at[path[-1]] = value
        return label, recommit(b08, prompt_spec=encode(spec))
    steps = list(b08.steps)
    step = decode(steps[leaf])
    at = step
    for key in path[:-1]:
        at = at[key]
    at[path[-1]] = value
    steps[leaf] = encode(step)
    return label, recommit(b08, steps=steps)


def table(family: str, fills: list[int]) -> None:
    print(f"\n| {family}: case | answer | check gas | {FAMILY[family]}.form gas | file B | "
          "call data gas | tx gas | leaf B | F words |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = []
    for name in list_scenarios():
        bundle = honest(name)
        for leaf in leaves(bundle, family):
            rows.append((name, measure(bundle, leaf, family)))
    gases = sorted(int(str(m["gas"])) for _, m in rows)
    print(f"| fixtures: {len(rows)} {family} records, honest | form.match | min {gases[0]:,}, "
          f"median {int(statistics.median(gases)):,}, max {gases[-1]:,} | | | | | | |")
    name08 = next(n for n in list_scenarios() if n.startswith("08-"))
    b08 = honest(name08)
    leaf = leaves(b08, family)[0]
    print(line(f"{name08} honest", measure(b08, leaf, family)))
    forms = list(b08.forms)
    forms[form_at(b08, leaf, family)] = bytes(32)
    print(line(f"{name08} form leaf lied", measure(recommit(b08, forms=forms), leaf, family)))
    what, changed = edited(b08, leaf, family)
    print(line(f"{name08} {what}", measure(changed, leaf, family)))
    from largest_shapes import CAPS, SHAPES, market  # heavy: after the arguments

    for fill in fills:
        CAPS["fill"] = FILLS[fill]
        for shape_name, shape in SHAPES.items():
            bundle = market(shape)
            ms = [measure(bundle, leaf, family) for leaf in leaves(bundle, family)]
            if ms:
                top = max(ms, key=lambda m: int(str(m["tx"])))
                print(line(f"caps {shape_name}, fill {fill}: largest of {len(ms)}", top),
                      flush=True)


def lied_08(family: str) -> tuple[Bundle, FormProof]:
    """Scenario 08 with the family's first form leaf lied (its hash replaced by its
    SHA-256, as ``test_anvil_formproof_settle.lie``), and its FormProof file."""
    b08 = honest(next(n for n in list_scenarios() if n.startswith("08-")))
    forms = list(b08.forms)
    j = form_at(b08, leaves(b08, family)[0], family)
    forms[j] = hashlib.sha256(forms[j]).digest()
    lie = recommit(b08, forms=forms)
    return lie, build_form_proof(lie, j)


def settle_row(family: str, node: Any = None) -> str:
    """Scenario 08's lied form leaf of ``family`` settled by ``settleByForms`` in revm
    (and on anvil's ``node``, when given: ``anvil_node.settle_fresh``)."""
    from chain_support import ADMIN, TEST_ONLY_SECRET, Chain, address_of, call_data, register_bundle

    lie, proof = lied_08(family)
    file = proof.to_cbor()
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    market = register_bundle(chain, lie.to_cbor())
    chain.commit_proof(market, KIND + file, ADMIN)
    out = chain.send(call_data("settleByForms", market, KIND, file))
    _, check = check_call(file)
    data = calldata_gas(out.calldata)
    on_node = ""
    if node is not None:
        from anvil_node import settle_fresh

        receipt = settle_fresh(node, lie.to_cbor(), file, KIND)
        on_node = f" {int(receipt['gasUsed'], 16):,} |"
    return (f"| {family} | {verify_form_proof(proof).reason} | "
            f"{out.gas_used:,} |{on_node} {data:,} | {out.execution_gas:,} | {check:,} | "
            f"{out.execution_gas - check:,} | {len(file):,} |")


def settle_table(families: list[str], on_anvil: bool) -> None:
    column = " anvil tx gas |" if on_anvil else ""
    print(f"\n| 08 form leaf lied: family | answer | revm tx gas |{column} call data gas | "
          "revm execution | check gas | registry part (revm) | file B |")
    print("| --- " * (8 + on_anvil) + "|")
    with contextlib.ExitStack() as stack:
        node = None
        if on_anvil:
            from anvil_node import anvil

            node = stack.enter_context(anvil())
        for family in families:
            print(settle_row(family, node), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", nargs="*", choices=tuple(FAMILY), default=list(FAMILY),
                        help="the record families (step kinds, and verdict)")
    parser.add_argument("--fill-bytes", type=int, nargs="*", choices=(1, 2, 3, 4),
                        default=[1, 2, 3, 4], help="UTF-8 widths of the caps markets' filler")
    parser.add_argument("--settle", action="store_true",
                        help="scenario 08's whole settleByForms transaction a family, in revm")
    parser.add_argument("--anvil", action="store_true",
                        help="with --settle: the same settle on anvil too (its receipt)")
    args = parser.parse_args()
    if args.settle:
        settle_table(args.family, args.anvil)
        return 0
    for family in args.family:
        table(family, args.fill_bytes)
    print()
    for name in dict.fromkeys((NAME, *(n for _, n in FAMILIES))):
        print(f"{name}: deployed {sizes(name):,} B (EIP-170 24 576), "
              f"init {len(compiled(name, part='bytecode')) // 2:,} B (EIP-3860 49 152)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
