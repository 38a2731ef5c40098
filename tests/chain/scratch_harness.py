"""A scratch contract compiled from the committed sources and deployed in revm (s37).

``test_skip_walks.py`` compiles one fixed harness; the s37 review tests need others
(libraries' internal functions exposed as external ones): :func:`deploy` compiles the
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
from test_skip_walks import CALL_GAS, COMPILE  # noqa: E402

#: The mark of a test that compiles a harness (`cd contracts && npm ci`).
SOLC = needs("contracts-npm", srcmap.missing())


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
