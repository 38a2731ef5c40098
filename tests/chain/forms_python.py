"""Python's executors on chain forms (``por.forms.execute``, what ``por check-proof``
runs on a ``por.FormStepProof/1``) on an executor's own call data: the third side of
every forms executor's differential (s40, ``pyexeca``/``pyexecb``); needs no EVM for
Python's side (the call data is decoded with ``eth_abi``).

:func:`python_answer` decodes ``execute(bytes[], Inclusion)``'s call data and runs
``por.forms.execute.execute`` on its forms, indexes and size (inclusion holds in every
case these tests build: both sides start after ``PorForms.included``); it answers in
``chain_answer``'s terms: the (won, check id, cause) tuple (``cause`` dropped for the
judge), ``proof.form`` for ``FormFault`` and ``revert:<selector>`` for ``Citations(i)``
and ``FinalStep()``. :func:`python_revert` and :func:`chain_revert` give both sides'
whole revert data, so a ``Citations(i)`` is compared with its ``i``.
"""

from __future__ import annotations

from collections import Counter

from eth_abi.abi import decode as abi_decode
from forms_harness import PROOF_FORM, deploy, revert_data, selector
from proof_check_support import message_call

from por.forms.execute import CitationsFault, FormFault, execute
from por.forms.execute.judge import FinalStepFault

INCLUSION = "(bytes32,uint256,uint256[],bytes32[][],bytes32[])"
CITATIONS = selector("Citations(uint256)")
FINAL_STEP = selector("FinalStep()")
#: Python's answers compared with the chain's, by kind and answer (the tests print them).
SEEN: Counter[str] = Counter()


def forms_args(data: bytes) -> tuple[list[bytes], list[int], int]:
    """(forms, index, size) of ``execute``'s call data."""
    forms, inc = abi_decode(["bytes[]", INCLUSION], data[4:])
    return [bytes(f) for f in forms], list(inc[2]), int(inc[1])


def _run(kind: str, data: bytes) -> tuple[bytes | None, tuple[bool, str, str] | None]:
    """(the revert data the executor gives when Python's executor raises, else None;
    Python's answer, else None)."""
    try:
        answer = execute(kind, *forms_args(data))
    except FormFault:
        return PROOF_FORM, None
    except CitationsFault as exc:
        return CITATIONS + exc.position.to_bytes(32, "big"), None
    except FinalStepFault:
        return FINAL_STEP, None
    return None, (answer.won, answer.check_id, answer.cause)


def python_revert(kind: str, data: bytes) -> bytes | None:
    """The revert data the executor gives when Python's executor raises (None: an
    answer)."""
    return _run(kind, data)[0]


def python_answer(kind: str, data: bytes) -> tuple[bool, str, str] | tuple[bool, str] | str:
    """Python's answer on the call data, as ``chain_answer`` gives the chain's."""
    reverted, answer = _run(kind, data)
    if answer is None:
        assert reverted is not None
        return "proof.form" if reverted == PROOF_FORM else "revert:" + reverted[:4].hex()
    return answer[:2] if kind == "judge" else answer


def chain_revert(name: str, data: bytes, code: str | None = None) -> bytes | None:
    """The executor's whole revert data (None: it answers)."""
    evm, address = deploy(name, code)
    try:
        message_call(evm, address, data)
    except RuntimeError as exc:
        return revert_data(str(exc))
    return None


def reverts_agree(kind: str, name: str, data: bytes) -> bool:
    """Both sides revert alike (the ``Citations`` position included) or both answer."""
    return python_revert(kind, data) == chain_revert(name, data)


def agrees(kind: str, data: bytes, chain: tuple[bool, str, str] | str) -> None:
    """Python's executor answers ``chain`` on ``data`` (assertion; counted in ``SEEN``)."""
    python = python_answer(kind, data)
    SEEN[f"{kind}:{python if isinstance(python, str) else python[1:]}"] += 1
    assert python == chain, (kind, python, chain)


__all__ = ["SEEN", "agrees", "chain_revert", "forms_args", "python_answer", "python_revert",
           "reverts_agree"]
