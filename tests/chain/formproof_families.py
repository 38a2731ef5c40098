"""The FormProof on chain as deployed (ADR 0017, s42 ``fpsplit``): the envelope
``PorFormProof`` with the family contracts of :data:`FAMILIES` (``IPorFormFamily``), in
revm; shared by the FormProof tests and ``bench/formproof_gas.py``.

:data:`FAMILIES` is the one list of (form tag, contract) on chain: every record family, the
PromptSpec's (COMMON 1, REQUIREMENT 2, one contract ``PorFormFamilyPrompt`` through
``IPorPromptFamily``) since s43 ``psfamily``; every check-level differential runs over it,
and a record of a family not in it must revert ``NoFamily(tag)``.
"""

from __future__ import annotations

import random
from functools import cache

from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_harness import call, compiled, revert_data, selector
from proof_check_support import CALLER, message_call, new_evm
from pyrevm import EVM

from por.signing.eip712 import keccak256

#: (form tag, family contract) of every family on chain (SPEC §5.6 tags).
FAMILIES: tuple[tuple[int, str], ...] = (
    (1, "PorFormFamilyPrompt"),
    (2, "PorFormFamilyPrompt"),
    (3, "PorFormFamilyExtract"),
    (4, "PorFormFamilyChunk"),
    (5, "PorFormFamilyAggregate"),
    (6, "PorFormFamilyContradictions"),
    (7, "PorFormFamilyDeduce"),
    (8, "PorFormFamilyMap"),
    (9, "PorFormFamilyVerdict"),
)
ENVELOPE = "PorFormProof"
PROMPT = "PorFormFamilyPrompt"
ZERO = "0x" + "00" * 20
NO_FAMILY = selector("NoFamily(uint8)").hex()
IDS = ("form.match", "form.mismatch", "form.none", "one_step.invalid_record", "proof.schema",
       "proof.leaf_path", "proof.component_path", "proof.challenge_id", "proof.kind",
       "proof.malformed", "merkle.proof_length", "merkle.index_range", "proof.por_root",
       "proof.form_index", "proof.unsupported")
BY_HASH = {keccak256(t.encode()): t for t in IDS}


def family_addresses(evm: EVM, families: tuple[tuple[int, str], ...]) -> list[str]:
    """Deploy each family; the constructor list of ``PorFormProof`` (index = tag)."""
    at = [ZERO] * 10
    made: dict[str, str] = {}
    for tag, name in families:
        if name not in made:
            made[name] = str(evm.deploy(CALLER, bytes.fromhex(compiled(name, part="bytecode"))))
        at[tag] = made[name]
    return at


@cache
def envelope(families: tuple[tuple[int, str], ...] = FAMILIES) -> tuple[EVM, str]:
    """(revm, address) of ``PorFormProof`` built with ``families``."""
    evm = new_evm()
    init = bytes.fromhex(compiled(ENVELOPE, part="bytecode"))
    args = abi_encode(["address[]"], [family_addresses(evm, families)])
    return evm, str(evm.deploy(CALLER, init + args))


@cache
def family(name: str) -> tuple[EVM, str]:
    """(revm, address) of one family contract, deployed alone."""
    evm = new_evm()
    return evm, str(evm.deploy(CALLER, bytes.fromhex(compiled(name, part="bytecode"))))


def family_form(name: str, leaf: bytes) -> tuple[bool, bool, bytes]:
    """A family contract's (valid, defined, F) of a leaf (``IPorFormFamily.form``)."""
    out, _ = call(family(name), selector("form(bytes)") + abi_encode(["bytes"], [leaf]))
    assert not isinstance(out, str), out
    valid, defined, form = abi_decode(["bool", "bool", "bytes"], out)
    return bool(valid), bool(defined), bytes(form) if defined else b""


def check_call(proof: bytes, families: tuple[tuple[int, str], ...] = FAMILIES,
               ) -> tuple[tuple[bool, str] | str, int]:
    """The envelope's ((won, check id), gas) of a FormProof file, or (``revert:<sel>``, 0)."""
    out, gas = call(envelope(families), selector("check(bytes)") + abi_encode(["bytes"], [proof]))
    if isinstance(out, str):
        return out, 0
    won, check_id = abi_decode(["bool", "bytes32"], out)
    return (bool(won), BY_HASH[check_id]), gas


def no_family(proof: bytes, families: tuple[tuple[int, str], ...] = FAMILIES) -> int | None:
    """The tag of the envelope's ``NoFamily(tag)`` revert on a FormProof file, else None."""
    evm, address = envelope(families)
    try:
        message_call(evm, address, selector("check(bytes)") + abi_encode(["bytes"], [proof]))
    except RuntimeError as exc:
        data = revert_data(str(exc))
        if data[:4].hex() == NO_FAMILY and len(data) == 36:
            return int.from_bytes(data[4:], "big")
    return None


def prompt_form(leaf: bytes, j: int) -> tuple[bool, bool, bytes]:
    """The PromptSpec family's (valid, defined, F) of form index ``j`` of a PromptSpec leaf
    (``IPorPromptFamily.formAt``)."""
    out, _ = call(family(PROMPT), selector("formAt(bytes,uint256)")
                  + abi_encode(["bytes", "uint256"], [leaf, j]))
    assert not isinstance(out, str), out
    valid, defined, form = abi_decode(["bool", "bool", "bytes"], out)
    return bool(valid), bool(defined), bytes(form) if defined else b""


def prompt_gas(leaf: bytes, j: int) -> int:
    """Execution gas of the PromptSpec family's ``formAt(leaf, j)`` alone."""
    _, gas = call(family(PROMPT), selector("formAt(bytes,uint256)")
                  + abi_encode(["bytes", "uint256"], [leaf, j]))
    return gas


def family_gas(name: str, leaf: bytes) -> int:
    """Execution gas of a family contract's ``form(leaf)`` alone."""
    _, gas = call(family(name), selector("form(bytes)") + abi_encode(["bytes"], [leaf]))
    return gas


__all__ = ["BY_HASH", "ENVELOPE", "FAMILIES", "IDS", "NO_FAMILY", "PROMPT", "check_call",
           "envelope", "family", "family_addresses", "family_form", "family_gas", "no_family",
           "prompt_form", "prompt_gas"]


def byte_edit(raw: bytes, rng: random.Random) -> bytes:
    """``raw`` with one byte set, dropped or added at a seeded position: the FormProof
    families' mutation tests (never a revert, the answer equal to Python's)."""
    leaf = bytearray(raw)
    i = rng.randrange(len(leaf))
    op = rng.choice(("set", "drop", "add"))
    if op == "set":
        leaf[i] = rng.randrange(256)
    elif op == "drop":
        del leaf[i]
    else:
        leaf.insert(i, rng.randrange(256))
    return bytes(leaf)
