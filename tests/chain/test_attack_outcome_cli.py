"""s45 attack45: ``por chain outcome BUNDLE --proposal HEX`` on hostile input. Every refusal
is a por/error/1 document with an id (no traceback, no hang); calldata is printed only for
a proposal the registry could hold, and that calldata strikes it (revm)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from chain_support import CHAIN_ID, CHALLENGER, DEMO_BUNDLES, propose_data
from eth_abi.abi import decode
from test_outcome_proof import NAME, _bundle, _proposed, _words

from por.chain.outcome import OUTCOME_KIND
from por.cli import main

BUNDLE = str(DEMO_BUNDLES / NAME)


def _cli(proposal: str, *extra: str) -> tuple[int, dict[str, Any]]:
    with contextlib.redirect_stdout(io.StringIO()) as printed, \
            contextlib.redirect_stderr(io.StringIO()):
        code = main(["chain", "outcome", BUNDLE, "--proposal", proposal, *extra, "--json"])
    document = json.loads(printed.getvalue())
    return code, document["calldata"] if code == 0 else document["error"]


def _lie(**lies: int) -> bytes:
    return propose_data(_words(_bundle(NAME), **lies), CHAIN_ID, bytes(20))


def _hostile(tmp_path: Path) -> dict[str, tuple[str, str]]:
    good = _lie(outcome=2)
    big = tmp_path / "big.hex"
    big.write_text(good.hex() + "0" * (2 << 20))
    dirty = bytearray(good)
    dirty[4 + 32 + 30] = 1  # the uint8 outcome word's high bits (the Verdict tuple is static)
    return {
        "truncated": (good[:100].hex(), "chain.proposal"),
        "selector only": (good[:4].hex(), "chain.proposal"),
        "empty": ("", "chain.proposal"),
        "another function": ("deadbeef" + good[4:].hex(), "chain.proposal"),
        "huge offsets": ((good[:4] + (2**255).to_bytes(32) * 24).hex(), "chain.proposal"),
        "dirty outcome": (bytes(dirty).hex(), "chain.proposal"),
        "odd length": (good.hex() + "0", "usage.options"),
        "non-ascii": ("é" + good.hex(), "usage.options"),
        "missing file": ("@" + str(tmp_path / "missing"), "io.unreadable"),
        "file over 1 MiB": ("@" + str(big), "usage.options"),
        "outcome 0": (_lie(outcome=0).hex(), "chain.proposal"),
        "outcome 4": (_lie(outcome=4).hex(), "chain.proposal"),
        "confidence 10001": (_lie(confidence_bps=10_001).hex(), "chain.proposal"),
        "honest": (_lie().hex(), "chain.proof_not_won"),
    }


@pytest.mark.parametrize("case", ["truncated", "selector only", "empty", "another function",
                                  "huge offsets", "dirty outcome", "odd length", "non-ascii",
                                  "missing file", "file over 1 MiB", "outcome 0", "outcome 4",
                                  "confidence 10001", "honest"])
def test_hostile_proposals_are_refused_with_an_id(case: str, tmp_path: Path) -> None:
    proposal, check_id = _hostile(tmp_path)[case]
    code, answer = _cli(proposal)
    assert code != 0 and answer["id"] == check_id, answer


@pytest.mark.parametrize("lie", [{"outcome": 3}, {"confidence_bps": 10_000},
                                 {"evidence_count": 2**64 - 1}, {"reasoning_count": 0}])
@pytest.mark.parametrize("form", ["plain", "0X", "spaced", "file"])
def test_the_printed_calldata_strikes(lie: dict[str, int], form: str, tmp_path: Path) -> None:
    chain, key, data = _proposed(_words(_bundle(NAME), **lie))
    text = {"plain": "0x" + data.hex(), "0X": "0X" + data.hex(),
            "spaced": "\n 0x" + data.hex() + " \n", "file": "@" + str(tmp_path / "p")}[form]
    (tmp_path / "p").write_text(data.hex() + "\n")
    code, call = _cli(text)
    assert code == 0, call
    settle = bytes.fromhex(call["data_hex"][2:])
    chain.commit_proof(key, OUTCOME_KIND + _args_of(settle), CHALLENGER)
    chain.send(settle, sender=CHALLENGER)  # struck (a revert raises)
    assert chain.call("finalOutcome", key) == 0


def _args_of(settle: bytes) -> bytes:
    return bytes(decode(["bytes32", "bytes32", "bytes"], settle[4:])[2])
