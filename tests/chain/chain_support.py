"""An in-process EVM (revm through pyrevm) with ``PorVerdictRegistry`` deployed
from the committed artifact, and helpers to call it and read its reverts.

Every call is a real EVM message call from an externally owned account: the
contract's bytecode runs exactly as on a chain (CANCUN rules, the artifact's
evmVersion), with ``block.timestamp`` and ``block.chainid`` set by the test.
A revert is raised as :class:`Reverted` with the custom error decoded from
the contract's ABI, so tests assert on error names, as por tests assert on
check ids.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deployment import deploy_checker, deployed_before_checker
from eth_abi import decode, encode
from pyrevm import EVM, BlockEnv, CfgEnv, Env

from por.chain import OPEN_CHALLENGE, PROPOSE_VERDICT, selector
from por.chain.calldata import VERDICT_TUPLE
from por.cli import main
from por.signing.eip712 import DOMAIN_TYPE, VERDICT_TYPE, keccak256
from por.signing.keys import PrivateKey, private_key_to_json
from por.signing.secp256k1 import address_from_public_key, public_key_from_secret, sign_digest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACT = ROOT / "contracts" / "build" / "PorVerdictRegistry.json"
#: Anvil/Hardhat's local chain id, so the domain is not mainnet's.
CHAIN_ID = 31337
#: 2026-01-01T00:00:00Z, the signing tests' fixed issued_at.
T0 = 1_767_225_600
ADMIN = "0x" + "ad" * 20
RESOLVER = "0x" + "5e" * 20
CHALLENGER = "0x" + "c4" * 20
#: The account that deploys the executors and PorProofCheck (deployment.py, SPEC
#: §14.8), so the registry stays ADMIN's first contract and keeps its address.
CHECKER_DEPLOYER = "0x" + "de" * 20
#: Intrinsic gas of a call transaction (yellow paper G_transaction).
TX_BASE_GAS = 21_000
#: The test deployment's bonds (wei) and dispute window (seconds).
PROPOSER_BOND = 10**17
CHALLENGER_BOND = 4 * 10**16
WINDOW = 2 * 24 * 3600
#: The bond a call carries unless the test says otherwise: the registry's for
#: proposeVerdict and openChallenge, none for the rest.
_DEFAULT_VALUE = {selector(PROPOSE_VERDICT): PROPOSER_BOND,
                  selector(OPEN_CHALLENGE): CHALLENGER_BOND}

_REVERT = re.compile(r"Revert \{ gas_used: (\d+), output: 0x([0-9a-f]*) \}")


def create_address(deployer: str, nonce: int = 0) -> str:
    """The CREATE address of ``deployer``'s contract at ``nonce`` (< 128):
    keccak256(rlp([deployer, nonce]))[12:] (yellow paper, eq. 86)."""
    sender = bytes.fromhex(deployer[2:])
    item = b"\x80" if nonce == 0 else bytes([nonce])
    return "0x" + keccak256(bytes([0xC0 + 21 + len(item), 0x94]) + sender + item)[12:].hex()


#: Where :class:`Chain` deploys PorProofCheck (after the families and the executors), the
#: registry's constructor argument.
PROOF_CHECK = create_address(CHECKER_DEPLOYER, deployed_before_checker())


def artifact() -> dict[str, Any]:
    """The committed build of the contract (contracts/build)."""
    loaded: dict[str, Any] = json.loads(ARTIFACT.read_text(encoding="utf-8"))
    return loaded


def _signature(item: dict[str, Any]) -> str:
    return f"{item['name']}({','.join(_type(i) for i in item['inputs'])})"


def _type(item: dict[str, Any]) -> str:
    kind: str = item["type"]
    if kind.startswith("tuple"):
        return "(" + ",".join(_type(c) for c in item["components"]) + ")" + kind[5:]
    return kind


ERRORS = {selector(_signature(e)): (e["name"], [_type(i) for i in e["inputs"]])
          for e in artifact()["abi"] if e["type"] == "error"}
FUNCTIONS = {f["name"]: f for f in artifact()["abi"] if f["type"] == "function"}


class Reverted(Exception):
    """A call reverted with a custom error of the contract (or raw data)."""

    def __init__(self, data: bytes, gas_used: int) -> None:
        self.data = data
        self.gas_used = gas_used
        name, types = ERRORS.get(data[:4], ("<unknown>", []))
        self.name = name
        self.args_ = tuple(decode(types, data[4:])) if types else ()
        super().__init__(f"{name}{self.args_}")


def calldata_cost(data: bytes) -> int:
    """EIP-2028 calldata gas: 4 per zero byte, 16 per other byte."""
    return sum(4 if b == 0 else 16 for b in data)


@dataclass
class Outcome:
    """A successful call: its return data and gas."""

    output: bytes
    gas_used: int
    calldata: bytes
    #: (topics, data) of each log the call emitted.
    logs: list[tuple[list[bytes], bytes]]

    @property
    def execution_gas(self) -> int:
        """Gas the contract's code used: total minus the intrinsic 21 000 and calldata."""
        return self.gas_used - TX_BASE_GAS - calldata_cost(self.calldata)


