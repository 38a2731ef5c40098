"""bench/gas_profile.py attributes every gas unit of a call (issue 24 item 7).

Profiles ``PorProofCheck.checkProof`` on the forged map step (``bench/gas.py``'s
``_map_lie``: the checker, one call to ``PorMapExec``, SHA-256 precompile calls) on
anvil: the per-contract, per-function (exclusive), per-line, per-opcode and per-group
tables each sum to the traced total, which with the intrinsic 21 000, the calldata
price and the refund is the transaction's gasUsed (the memory expansion, exact from the
memory sizes, is a part of it); ``checkProof`` and the executor's
``execute`` hold their callees inclusively, the call's callee gas is the executor's
total, and the §2 reader (``PorCbor.scan``) appears.  Needs node with ``cd contracts
&& npm ci`` (the source maps; only the two contracts are recompiled, cached
afterwards) and ``cd tests/chain/anvil && npm ci``.  The source-map decoder and the
hotspot groups are checked without them.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
from anvil_node import ANVIL
from chain_support import ROOT
from setup_gate import needs

sys.path.insert(0, str(ROOT / "bench"))

from gas_profile import profile
from gasprof import srcmap

SOLC = needs("contracts-npm", srcmap.missing())
ANVIL_NODE = needs("anvil-npm", None if ANVIL.exists() else "anvil is not installed")


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    from gas import _map_lie

    _bundle, proof = _map_lie()
    return profile(None, proof, frozenset({"PorProofCheck", "PorMapExec"}), memory=True)


@SOLC
@ANVIL_NODE
def test_every_table_sums_to_the_traced_total(report: dict[str, Any]) -> None:
    total = report["trace"]
    assert total > 0
    for key in ("contracts", "functions_exclusive", "lines", "opcodes", "groups"):
        assert sum(gas for _name, gas in report[key]) == total, key
    assert report["gas_used"] == (report["intrinsic"] + report["calldata"] + total
                                  - report["refund"])
    assert report["execution"] == total - report["refund"]
    # exact memory expansion (--memory): a part of the total, split by contract
    assert report["memory_expansion_exact"]
    assert 0 < report["memory_expansion"] < total
    assert sum(gas for _name, gas in report["memory_by_contract"]) == report["memory_expansion"]


@SOLC
@ANVIL_NODE
def test_the_checker_and_the_executor_hold_their_calls(report: dict[str, Any]) -> None:
    inclusive, contracts = dict(report["functions_inclusive"]), dict(report["contracts"])
    assert set(contracts) == {"PorProofCheck", "PorMapExec"}
    assert inclusive["PorProofCheck.checkProof"] >= 0.9 * report["trace"]
    assert inclusive["PorMapExec.execute"] >= 0.9 * contracts["PorMapExec"]
    calls = {key: (count, own, callee) for key, count, own, callee in report["calls"]}
    assert calls["PorProofCheck -> PorMapExec"] == (1, 2600, contracts["PorMapExec"])
    # the SHA-256 precompile (0x2) has no frame: its calls are charged to their lines
    assert calls["PorMapExec -> 0x" + "00" * 19 + "02"][2] == 0
    assert "PorCbor.scan" in dict(report["functions_exclusive"])


def test_the_source_map_decoder_inherits_empty_fields() -> None:
    """Solidity docs, "Source Mappings": s:l:f:j per instruction, an empty field
    repeats the previous one, f = -1 is code without a source; PUSH32 is 33 bytes."""
    sources = srcmap.Sources.__new__(srcmap.Sources)
    sources.files, sources.newlines, sources.ranges = {}, {}, {}
    text = b"contract C {\n  function f() {\n    x;\n  }\n}\n"
    sources._add(0, "C.sol", text, [(0, 0, len(text), "C"), (0, 15, 40, "C.f")])
    unit = {"object": "6001" + "7f" + "00" * 32 + "56" + "5b", "immutableReferences": {},
            "sourceMap": "0:43:0:-;31:2::i;;2:1:-1:o", "generatedSources": []}
    lines, functions = srcmap.Names(), srcmap.Names()
    code = srcmap.decode(unit, "C", 200, sources=sources, lines=lines, functions=functions)
    placed = [(lines.items[code.line[pc]], functions.items[code.function[pc]], code.jump[pc])
              for pc in (0, 2, 35, 36)]
    assert placed == [("C.sol:1", "C", "-"), ("C.sol:3", "C.f", "i"), ("C.sol:3", "C.f", "i"),
                      ("C (no source)", "C (no source)", "o")]


def test_every_opcode_falls_in_one_group() -> None:
    from gasprof.groups import group_of

    assert group_of(("PorVerdictRegistry.settleByProof",)).startswith("registry")
    path = ("PorProofCheck.checkProof", "PorProofCheck.readTop", "PorCbor.scan")
    assert group_of(path).startswith("§2 reader over the proof")
    assert group_of(("PorProofCheck.checkProof", "PorX.y")).startswith("checker routing")
