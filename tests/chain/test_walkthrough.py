"""docs/chain-walkthrough.md, run: the `cast` walk-through of a full dispute (propose,
find the lie, commit, settle by proof, which pays the finder) against an anvil this test starts on
127.0.0.1, with the page's own commands, so the text cannot rot (issue 24 item 5).

The block after the page's ``<!-- walkthrough`` marker runs in bash, in a temporary
directory holding the oracle's signed lie and a link to ``contracts/``, with
``ETH_RPC_URL`` set to the test's anvil, ``cast`` and ``anvil`` from npm and a ``por``
that is this checkout's ``python -m por`` on the PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from anvil_node import ANVIL, Node, anvil
from chain_support import (
    CHAIN_ID,
    ROOT,
    T0,
    TEST_ONLY_SECRET,
    bundle_proposal,
    call_data,
    create_address,
)
from deployment import deployed_before_checker
from setup_gate import needs

from por.chain import market_key
from por.signing.eip712 import market_id_from_text

sys.path.insert(0, str(ROOT / "tests" / "unit" / "challenge"))

PAGE = ROOT / "docs" / "chain-walkthrough.md"
#: The admin's nonce of the registry: after the families, the executors and the checker
#: (deployment.py).
REGISTRY_NONCE = deployed_before_checker() + 1
#: The platform binary, not the npm launcher (.bin/cast exits 0 when a call fails).
BIN = ROOT / "tests" / "chain" / "anvil" / "node_modules" / "@foundry-rs" / "cast-linux-amd64"
BIN /= "bin"
#: bash runs the page (the page is bash).
BASH = shutil.which("bash") or "/bin/bash"
_MISSING = None if ANVIL.exists() and (BIN / "cast").exists() else "anvil or cast is not installed"

pytestmark = [needs("anvil-npm", _MISSING),
              needs("jq", None if shutil.which("jq") else "jq is missing")]


def walkthrough() -> str:
    """The shell block after the page's walkthrough marker."""
    text = PAGE.read_text(encoding="utf-8")
    found = re.search(r"<!-- walkthrough[^>]*-->\n```sh\n(.*?)\n```", text, re.DOTALL)
    assert found is not None, "docs/chain-walkthrough.md lost its walkthrough block"
    return found.group(1)


def _signed_lie(node: Node, directory: Path) -> None:
    """Issue 22's lying bundle signed by the test-only key for the registry the page
    deploys (the admin's contract after the executors and the checker), and its proposeVerdict
    calldata."""
    from citation_support import reordered_08

    from por.bundle import sign_bundle
    from por.signing.eip712 import Eip712Domain
    from por.signing.keys import PrivateKey

    admin = node.rpc("eth_accounts")[0]
    registry = bytes.fromhex(create_address(admin.lower(), REGISTRY_NONCE)[2:])
    lie, _outcome = reordered_08()
    signed = sign_bundle(lie.to_cbor(), PrivateKey("secp256k1", TEST_ONLY_SECRET),
                         Eip712Domain(chain_id=CHAIN_ID, verifying_contract=registry),
                         issued_at=T0, expires_at=T0 + 7 * 24 * 3600, nonce=0)
    (directory / "signed-lie.cbor").write_bytes(signed)
    (directory / "propose.hex").write_text("0x" + bundle_proposal(lie.to_cbor(), CHAIN_ID,
                                                                  registry)[1].hex() + "\n")


def test_the_cast_walkthrough_plays_a_whole_dispute(tmp_path: Path) -> None:
    from citation_support import reordered_08
    from test_chain_settle import market_of

    tools = tmp_path / "bin"
    tools.mkdir()
    por = tools / "por"
    por.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m por "$@"\n', encoding="utf-8")
    por.chmod(0o755)
    (tmp_path / "contracts").symlink_to(ROOT / "contracts")
    with anvil() as node:
        _signed_lie(node, tmp_path)
        env = {**os.environ, "ETH_RPC_URL": node.url,
               "PATH": os.pathsep.join([str(tools), str(BIN), str(ANVIL.parent),
                                 os.environ.get("PATH", "")]),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                           os.environ.get("PYTHONPATH")]))}
        done = subprocess.run([BASH, "-c", walkthrough()], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        registry = create_address(node.rpc("eth_accounts")[0].lower(), REGISTRY_NONCE)
        lie = reordered_08()[0]
        market = market_key(market_id_from_text(market_of(lie)[1]),
                            lie.commitments.prompt_spec_hash)
        struck = node.view(registry, call_data("verdicts", market))
        assert int.from_bytes(struck[6 * 32:7 * 32], "big") == 1  # round 1
        assert int.from_bytes(struck[7 * 32:8 * 32], "big") == 2  # Struck
        assert node.balance(registry) == 0
    # The page's reads: not final before the settle; then struck (0), no credit left
    # (the proposer's bond was sent to the finder with the strike), the registry empty.
    reads = [line for line in done.stdout.split("\n")
             if re.fullmatch(r"(true|false|[0-9]+)( \[[0-9.e]+\])?", line)]
    assert [line.split(" ")[0] for line in reads] == ["false", "0", "0", "0"]