class Chain:
    """One EVM with the registry deployed at a fixed address."""

    def __init__(self, *, chain_id: int = CHAIN_ID, timestamp: int = T0,
                 signers: tuple[str, ...] = ()) -> None:
        #: ``block.number`` and ``block.timestamp`` of the following calls.
        self.number, self.timestamp = 1, timestamp
        env = Env(cfg=CfgEnv(chain_id=chain_id), block=BlockEnv(number=1, timestamp=timestamp))
        self.evm = EVM(env=env, spec_id="CANCUN")
        self.chain_id = chain_id
        for account in (ADMIN, RESOLVER, CHALLENGER, CHECKER_DEPLOYER):
            self.evm.set_balance(account, 10**21)
        checker = deploy_checker(lambda code: str(self.evm.deploy(CHECKER_DEPLOYER, code)))
        assert checker.lower() == PROOF_CHECK
        code = bytes.fromhex(artifact()["bytecode"][2:])
        args = deploy_args(list(signers))
        self.address: str = self.evm.deploy(ADMIN, code + args)
        #: The last successful :meth:`send`.
        self.last: Outcome | None = None
        self.contract = bytes.fromhex(self.address[2:])

    def set_time(self, timestamp: int) -> None:
        """``block.timestamp`` of the following calls (same block number)."""
        self.timestamp = timestamp
        self.evm.set_block_env(BlockEnv(number=self.number, timestamp=timestamp))

    def mine(self) -> None:
        """The following calls are in the next block (same timestamp)."""
        self.number += 1
        self.evm.set_block_env(BlockEnv(number=self.number, timestamp=self.timestamp))

    def commit_proof(self, market: bytes, proof: bytes, sender: str) -> None:
        """``commitProof`` for ``sender`` settling ``proof`` on ``market``, then the next
        block, where ``settleByProof`` from ``sender`` may pay it (SPEC §14.4)."""
        from por.chain.calldata import proof_commitment

        commitment = proof_commitment(market, proof, bytes.fromhex(sender[2:]))
        self.send(call_data("commitProof", commitment), sender=sender)
        self.mine()

    def send(self, data: bytes, *, sender: str = ADMIN, to: str | None = None,
             value: int | None = None) -> Outcome:
        """A state-changing call; raises :class:`Reverted` on a revert.  ``value``
        defaults to the bond the function takes (none for the others)."""
        if value is None:
            value = _DEFAULT_VALUE.get(data[:4], 0)
        try:
            output = self.evm.message_call(sender, to or self.address, data, value=value)
        except RuntimeError as exc:
            match = _REVERT.fullmatch(str(exc))
            if match is None:
                raise
            raise Reverted(bytes.fromhex(match.group(2)), int(match.group(1))) from None
        result = self.evm.result
        logs = [([bytes(t) for t in log.data[0]], bytes(log.data[1])) for log in result.logs]
        self.last = Outcome(bytes(output), result.gas_used, data, logs)
        return self.last

    def balance(self, account: str) -> int:
        """Wei held by ``account``."""
        return int(self.evm.get_balance(account))

    def call(self, name: str, *args: Any, sender: str = ADMIN, value: int | None = None) -> Any:
        """Call contract function ``name`` with ABI-encoded ``args``; decoded result."""
        out = self.send(call_data(name, *args), sender=sender, value=value)
        values = decode([_type(o) for o in FUNCTIONS[name]["outputs"]], out.output)
        return values[0] if len(values) == 1 else values


