"""The FormProof on chain for the DEDUCE family (``contracts/src/forms/PorFormProof.sol``,
ADR 0017 s41 spike): ``F`` DEDUCE built from a step's CBOR leaf equals ``por.forms``' byte
for byte, on every fixture market's deduce steps."""

from __future__ import annotations

from bundle_edits import honest, steps_of
from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_harness import call, deploy, selector
from scratch_harness import SOLC

from por.encoding import decode
from por.forms import step_form
from por.scenarios import list_scenarios

pytestmark = SOLC
NAME = "PorFormProof"


def chain_form(leaf: bytes) -> tuple[bool, bool, bytes]:
    """The contract's (valid, defined, F) of a step leaf."""
    out, _ = call(deploy(NAME), selector("deduceForm(bytes)") + abi_encode(["bytes"], [leaf]))
    assert not isinstance(out, str), out
    valid, defined, form = abi_decode(["bool", "bool", "bytes"], out)
    return bool(valid), bool(defined), bytes(form)


def test_every_fixture_deduce_form() -> None:
    seen = 0
    for name in list_scenarios():
        bundle = honest(name)
        for leaf in steps_of(bundle, "deduce"):
            raw = bundle.steps[leaf]
            assert chain_form(raw) == (True, True, step_form(decode(raw))), name
            seen += 1
    assert seen >= 40
