"""The §2 reader's price over a forms proof in today's CBOR envelope (ADR 0017, the s38
spike addendum's method), shared by the forms executors' benches.

:func:`envelope` writes an executor's call data (``execute(bytes[] forms,
PorForms.Inclusion inc)``) as one CBOR map of byte strings and integers; :class:`Reader`
prices ``PorProofCheck.checkCbor`` over it in revm, less its cost on ``{}``: what a
forms proof in today's envelope would pay to be read (the router's own walk and its
external call are not in it).
"""

from __future__ import annotations

from por.encoding import encode

#: The ABI type of ``PorForms.Inclusion``.
INCLUSION = "(bytes32,uint256,uint256[],bytes32[][],bytes32[])"


def envelope(data: bytes) -> bytes:
    """The executor's call data (selector first) as one CBOR document."""
    from eth_abi.abi import decode as abi_decode

    forms, (root, size, index, paths, top) = abi_decode(["bytes[]", INCLUSION], data[4:])
    return encode({"schema": "por.FormsProof/0", "por_root": root, "forms_size": size,
                   "component_path": list(top), "forms": list(forms), "index": list(index),
                   "paths": [list(p) for p in paths]})


class Reader:
    """``PorProofCheck.checkCbor`` in revm over :func:`envelope`, less its cost on ``{}``."""

    def __init__(self) -> None:
        from proof_check_support import ProofChecker

        self.checker = ProofChecker()
        self.base = self._gas(b"\xa0")

    def _gas(self, doc: bytes) -> int:
        _out, gas = self.checker._call("checkCbor(bytes)", doc)
        return int(gas)

    def __call__(self, data: bytes) -> int:
        doc = envelope(data)
        assert self.checker.cbor(doc) is None, "checkCbor refused the document"
        return self._gas(doc) - self.base
