"""The check-chunk executor on chain forms (``contracts/src/forms/PorCheckForm*.sol``,
ADR 0017 stage 4) in revm: its build, its call data from a bundle, and the comparison
with ``por.challenge``'s one-step check (``tests/chain/test_forms_check.py``,
``bench/forms_check.py``).

The forms and the seven-component ``por_root`` are built here (helper ``aggform``'s
``forms_harness.py`` was not on its branch when this was written): ``por.forms`` gives
each record's form; ``por_root = MTH(C0..C6)`` with ``C6 = forms_root || uint64(size)``.
The contracts under ``contracts/src/forms`` are not in ``contracts/build`` (the proof
route comes later): they are compiled here with the pinned solc-js and the build's
optimizer settings. Needs ``SOLC`` (the ``contracts-npm`` gate).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from proof_check_support import CALLER, message_call, new_evm

from por.bundle.layout import COMPONENTS, Bundle
from por.challenge.one_step import build_one_step_proof, verify_one_step_proof
from por.container.spec import component_leaf
from por.encoding import decode
from por.errors import PorError
from por.forms import form_of
from por.merkle.hashing import leaf_hash
from por.merkle.tree import inclusion_proof_from_leaf_hashes, root_from_leaf_hashes
from por.signing.eip712 import keccak256

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "contracts" / "src"
FILES = ("PorMerkle.sol", "forms/PorCheckFormRead.sol", "forms/PorCheckFormItems.sol",
         "forms/PorCheckFormState.sol", "forms/PorCheckFormWrite.sol", "forms/PorCheckForm.sol")
PROOF = "(bytes32,uint256,bytes32[],bytes[],uint256[],bytes32[][])"
SIGNATURE = f"execute({PROOF})"
KIND = "check_requirement"
IDS = ("one_step.match", "one_step.mismatch", "one_step.unexecutable", "one_step.id_position",
       "one_step.prior_order", "proof.form", "proof.citations", "merkle.root_mismatch")
BY_HASH = {keccak256(i.encode()): i for i in IDS}
#: Python's one-step answers the executor gives (the rest: a FormProof's or the court's).
COMPARED = IDS[:5]

COMPILE = """
import { createRequire } from "node:module";
const require = createRequire(process.argv[1] + "/contracts/package.json");
const solc = require("solc");
const input = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
process.stdout.write(solc.compile(JSON.stringify(input)));
"""


def sources(overrides: tuple[tuple[str, str], ...] = ()) -> dict[str, dict[str, str]]:
    """The executor's sources (``overrides``: (file, text) in place of a file's)."""
    texts = {n: (SRC / n).read_text(encoding="utf-8") for n in FILES}
    texts.update(dict(overrides))
    return {f"src/{n}": {"content": t} for n, t in texts.items()}


@cache
def creation_code(overrides: tuple[tuple[str, str], ...] = ()) -> tuple[bytes, int]:
    """(creation code, deployed size) of ``PorCheckForm`` (runs 10 000, cancun)."""
    settings = {"evmVersion": "cancun", "optimizer": {"enabled": True, "runs": 10000},
                "outputSelection": {"src/forms/PorCheckForm.sol": {"PorCheckForm": [
                    "evm.bytecode.object", "evm.deployedBytecode.object"]}}}
    out = subprocess.run(
        ["node", "--input-type=module", "-e", COMPILE, str(ROOT)],  # noqa: S607
        input=json.dumps({"language": "Solidity", "sources": sources(overrides),
                          "settings": settings}),
        capture_output=True, text=True, check=True, cwd=ROOT)
    result = json.loads(out.stdout)
    errors = [e["formattedMessage"] for e in result.get("errors", []) if e["severity"] == "error"]
    assert not errors, errors
    evm = result["contracts"]["src/forms/PorCheckForm.sol"]["PorCheckForm"]["evm"]
    return bytes.fromhex(evm["bytecode"]["object"]), len(evm["deployedBytecode"]["object"]) // 2


class Executor:
    """``PorCheckForm`` deployed in a fresh revm."""

    def __init__(self, overrides: tuple[tuple[str, str], ...] = ()) -> None:
        self.evm = new_evm()
        code, self.size = creation_code(overrides)
        self.address = str(self.evm.deploy(CALLER, code))

    def answer(self, data: bytes) -> tuple[bool, str, int]:
        """(won, check id, execution gas); a revert is (False, ``revert``, 0)."""
        try:
            out, gas = message_call(self.evm, self.address, data)
        except RuntimeError:
            return False, "revert", 0
        won, check_id = abi_decode(["bool", "bytes32"], out)
        return bool(won), BY_HASH[check_id], gas


@dataclass
class Case:
    """One check chunk of a bundle: its call data or why there is none."""

    data: bytes | None
    no_form: str | None = None


def _forms(bundle: Bundle) -> tuple[list[bytes], str | None]:
    spec = decode(bundle.prompt_spec)
    forms, missing = [], None
    records: list[tuple[str, Any, int | None]] = [("COMMON", spec, None)]
    records += [(f"REQUIREMENT {k}", spec, k) for k in range(len(spec["data_requirements"]))]
    records += [(f"step {i}", decode(s), None) for i, s in enumerate(bundle.steps)]
    records.append(("VERDICT", decode(bundle.verdict), None))
    for name, record, k in records:
        try:
            forms.append(form_of(record, k))
        except PorError:
            forms.append(b"\0" * 32)  # a stand-in leaf: the record has no form
            missing = missing or name
    return forms, missing


def call_data(bundle: Bundle, index: int) -> Case:
    """The executor's call on check chunk ``index`` of ``bundle``; ``no_form`` names the
    first carried record without a form (then there is no call: a FormProof's case)."""
    forms, _ = _forms(bundle)
    spec = decode(bundle.prompt_spec)
    r = len(spec["data_requirements"])
    step = decode(bundle.steps[index])
    rid = step["inputs"].get("requirement_id")
    rids = [q.get("requirement_id") for q in spec["data_requirements"]]
    position = {decode(s)["step_id"]: i for i, s in reversed(list(enumerate(bundle.steps)))}
    carried = [0, 1 + (rids.index(rid) if rid in rids else 0), 1 + r + index]
    carried += [1 + r + position[p] for p in step["prior_step_ids"]]
    for j in carried:
        if forms[j] == b"\0" * 32:
            return Case(None, f"form {j}")
    leaves = [leaf_hash(f) for f in forms]
    tree_root = root_from_leaf_hashes(leaves)
    components = [leaf_hash(component_leaf(*bundle.commitments.component(name)))
                  for name in COMPONENTS]
    components.append(leaf_hash(component_leaf(tree_root, len(forms))))
    args = (root_from_leaf_hashes(components), len(forms),
            inclusion_proof_from_leaf_hashes(components, 6), [forms[j] for j in carried],
            carried, [inclusion_proof_from_leaf_hashes(leaves, j) for j in carried])
    return Case(keccak256(SIGNATURE.encode())[:4] + abi_encode([PROOF], [args]))


def python_answer(bundle: Bundle, index: int) -> tuple[bool, str, str]:
    """``verify_one_step_proof`` on the CBOR proof: (won, id, cause or message)."""
    try:
        outcome = verify_one_step_proof(build_one_step_proof(bundle, index))
    except PorError as exc:
        return False, exc.check_id, exc.message
    cause = getattr(outcome, "cause", None) or ""
    return outcome.outcome == "won", outcome.reason, f"{cause} {outcome.message}"