def deploy_args(signers: list[str], admin: str = ADMIN, resolver: str = RESOLVER,
                proof_check: str = PROOF_CHECK, *, bonds: tuple[int, int] = (
                    PROPOSER_BOND, CHALLENGER_BOND), window: int = WINDOW) -> bytes:
    """The constructor's arguments: admin, resolver, signers, bonds, window and the
    PorProofCheck address."""
    return encode(["address", "address", "address[]", "uint256", "uint256", "uint64", "address"],
                  [admin, resolver, signers, *bonds, window, proof_check])


def call_data(name: str, *args: Any) -> bytes:
    """ABI calldata of contract function ``name`` (from the artifact's ABI)."""
    item = FUNCTIONS[name]
    types = [_type(i) for i in item["inputs"]]
    return selector(_signature(item)) + encode(types, list(args))


def reverts(chain: Chain, data: bytes, **kwargs: Any) -> Reverted:
    """The revert of a call that must revert."""
    try:
        chain.send(data, **kwargs)
    except Reverted as exc:
        return exc
    raise AssertionError("the call did not revert")


# --- signing (test-only keys: their secrets are SHA-256 of public labels) ------------------

#: The registered signer: the signing tests' test-only secp256k1 key.
TEST_ONLY_SECRET = hashlib.sha256(b"por test-only secp256k1 key").digest()
#: A key the registry does not know.
TEST_ONLY_STRANGER = hashlib.sha256(b"por test-only secp256k1 key: not registered").digest()
MARKETS = ROOT / "fixtures" / "markets"
DEMO_BUNDLES = ROOT / "fixtures" / "bundles" / "valid"


def address_of(secret: bytes) -> bytes:
    """The Ethereum address of a secp256k1 secret."""
    return address_from_public_key(public_key_from_secret(secret))


def write_key(directory: Path, name: str, secret: bytes) -> str:
    """A ``por.PrivateKey/1`` file (mode 0600, as ``por keygen`` writes it)."""
    path = directory / name
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(private_key_to_json(PrivateKey("secp256k1", secret)))
    return str(path)


def por(*argv: str) -> str:
    """Run ``por`` in process; exit 0 required; its standard output."""
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        code = main(list(argv))
    assert code == 0, (argv, printed.getvalue())
    return printed.getvalue()


def raw_digest(words: tuple[Any, ...], chain_id: int, contract: bytes) -> bytes:
    """SPEC §8.3 from the raw twelve values (no range checks: for out-of-range
    canaries), written out again here rather than through por.signing."""
    type_hash = keccak256(VERDICT_TYPE.encode("ascii"))
    body = b"".join(w if isinstance(w, bytes) else w.to_bytes(32, "big") for w in words)
    struct = keccak256(type_hash + body)
    domain = keccak256(keccak256(DOMAIN_TYPE.encode("ascii")) + keccak256(b"por")
                       + keccak256(b"1") + chain_id.to_bytes(32, "big") + bytes(12) + contract)
    return keccak256(b"\x19\x01" + domain + struct)


#: por_root -> the PromptSpec component's path (PATH(1, 7), SPEC §5.4) of every verdict
#: a test built (bundles, synthetic trees): what :func:`submit_data` sends by default.
PROMPT_PATHS: dict[bytes, list[bytes]] = {}


def key_of(words: tuple[Any, ...]) -> bytes:
    """The market key of Verdict ``words`` (SPEC §14.2): por.chain's, from marketId and
    promptSpecHash."""
    from por.chain import market_key

    return market_key(words[0], words[3])


def remember_path(commitments: Any) -> list[bytes]:
    """The bundle commitments' PromptSpec path, remembered for its por_root."""
    from por.chain.documents import prompt_spec_path

    path = prompt_spec_path(commitments)
    PROMPT_PATHS[commitments.por_root] = path
    return path


