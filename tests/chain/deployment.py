"""The on-chain deployment in one place (SPEC §14.8): ``contracts/deploy.json``.

Every deployer (revm :class:`chain_support.Chain`, :class:`proof_check_support.ProofChecker`,
anvil's :func:`anvil_node.deploy`, ``bench/gas.py`` through them, and the ``cast``
walk-through in docs/chain-walkthrough.md) deploys the FormProof's family contracts
(``families``, index = form tag, null = not on chain), then the executors that file lists,
in its order (``formProof``, the FormProof envelope, with the families' addresses by tag),
then PorProofCheck with their addresses, then the registry with the checker's. Adding an
executor is adding its contract name to ``executors`` there, a FormProof family naming it
at its tag in ``families`` (``contracts/compile.mjs`` builds every listed name).
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


def family_names() -> list[str | None]:
    """The FormProof's family contracts by form tag (None: not on chain)."""
    return list(deployment().get("families", []))


def deployed_before_checker() -> int:
    """How many contracts the deployer creates before PorProofCheck (its nonce): the
    families on chain (each name once), then the executors."""
    return len({name for name in family_names() if name}) + len(executor_names())


ZERO = "0x" + "00" * 20


def deploy_families(create: Callable[[bytes], str]) -> list[str]:
    """Deploy the families on chain in tag order, a name at two tags once (the
    PromptSpec's family serves 1 and 2); the envelope's constructor list."""
    made: dict[str, str] = {}
    for name in family_names():
        if name and name not in made:
            made[name] = create(creation_code(name))
    return [made[name] if name else ZERO for name in family_names()]


def executor_code(name: str, families: Sequence[str]) -> bytes:
    """Executor ``name``'s creation code, with the families' addresses for the
    FormProof envelope (``formProof``)."""
    args = encode(["address[]"], [list(families)]) if name == deployment().get("formProof") \
        else b""
    return creation_code(name) + args


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
    """Deploy the families, the executors, then PorProofCheck, each by ``create``
    (creation code -> the new contract's address, from one account); PorProofCheck's
    address. The checker is that account's contract number ``deployed_before_checker()``
    (0-based). ``extra``: creation codes of more executors, after the listed ones (tests)."""
    families = deploy_families(create)
    codes = [executor_code(name, families) for name in executor_names()] + list(extra)
    return create(checker_code([create(code) for code in codes]))
