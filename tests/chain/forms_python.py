"""The third side of the forms executors' differentials: Python's executor on chain forms
(``por.forms.execute``, what ``por check-proof`` runs on a ``por.FormStepProof/1``) on
the *same call data* the chain executor gets. Its answer must be the chain's in every
case: (won, check id, cause), ``proof.form`` where the chain reverts ``ProofForm()``,
``revert:<Citations(uint256) selector>`` where it reverts ``Citations(i)``. Needs no EVM:
the call data is decoded with ``eth_abi``."""

from __future__ import annotations

from collections import Counter

from eth_abi.abi import decode as abi_decode

from por.forms.execute import CitationsFault, FormFault, execute
from por.signing.eip712 import keccak256

INCLUSION = "(bytes32,uint256,uint256[],bytes32[][],bytes32[])"
CITATIONS = "revert:" + keccak256(b"Citations(uint256)")[:4].hex()
#: Python's answers compared with the chain's, by kind and answer (the tests print them).
SEEN: Counter[str] = Counter()


def python_answer(kind: str, data: bytes) -> tuple[bool, str, str] | str:
    """Python's executor ``kind`` on the forms, indexes and size of ``execute``'s call
    data ``data`` (selector first): (won, check id, cause), or the revert it stands for."""
    forms, inclusion = abi_decode(["bytes[]", INCLUSION], data[4:])
    _root, size, index, _paths, _component = inclusion
    try:
        answer = execute(kind, list(forms), list(index), size)
    except FormFault:
        return "proof.form"
    except CitationsFault:
        return CITATIONS
    return answer.won, answer.check_id, answer.cause


def agrees(kind: str, data: bytes, chain: tuple[bool, str, str] | str) -> None:
    """Python's executor answers ``chain`` on ``data`` (assertion)."""
    python = python_answer(kind, data)
    SEEN[f"{kind}:{python if isinstance(python, str) else python[1:]}"] += 1
    assert python == chain, (kind, python, chain)