def submit_data(words: tuple[Any, ...], signer: bytes, signature: bytes,
                path: list[bytes] | None = None) -> bytes:
    """proposeVerdict calldata from raw values (eth-abi, no por.chain checks); ``path``
    defaults to the one remembered for the words' por_root (3 zero hashes if none)."""
    if path is None:
        path = PROMPT_PATHS.get(words[8], [bytes(32)] * 3)
    return selector(PROPOSE_VERDICT) + encode([VERDICT_TUPLE, "bytes32[]", "address", "bytes"],
                                             [words, path, "0x" + signer.hex(), signature])


# --- the court: rulings signed by a test-only resolver key -------------------------------

#: The dispute court's (resolver's) test-only key.
TEST_ONLY_COURT = hashlib.sha256(b"por test-only secp256k1 key: dispute court").digest()


def ruling_calldata(contract: bytes, market: bytes, leaf: tuple[int, int, bytes], *,
                    challenger: str, case: bytes, upheld: bool, chain_id: int = CHAIN_ID) -> bytes:
    """submitRuling calldata: the test court's Ruling on ``case`` about ``leaf``
    (component, index, leaf hash) of ``market``, relayed for ``challenger``."""
    from por.chain.calldata import leaf_id, submit_ruling_calldata
    from por.court.eip712 import RulingStruct, sign_ruling
    from por.signing.eip712 import Eip712Domain

    component, index, hashed = leaf
    struct = RulingStruct(leaf_id(market, component, index), market, hashed, upheld,
                          10 if upheld else 90, case, bytes(32), T0, T0 + 1000 * WEEK)
    record = sign_ruling(struct, TEST_ONLY_COURT,
                         Eip712Domain(chain_id=chain_id, verifying_contract=contract))
    words = tuple(getattr(struct, f) for f in RulingStruct.__dataclass_fields__)
    return submit_ruling_calldata(words, record.signature, bytes.fromhex(challenger[2:]))


# --- markets: verdicts registered on chain -----------------------------------------------

WEEK = 7 * 24 * 3600


def register_bundle(chain: Chain, data: bytes, nonce: int = 0) -> bytes:
    """Sign ``data`` for ``chain`` with the test-only key (por.bundle.sign_bundle),
    propose it with ``por.chain``'s calldata (``nonce``: the market key's round); the
    market key."""
    market_id, propose = bundle_proposal(data, chain.chain_id, chain.contract, nonce)
    chain.set_time(T0 + 1)
    chain.send(propose)
    return market_id


def settled(lie: bytes, proof: bytes) -> Outcome:
    """``settleByProof`` of ``proof`` against the bundle ``lie`` on a fresh chain (revm):
    ``lie`` proposed by the test-only signer, ``proof`` committed by ``ADMIN`` a block
    earlier (SPEC §14.4); the settle's outcome (the benches' and tests' one sequence;
    ``anvil_node.settle_fresh`` is the same on anvil)."""
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    market = register_bundle(chain, lie)
    chain.commit_proof(market, proof, ADMIN)
    return chain.send(call_data("settleByProof", market, proof))


def bundle_proposal(data: bytes, chain_id: int, contract: bytes, nonce: int = 0, *,
                    weeks: int = 1) -> tuple[bytes, bytes]:
    """(market key, proposeVerdict calldata) of bundle ``data`` signed by the test-only
    key for ``contract`` on ``chain_id``, valid from T0 for ``weeks``."""
    from por.bundle import Bundle, sign_bundle
    from por.chain import market_key
    from por.chain.documents import verdict_call
    from por.cli.attestation import signed_verdict
    from por.signing.eip712 import Eip712Domain

    domain = Eip712Domain(chain_id=chain_id, verifying_contract=contract)
    signed = sign_bundle(data, PrivateKey("secp256k1", TEST_ONLY_SECRET), domain,
                         issued_at=T0, expires_at=T0 + weeks * WEEK, nonce=nonce)
    record, struct, _count = signed_verdict(signed, 0)
    path = remember_path(Bundle.from_cbor(data).commitments)
    call = verdict_call(record, struct, path)
    key = market_key(struct.market_id, struct.prompt_spec_hash)
    MARKET_IDS[key] = (struct.market_id, struct.prompt_spec_hash)
    return key, bytes.fromhex(call["data_hex"][2:])


