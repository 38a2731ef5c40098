"""Chain forms in revm (ADR 0017 stage 4): a bundle's forms, its 7-component ``por_root``
(draft §3), the executors under ``contracts/src/forms/`` compiled and deployed, and
their answers (s39, ``aggform``; shared by every forms executor's test and bench).

:func:`forms_root_of` builds the ``forms`` component of a bundle with ``por.forms`` and
``por_root = MTH(C0..C6)``: components 0-5 from the bundle's commitments, C6 the forms
root and size. :func:`deploy` compiles a contract of ``contracts/src/forms/`` with the
pinned solc-js and the build's settings (``FORMS_FILES``: the forms sources and the
committed ones they import). :func:`call` answers ``match``/``mismatch``/...,
``proof.form`` for a ``ProofForm()`` revert, ``revert:<selector>`` for another revert.
Compiling needs ``SOLC`` (the ``contracts-npm`` gate); building forms does not.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from eth_abi.abi import encode as abi_encode
from proof_check_support import CALLER, message_call, new_evm
from pyrevm import EVM, AccountInfo
from scratch_harness import COMPILE

from por.bundle.layout import COMPONENT_INDEX, COMPONENTS, Bundle
from por.challenge.form_step import build_form_step_proof
from por.challenge.records import FormStepProof
from por.container.spec import component_leaf
from por.encoding import decode
from por.errors import PorError
from por.forms import Form, Forms, forms_of
from por.merkle.hashing import leaf_hash
from por.merkle.tree import inclusion_proof_from_leaf_hashes, root_from_leaf_hashes
from por.signing.eip712 import keccak256

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "contracts" / "src"
IMPORT = re.compile(r'^import [^"]*"([^"]+)";', re.M)


def selector(signature: str) -> bytes:
    """The 4-byte selector of ``signature``."""
    return keccak256(signature.encode())[:4]


PROOF_FORM = selector("ProofForm()")


@dataclass(frozen=True)
class Committed:
    """A bundle's forms and the ``por_root`` that commits them beside its six components."""

    forms: Forms
    por_root: bytes
    component_path: list[bytes]
    requirements: int

    def index_of_step(self, leaf: int) -> int:
        """The forms index of reasoning leaf ``leaf`` (``1 + r + leaf``)."""
        return 1 + self.requirements + leaf

    def path(self, index: int) -> list[bytes]:
        """Form ``index``'s RFC 9162 path in the forms tree."""
        return inclusion_proof_from_leaf_hashes([f.leaf for f in self.forms.forms], index)


#: Every forms executor's inclusion argument and entry point (SPEC §14.8).
INCLUSION = "(bytes32,uint256,uint256[],bytes32[][],bytes32[])"
EXECUTE = f"execute(bytes[],{INCLUSION})"


def proof_call_data(proof: FormStepProof) -> bytes:
    """``execute(forms, inc)``'s call data of a FormStepProof (SPEC §10.2.9, §14.8)."""
    inc = (proof.por_root, proof.forms_size, list(proof.index), [list(p) for p in proof.paths],
           list(proof.forms_path))
    return selector(EXECUTE) + abi_encode(["bytes[]", INCLUSION], [list(proof.forms), inc])


#: False: the case builders build their own call data (``test_form_step_proof`` compares
#: the two); True: they use ``por``'s FormStepProof wherever it is a drop-in.
USE_PRODUCTION = True


def production_call_data(bundle: Bundle, kind: str, leaf: int | None,
                         por_root: bytes) -> bytes | None:
    """The call data of ``por``'s own FormStepProof of ``kind`` (``build_form_step_proof``,
    the production twin of the case builders), when ``por_root`` (the case's) is the
    bundle's own and the builder builds it; else None (the case builder's own data:
    a malformed or replaced form, a proof ``por`` refuses to build)."""
    if not USE_PRODUCTION or por_root != bundle.commitments.por_root:
        return None
    try:
        return proof_call_data(build_form_step_proof(bundle, kind, leaf))
    except PorError:
        return None


def forms_root_of(bundle: Bundle) -> Committed:
    """The bundle's forms (``por.forms.forms_of``; raises ``form.none``) and its
    7-component ``por_root``."""
    forms = forms_of(decode(bundle.prompt_spec), [decode(s) for s in bundle.steps],
                     decode(bundle.verdict))
    components = [leaf_hash(component_leaf(*bundle.commitments.component(name)))
                  for name in COMPONENTS[:COMPONENT_INDEX["forms"]]]
    components.append(leaf_hash(component_leaf(forms.root, forms.size)))
    requirements = forms.size - len(bundle.steps) - 2
    return Committed(forms, root_from_leaf_hashes(components),
                     inclusion_proof_from_leaf_hashes(components, 6), requirements)


