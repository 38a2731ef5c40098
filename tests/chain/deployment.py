"""The on-chain deployment in one place (SPEC §14.8): ``contracts/deploy.json``.

Every deployer (revm :class:`chain_support.Chain`, :class:`proof_check_support.ProofChecker`,
anvil's :func:`anvil_node.deploy`, ``bench/gas.py`` through them, and the ``cast``
walk-through in docs/chain-walkthrough.md) deploys the executors that file lists, in
its order, then PorProofCheck with their addresses, then the registry with the
checker's. Adding an executor is adding its contract name to ``executors`` there
(``contracts/compile.mjs`` builds every listed name).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from eth_abi import encode

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "contracts" / "deploy.json"
BUILD = ROOT / "contracts" / "build"


def deployment() -> dict[str, Any]:
    """contracts/deploy.json."""
    loaded: dict[str, Any] = json.loads(DEPLOY.read_text(encoding="utf-8"))
    return loaded


def executor_names() -> list[str]:
    """The executors' contract names, in deployment order."""
    return list(deployment()["executors"])


def build_artifact(name: str) -> dict[str, Any]:
    """contracts/build/NAME.json."""
    loaded: dict[str, Any] = json.loads((BUILD / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def creation_code(name: str) -> bytes:
    """The committed creation code of contract ``name`` (no constructor arguments)."""
    return bytes.fromhex(build_artifact(name)["bytecode"][2:])


def checker_code(executors: list[str]) -> bytes:
    """PorProofCheck's creation code with its constructor argument, the executors'
    addresses in deployment order."""
    return creation_code(deployment()["checker"]) + encode(["address[]"], [executors])


def deploy_checker(create: Callable[[bytes], str], extra: Sequence[bytes] = ()) -> str:
    """Deploy the executors, then PorProofCheck, each by ``create`` (creation code ->
    the new contract's address, from one account); PorProofCheck's address. The
    checker is that account's contract number ``len(executor_names())`` (0-based).
    ``extra``: creation codes of more executors, after the listed ones (tests)."""
    codes = [creation_code(name) for name in executor_names()] + list(extra)
    return create(checker_code([create(code) for code in codes]))