def synthetic_market(chain: Chain, kind: str, size: int, index: int, leaf: bytes, *,
                     nonce: int, round_: int = 0, market: bytes | None = None,
                     sender: str = ADMIN) -> tuple[bytes, Any]:
    """:func:`synthetic_verdict` signed and proposed on ``chain`` (at ``T0 + 1`` for a
    new market); ``nonce`` picks the tree, ``round_`` is the signed nonce, ``market``
    (a market key this returned) re-proposes on an existing market.  Returns (the market
    key, the por.InclusionProof)."""
    market_id, spec = (None, None) if market is None else MARKET_IDS[market]
    words, proof = synthetic_verdict(kind, size, index, leaf, nonce=nonce, round_=round_,
                                     market=market_id, prompt_spec=spec)
    if market is None:
        chain.set_time(T0 + 1)
    chain.send(propose_data(words, chain.chain_id, chain.contract), sender=sender)
    key = key_of(words)
    MARKET_IDS[key] = (words[0], words[3])
    return key, proof


#: market key -> (marketId, promptSpecHash) of the markets proposed here.
MARKET_IDS: dict[bytes, tuple[bytes, bytes]] = {}


def propose_data(words: tuple[Any, ...], chain_id: int, contract: bytes) -> bytes:
    """proposeVerdict calldata of ``words`` signed by the test-only key for ``contract``."""
    signature = sign_digest(TEST_ONLY_SECRET, raw_digest(words, chain_id, contract))
    return submit_data(words, address_of(TEST_ONLY_SECRET), signature)


def synthetic_verdict(kind: str, size: int, index: int, leaf: bytes, *, nonce: int,
                      round_: int = 0, market: bytes | None = None,
                      prompt_spec: bytes | None = None) -> tuple[tuple[Any, ...], Any]:
    """The Verdict words of a market whose ``kind`` component has ``size`` leaves,
    ``leaf`` at ``index``, without building the tree: any sibling hashes define
    *some* tree of that size, and the contract does the same work for it as for a
    built one.  ``market`` is a marketId; the PromptSpec hash ``prompt_spec``, by default
    a function of the marketId, so one marketId is one market key.  Returns (the words,
    the leaf's por.InclusionProof)."""
    from por.bundle.layout import COMPONENTS, component_leaf
    from por.challenge.records import KIND_COMPONENT, InclusionProof, seal
    from por.merkle import (
        inclusion_proof_from_leaf_hashes,
        inclusion_sides,
        leaf_hash,
        root_from_inclusion_proof,
        root_from_leaf_hashes,
    )

    seed = f"{kind}/{size}/{index}/{nonce}".encode()
    path = [hashlib.sha256(seed + j.to_bytes(2, "big")).digest()
            for j in range(len(inclusion_sides(index, size)))]
    root = root_from_inclusion_proof(leaf_hash(leaf), index, size, path)
    component = KIND_COMPONENT[kind]
    market_id = market or keccak256(seed)
    pairs = {name: (hashlib.sha256(seed + name.encode()).digest(), 1) for name in COMPONENTS}
    pairs["prompt_spec"] = (prompt_spec or hashlib.sha256(b"prompt_spec" + market_id).digest(), 1)
    pairs["evidence"] = (pairs["evidence"][0], 3)
    pairs["reasoning"] = (pairs["reasoning"][0], 4)
    pairs[component] = (root, size)
    hashes = [leaf_hash(component_leaf(*pairs[name])) for name in COMPONENTS]
    por_root = root_from_leaf_hashes(hashes)
    position = COMPONENTS.index(component)
    proof = seal(InclusionProof, {
        "schema": InclusionProof.SCHEMA, "kind": kind, "component": component, "leaf": leaf,
        "leaf_index": index, "tree_size": size, "leaf_path": path, "component_root": root,
        "component_path": inclusion_proof_from_leaf_hashes(hashes, position),
        "por_root": por_root})
    PROMPT_PATHS[por_root] = inclusion_proof_from_leaf_hashes(hashes, 1)
    words = (market_id, 1, 9000, pairs["prompt_spec"][0], *pairs["evidence"],
             *pairs["reasoning"], por_root, T0, T0 + 1000 * WEEK, round_)
    return words, proof
