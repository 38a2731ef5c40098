"""A local anvil node (npm ``@foundry-rs/anvil``, pinned in tests/chain/anvil/) on
127.0.0.1 and a plain-urllib JSON-RPC client for it: the real-node side of the
chain tests and of ``bench/gas.py``.  No web3: every call is one JSON-RPC request.

``anvil()`` starts the binary on a free loopback port with block time ``T0 + 10``
(so the tests' signed periods hold), chain id 31337 and four funded unlocked dev
accounts, waits until it answers, and stops it on exit.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from chain_support import (
    CHAIN_ID,
    ERRORS,
    PROPOSER_BOND,
    T0,
    TEST_ONLY_COURT,
    TEST_ONLY_SECRET,
    address_of,
    artifact,
    bundle_proposal,
    call_data,
    calldata_cost,
    deploy_args,
)
from deployment import deploy_checker

from por.chain.calldata import proof_commitment

HERE = Path(__file__).resolve().parent
_BIN = HERE / "anvil" / "node_modules" / "@foundry-rs" / "anvil-linux-amd64" / "bin" / "anvil"
#: The platform binary the npm package installs (its node launcher as a fallback).
ANVIL = _BIN if _BIN.exists() else HERE / "anvil" / "node_modules" / ".bin" / "anvil"
#: Gas of every transaction this client sends (no estimation: a revert is read by eth_call):
#: anvil's block gas limit, 30 000 000, since deploying an executor that creates its
#: helper contracts (PorAggregateExec: about 49 KB of code in all) takes over 10 000 000.
TX_GAS = 30_000_000


class RpcError(Exception):
    """A JSON-RPC error object."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message"))
        self.error = error


class Node:
    """JSON-RPC to one anvil process."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.ids = 0
        #: Receipt polls (25 ms apart) before a send gives up; bench/gas_profile.py
        #: raises it (a large step's block takes longer with --steps-tracing).
        self.polls = 400

    def rpc(self, method: str, *params: Any) -> Any:
        """One request; its ``result`` or :class:`RpcError`."""
        self.ids += 1
        body = json.dumps({"jsonrpc": "2.0", "id": self.ids, "method": method,
                           "params": list(params)}).encode()
        request = urllib.request.Request(  # noqa: S310 - http://127.0.0.1 only
            self.url, body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - loopback
            reply = json.loads(response.read())
        if "error" in reply:
            raise RpcError(reply["error"])
        return reply["result"]

    def send(self, sender: str, to: str | None, data: bytes, value: int = 0) -> dict[str, Any]:
        """A mined transaction's receipt (status 1 required), with ``fee`` (wei) and
        ``execution_gas`` (gas used minus the intrinsic 21 000 and calldata)."""
        tx = {"from": sender, "data": "0x" + data.hex(), "value": hex(value),
              "gas": hex(TX_GAS)}
        if to is not None:
            tx["to"] = to
        tx_hash = self.rpc("eth_sendTransaction", tx)
        receipt: dict[str, Any] | None = None
        for _ in range(self.polls):  # automine: the receipt appears as soon as the block is sealed
            receipt = self.rpc("eth_getTransactionReceipt", tx_hash)
            if receipt is not None:
                break
            time.sleep(0.025)
        assert receipt is not None and receipt["status"] == "0x1", receipt
        used = int(receipt["gasUsed"], 16)
        receipt["fee"] = used * int(receipt["effectiveGasPrice"], 16)
        receipt["execution_gas"] = used - 21_000 - calldata_cost(data)
        return receipt

    def revert_name(self, sender: str, to: str, data: bytes, value: int = 0) -> str:
        """The custom error the call would revert with (eth_call)."""
        try:
            self.rpc("eth_call", {"from": sender, "to": to, "data": "0x" + data.hex(),
                                  "value": hex(value)}, "latest")
        except RpcError as exc:
            raw = exc.error.get("data")
            raw = raw.get("data") if isinstance(raw, dict) else raw
            return ERRORS.get(bytes.fromhex(str(raw)[2:])[:4], ("<unknown>", []))[0]
        raise AssertionError("the call did not revert")

    def view(self, to: str, data: bytes) -> bytes:
        """eth_call's return data."""
        return bytes.fromhex(self.rpc("eth_call", {"to": to, "data": "0x" + data.hex()},
                                      "latest")[2:])

    def balance(self, account: str) -> int:
        """Wei held by ``account``."""
        return int(self.rpc("eth_getBalance", account, "latest"), 16)

    def advance(self, seconds: int) -> None:
        """Move the clock and seal a block."""
        self.rpc("evm_increaseTime", seconds)
        self.rpc("evm_mine")


@contextlib.contextmanager
def anvil(*extra: str) -> Iterator[Node]:
    """A fresh anvil on a free 127.0.0.1 port, stopped on exit; ``extra``: more
    anvil options (bench/gas_profile.py: ``--steps-tracing``)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [str(ANVIL), "--host", "127.0.0.1", "--port", str(port), "--timestamp", str(T0 + 10),
         "--accounts", "4", "--chain-id", str(CHAIN_ID), *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    node = Node(f"http://127.0.0.1:{port}")
    try:
        for _ in range(400):
            try:
                node.rpc("eth_chainId")
                break
            except OSError:
                time.sleep(0.05)
        yield node
    finally:
        process.terminate()
        process.wait(timeout=10)


def deploy(node: Node) -> tuple[str, list[str]]:
    """The committed executors and PorProofCheck (deployment.py), then the registry
    using it, deployed by dev account 0
    (the registry's admin), the test-only
    key its signer and the test court its resolver; (address, the dev accounts)."""
    accounts: list[str] = node.rpc("eth_accounts")
    checker = deploy_checker(
        lambda code: str(node.send(accounts[0], None, code)["contractAddress"]))
    code = bytes.fromhex(artifact()["bytecode"][2:]) + deploy_args(
        ["0x" + address_of(TEST_ONLY_SECRET).hex()], accounts[0],
        "0x" + address_of(TEST_ONLY_COURT).hex(), checker)
    registry: str = node.send(accounts[0], None, code)["contractAddress"]
    return registry, accounts


def settle_fresh(node: Node, bundle: bytes, proof: bytes, kind: bytes | None = None
                 ) -> dict[str, Any]:
    """A fresh deployment on ``node`` (:func:`deploy`), ``bundle`` proposed by dev
    account 1, ``proof`` committed by dev account 2 (no credit held) and settled by it
    a block later (automine); the settle's receipt (with ``execution_gas``). With
    ``kind`` (a FormStepProof's ``keccak256("form:" || kind)``), ``proof`` is its args,
    committed as ``kind || args`` and sent to ``settleByForms``."""
    registry, accounts = deploy(node)
    oracle, finder = accounts[1], accounts[2]
    market, propose = bundle_proposal(bundle, CHAIN_ID, bytes.fromhex(registry[2:]))
    node.send(oracle, registry, propose, PROPOSER_BOND)
    hashed = proof if kind is None else kind + proof
    node.send(finder, registry, call_data("commitProof", proof_commitment(
        market, hashed, bytes.fromhex(finder[2:]))))
    if kind is not None:
        return node.send(finder, registry, call_data("settleByForms", market, kind, proof))
    return node.send(finder, registry, call_data("settleByProof", market, proof))