def _normal(path: str) -> str:
    """``src/forms/../PorMerkle.sol`` as ``src/PorMerkle.sol``."""
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def replaced(bundle: Bundle, committed: Committed, index: int, form: bytes) -> Committed:
    """``committed`` with form ``index`` replaced by ``form`` (any bytes: a malformed form
    a signer could commit), the forms root and ``por_root`` recomputed."""
    forms = list(committed.forms.forms)
    old = forms[index]
    forms[index] = Form(name=old.name, tag=old.tag, form=form, leaf=leaf_hash(form))
    root = root_from_leaf_hashes([f.leaf for f in forms])
    components = [leaf_hash(component_leaf(*bundle.commitments.component(name)))
                  for name in COMPONENTS[:COMPONENT_INDEX["forms"]]]
    components.append(leaf_hash(component_leaf(root, len(forms))))
    return Committed(Forms(forms=tuple(forms), root=root), root_from_leaf_hashes(components),
                     inclusion_proof_from_leaf_hashes(components, 6), committed.requirements)


@cache
def compiled(name: str, code: str | None = None, part: str = "deployedBytecode") -> str:
    """Deployed bytecode (hex) of contract ``name`` in ``contracts/src/forms/{name}.sol``,
    or in ``code`` (a test harness beside them), with the build's optimizer settings;
    ``part="bytecode"``: its initcode."""
    sources: dict[str, dict[str, str]] = {}
    for path in sorted((SRC / "forms").glob("*.sol")):
        sources[f"src/forms/{path.name}"] = {"content": path.read_text(encoding="utf-8")}
    if code is not None:
        sources[f"src/forms/{name}.sol"] = {"content": code}
    todo = list(sources)
    while todo:  # the committed sources they import, transitively
        unit = todo.pop()
        for target in IMPORT.findall(sources[unit]["content"]):
            key = _normal(f"{unit.rsplit('/', 1)[0]}/{target}")
            if key not in sources:
                sources[key] = {"content": (ROOT / "contracts" / key).read_text(encoding="utf-8")}
                todo.append(key)
    unit = f"src/forms/{name}.sol"
    settings = {
        "evmVersion": "cancun",
        "optimizer": {"enabled": True, "runs": 10000},
        "outputSelection": {unit: {name: ["evm.deployedBytecode.object", "evm.bytecode.object"]}},
    }
    out = subprocess.run(
        ["node", "--input-type=module", "-e", COMPILE, str(ROOT)],  # noqa: S607
        input=json.dumps({"language": "Solidity", "sources": sources, "settings": settings}),
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    result = json.loads(out.stdout)
    errors = [e["formattedMessage"] for e in result.get("errors", []) if e["severity"] == "error"]
    assert not errors, errors
    evm = result["contracts"][unit][name]["evm"]
    return str(evm[part]["object"])


def sizes(name: str) -> int:
    """Deployed code size of ``name`` in bytes (EIP-170: at most 24 576)."""
    return len(compiled(name)) // 2


@cache
def deploy(name: str, code: str | None = None) -> tuple[EVM, str]:
    """(revm, address) of contract ``name`` (``compiled(name, code)``)."""
    evm = new_evm()
    if _creates(name, code):  # its constructor deploys a helper
        return evm, str(evm.deploy(CALLER, bytes.fromhex(compiled(name, code, part="bytecode"))))
    address = "0x" + "f0" * 20
    evm.insert_account_info(address, AccountInfo(code=bytes.fromhex(compiled(name, code))))
    return evm, address


def _creates(name: str, code: str | None) -> bool:
    """Whether ``name``'s constructor creates a contract (s42 ``dedbound``:
    ``PorDeduceForm`` deploys its writer): then :func:`deploy` runs its initcode."""
    return "constructor()" in (code if code is not None
                               else (SRC / "forms" / f"{name}.sol").read_text(encoding="utf-8"))


def revert_data(message: str) -> bytes:
    """The revert data in pyrevm's error text."""
    found = re.search(r"output: 0x([0-9a-f]*)", message)
    return bytes.fromhex(found.group(1)) if found else b""


def call(chain: tuple[EVM, str], data: bytes) -> tuple[bytes | str, int]:
    """(return data, execution gas), or (``proof.form`` / ``revert:<hex selector>``, 0)."""
    evm, address = chain
    try:
        return message_call(evm, address, data)
    except RuntimeError as exc:
        reverted = revert_data(str(exc))
        if reverted[:4] == PROOF_FORM:
            return "proof.form", 0
        return "revert:" + reverted[:4].hex(), 0


__all__ = ["CALLER", "EXECUTE", "Committed", "call", "compiled", "deploy", "forms_root_of",
           "production_call_data", "proof_call_data", "selector"]
