"""One traced call on anvil: the opcode trace of a settle or of a checkProof.

The settle runs as ``tests/chain/anvil_node.settle_fresh`` runs it (a fresh
deployment, the bundle proposed, the proof committed, then ``settleByProof``), on
an anvil started with ``--steps-tracing`` on 127.0.0.1.  ``debug_traceTransaction``
gives the geth-style opcode log (pc, op, gas left before the opcode, gasCost,
depth, refund; stack and memory disabled, so even the largest step's log stays
near 100 MB) and, with ``callTracer``, the call tree, whose calls in pre-order
are the trace's CALL-family opcodes in order: their targets name the code each
new frame runs.  (pyrevm's EIP-3155 tracer prints through Python's ``print`` a
token at a time, about a hundred opcodes a second: too slow for a settle.)
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass
from typing import Any

#: The anvil option that makes debug_traceTransaction return opcode logs.
STEPS = "--steps-tracing"
#: Opcode logs without stack, memory and storage (geth's struct logger options).
LEAN = {"disableStack": True, "disableMemory": True, "disableStorage": True}
#: A JavaScript tracer (anvil's geth-style JS tracers): the memory size before each
#: opcode, in the opcode log's order (slower: about 10 000 opcodes a second).
MEMORY_SIZES = ("{m: [], step: function(log) { this.m.push(log.memory.length()); }, "
                "fault: function() {}, result: function() { return this.m; }}")


@dataclass
class Traced:
    """A traced call: its opcode log, the targets of its calls in order, calldata,
    gas used, the called address and the code at every address it entered."""

    steps: list[dict[str, Any]]
    calls: list[str]
    #: The memory size (bytes) before each step, or None (not asked for).
    memory: list[int] | None
    calldata: bytes
    gas_used: int
    target: str
    codes: dict[str, bytes]


def _rpc(url: str, method: str, *params: Any) -> Any:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method,
                       "params": list(params)}).encode()
    request = urllib.request.Request(  # noqa: S310 - http://127.0.0.1 only
        url, body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=3600) as response:  # noqa: S310 - loopback
        reply = json.loads(response.read())
    if "error" in reply:
        raise SystemExit(f"gas_profile: {method}: {reply['error'].get('message')}")
    return reply["result"]


def _preorder(call: dict[str, Any]) -> list[str]:
    out = []
    for inner in call.get("calls", ()):
        out.append(str(inner["to"]).lower())
        out += _preorder(inner)
    return out


def traced(node: Any, receipt: dict[str, Any], memory: bool = False) -> Traced:
    """The opcode log, call targets and calldata of the mined transaction ``receipt``
    (and the memory sizes, when ``memory``)."""
    tx = receipt["transactionHash"]
    calldata = bytes.fromhex(node.rpc("eth_getTransactionByHash", tx)["input"][2:])
    log = _rpc(node.url, "debug_traceTransaction", tx, LEAN)
    tree = _rpc(node.url, "debug_traceTransaction", tx, {"tracer": "callTracer"})
    calls = _preorder(tree)
    sizes = [int(n) for n in _rpc(node.url, "debug_traceTransaction", tx,
                                  {"tracer": MEMORY_SIZES})] if memory else None
    target = str(receipt["to"]).lower()
    codes = {a: bytes.fromhex(node.rpc("eth_getCode", a, "latest")[2:])
             for a in sorted({target, *calls})}
    return Traced(log["structLogs"], calls, sizes, calldata, int(receipt["gasUsed"], 16),
                  target, codes)


def settle(node: Any, bundle: bytes, proof: bytes, memory: bool = False) -> Traced:
    """``settleByProof`` of ``proof`` on ``bundle``'s market, as anvil_node runs it."""
    from anvil_node import settle_fresh

    return traced(node, settle_fresh(node, bundle, proof), memory)


def check_proof(node: Any, proof: bytes, memory: bool = False) -> Traced:
    """``PorProofCheck.checkProof(bytes)`` alone on ``proof``, sent as a transaction
    to the deployed checker (bench/gas_steps.py's ``checkProof`` column)."""
    from deployment import deploy_checker
    from eth_abi import encode
    from proof_check_support import _selector

    sender = node.rpc("eth_accounts")[0]
    checker = deploy_checker(lambda code: str(node.send(sender, None, code)["contractAddress"]))
    data = _selector("checkProof(bytes)") + encode(["bytes"], [proof])
    return traced(node, node.send(sender, checker, data), memory)
