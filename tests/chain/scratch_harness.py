"""A scratch contract compiled from the committed sources and deployed in revm (s37).

Harnesses expose libraries' internal functions as external ones (``test_skip_walks.py``,
``test_onchain_reader_top.py``, the s37 review tests): :func:`deploy` compiles the
harness text ``code`` (contract ``name``) with the committed ``contracts/src`` files it
names, with the pinned solc-js and the build's optimizer settings, and deploys it in a
fresh revm; :func:`raw` calls it with any call data (as the ABI writes it, or not).
Tests using it need ``SOLC`` (the ``contracts-npm`` gate).
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

from proof_check_support import CALLER, new_evm
from pyrevm import EVM, AccountInfo
from setup_gate import needs

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "contracts" / "src"
sys.path.insert(0, str(ROOT / "bench"))

from gasprof import srcmap  # noqa: E402

from por.encoding import decode, encode  # noqa: E402

#: The mark of a test that compiles a harness (`cd contracts && npm ci`).
SOLC = needs("contracts-npm", srcmap.missing())

#: Gas a harness call may spend: far above any honest walk of the tests' documents, so a
#: broken loop that never ends fails instead of hanging the test.
CALL_GAS = 30_000_000

#: The pinned solc-js of ``contracts/`` on standard JSON from stdin.
COMPILE = """
import { createRequire } from "node:module";
const require = createRequire(process.argv[1] + "/contracts/package.json");
const solc = require("solc");
const input = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
process.stdout.write(solc.compile(JSON.stringify(input)));
"""


@cache
def deploy(name: str, code: str, files: tuple[str, ...]) -> tuple[EVM, str]:
    """(revm, address) of harness ``name`` compiled from ``code`` and ``files``."""
    sources = {f"src/{n}": {"content": (SRC / n).read_text(encoding="utf-8")} for n in files}
    sources[f"src/{name}.sol"] = {"content": code}
    settings = {
        "evmVersion": "cancun",
        "optimizer": {"enabled": True, "runs": 10000},
        "outputSelection": {f"src/{name}.sol": {name: ["evm.deployedBytecode.object"]}},
    }
    out = subprocess.run(
        ["node", "--input-type=module", "-e", COMPILE, str(ROOT)],  # noqa: S607
        input=json.dumps({"language": "Solidity", "sources": sources, "settings": settings}),
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    result = json.loads(out.stdout)
    errors = [e["formattedMessage"] for e in result.get("errors", []) if e["severity"] == "error"]
    assert not errors, errors
    obj = result["contracts"][f"src/{name}.sol"][name]["evm"]["deployedBytecode"]["object"]
    evm = new_evm()
    address = "0x" + "5d" * 20
    evm.insert_account_info(address, AccountInfo(code=bytes.fromhex(obj)))
    return evm, address


def raw(harness: tuple[EVM, str], calldata: bytes) -> bytes:
    """The harness's return data on ``calldata`` (at most ``CALL_GAS``: a loop that never
    ends fails instead of hanging)."""
    evm, address = harness
    return bytes(evm.message_call(CALLER, address, calldata, gas=CALL_GAS))


def item_offsets(items: list[object]) -> tuple[bytes, list[int]]:
    """One CBOR array of ``items`` (a harness call's data) and each item's offset in it."""
    data = encode(items)
    at, p = [], len(data) - sum(len(encode(x)) for x in items)
    for x in items:
        at.append(p)
        p += len(encode(x))
    assert decode(data) == items
    return data, at
