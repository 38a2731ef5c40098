"""The registry's court path (SPEC §14.4, §16.7) in revm.

A PoR bundle's verdict is proposed, a challenger opens a challenge on the
disputed leaf with its DisputeCase hash and bond, a panel rules (scripted answers
through the locked-call path, recorded and verified offline), the resolver's key
signs the EIP-712 Ruling with por's signing stack, and anyone relays it with
``submitRuling`` for that challenger: it settles only the challenge of its case.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from chain_support import (
    ADMIN,
    CHALLENGER,
    CHALLENGER_BOND,
    PROPOSER_BOND,
    RESOLVER,
    ROOT,
    T0,
    TEST_ONLY_COURT,
    TEST_ONLY_SECRET,
    TEST_ONLY_STRANGER,
    WEEK,
    Chain,
    address_of,
    por,
    register_bundle,
    reverts,
)
from eth_abi import encode
from jsonschema import Draft202012Validator

from por.bundle import build_bundle
from por.bundle.layout import Bundle
from por.chain import open_challenge_calldata, selector
from por.chain.calldata import (
    RULING_TUPLE,
    SUBMIT_RULING,
    challenge_id,
    submit_ruling_calldata,
)
from por.challenge.proofs import build_inclusion_proof
from por.cli.judge_run import resolve_config
from por.cli.schema import schema_for
from por.court.case import DisputeCase, open_case
from por.court.config import court_rule
from por.court.eip712 import (
    RulingStruct,
    check_ruling_signature,
    ruling_digest,
    ruling_struct,
    sign_ruling,
)
from por.court.panel import rule_case
from por.court.verify import CourtSummary, verify_court
from por.locked_judges.outcome import Exchange
from por.locked_judges.wire import response_format, wire_model_name, wire_number
from por.scenarios import list_scenarios, load_scenario
from por.signing.eip712 import Eip712Domain

COURT = ROOT / "fixtures" / "court"
#: SPEC §16.7: relaying a ruling (ecrecover, the settlement's slot updates, events).
RULING_GAS_TARGET = 70_000


def _answer(manifest: Any, messages: list[dict[str, str]], pct: int) -> Exchange:
    body: dict[str, Any] = {"model": wire_model_name(manifest), "messages": messages,
                            "response_format": response_format(manifest)}
    body |= {name: wire_number(text) for name, text in manifest.parameters.items()}
    content = json.dumps({"worker_pct": pct, "reasoning": "scripted"})
    response = json.dumps({"id": "x", "object": "chat.completion", "created": 1,
                           "model": manifest.model.version_lock, "choices": [
                               {"index": 0, "message": {"role": "assistant",
                                                        "content": content}}]}).encode()
    return Exchange(json.dumps(body).encode(), 200, response)


def rule(case: DisputeCase, pcts: tuple[int, int, int]) -> CourtSummary:
    locks = [resolve_config(str(COURT / f"judge-{i}.yaml")) for i in range(3)]

    async def wire(manifest: Any, messages: list[dict[str, str]], call_id: str) -> Exchange:
        del call_id
        return _answer(manifest, messages, pcts[int(manifest.judge_id[-1])])

    data = asyncio.run(rule_case(case, court_rule({"panel": 3, "quorum": 3, "appeal_quorum": 7},
                                                  3, T0), locks, [wire] * 3))
    return verify_court(data)


def _open(chain: Chain, case: DisputeCase, sender: str) -> bytes:
    """Open a challenge on the case's leaf with its case hash; the registry's id."""
    proof = build_inclusion_proof(Bundle.from_cbor(case.bundle), case.leaf_kind, case.leaf_index)
    opened = chain.send(open_challenge_calldata(case.market_key, case.case_hash(), proof),
                        sender=sender).output
    assert opened == challenge_id(case.challenge_id, case.leaf_hash,
                                  bytes.fromhex(sender[2:]), case.case_hash())
    return opened


@pytest.fixture
def setup() -> dict[str, Any]:
    """A registry with market 0's verdict, the court as resolver, a challenge on evidence 0."""
    scenario = load_scenario(list_scenarios()[0])
    data = build_bundle(scenario.prompt_spec, scenario.evidence)
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    market_key = register_bundle(chain, data)
    chain.call("setResolver", "0x" + address_of(TEST_ONLY_COURT).hex(), sender=ADMIN)
    case = open_case(data, kind="evidence_leaf", leaf_index=0, reward=0,
                     claim="The newsroom is not the source the market meant.", rebuttal=None)
    assert case.market_key == market_key
    opened = _open(chain, case, CHALLENGER)
    assert chain.call("challenges", opened)[2] == 1  # Open
    domain = Eip712Domain(chain_id=chain.chain_id, verifying_contract=chain.contract)
    return {"chain": chain, "case": case, "market_key": market_key, "domain": domain,
            "data": data, "challenge_id": opened}


def _words(r: RulingStruct) -> tuple[Any, ...]:
    return tuple(getattr(r, f) for f in RulingStruct.__dataclass_fields__)


def _submit(setup: dict[str, Any], struct: RulingStruct, secret: bytes = TEST_ONLY_COURT,
            challenger: str = CHALLENGER) -> bytes:
    record = sign_ruling(struct, secret, setup["domain"])
    return submit_ruling_calldata(_words(record.struct()), record.signature,
                                  bytes.fromhex(challenger[2:]))


@pytest.mark.parametrize(("pcts", "upheld"), [((10, 30, 80), True), ((80, 60, 20), False)])
def test_a_signed_ruling_settles_the_open_challenge(setup: dict[str, Any],
                                                    pcts: tuple[int, int, int],
                                                    upheld: bool, tmp_path: Path) -> None:
    chain: Chain = setup["chain"]
    summary = rule(setup["case"], pcts)
    struct = ruling_struct(summary, issued_at=T0, expires_at=T0 + WEEK)
    assert struct.upheld is upheld
    record = sign_ruling(struct, TEST_ONLY_COURT, setup["domain"])
    check_ruling_signature(record, summary)  # offline first
    view = selector(f"rulingDigest({RULING_TUPLE})") + encode([RULING_TUPLE], [_words(struct)])
    assert chain.send(view).output == ruling_digest(struct, setup["domain"])
    chain.set_time(T0 + 2)
    signature_file = tmp_path / "ruling.sig.cbor"
    signature_file.write_bytes(record.to_cbor())
    document = json.loads(por("chain", "ruling", str(signature_file), "--challenger",
                              CHALLENGER, "--json"))
    assert list(Draft202012Validator(schema_for("calldata")).iter_errors(document)) == []
    relay = document["calldata"]
    assert relay["data_hex"] == "0x" + _submit(setup, struct).hex()
    assert relay["challenge_id_hex"] == "0x" + setup["challenge_id"].hex()
    outcome = chain.send(_submit(setup, struct), sender=RESOLVER)  # anyone relays it
    print(f"submitRuling execution gas {outcome.execution_gas}")
    assert outcome.execution_gas <= RULING_GAS_TARGET
    assert chain.call("challenges", setup["challenge_id"])[2] == (2 if upheld else 3)
    on_chain = chain.call("verdicts", setup["market_key"])
    assert on_chain[7] == (2 if upheld else 1)  # Struck, or still Proposed
    winner = CHALLENGER if upheld else ADMIN  # ADMIN proposed it
    paid = CHALLENGER_BOND + PROPOSER_BOND if upheld else CHALLENGER_BOND
    assert chain.call("withdrawable", winner) == paid
    again = reverts(chain, _submit(setup, struct), sender=CHALLENGER)
    assert again.name == "ChallengeNotOpen"


def test_a_sham_case_cannot_settle_another_challengers_challenge(setup: dict[str, Any]) -> None:
    """Issue 24: the oracle files its own conceding case on the same leaf; the court
    rejects it; that ruling settles the oracle's challenge only, and the court's
    ruling on the honest case still settles the honest one."""
    chain: Chain = setup["chain"]
    sham = open_case(setup["data"], kind="evidence_leaf", leaf_index=0, reward=0,
                     claim="I concede nothing is wrong here.", rebuttal=None)
    sham_id = _open(chain, sham, ADMIN)
    chain.set_time(T0 + 2)
    sham_ruling = ruling_struct(rule(sham, (90, 90, 90)), issued_at=T0, expires_at=T0 + WEEK)
    for relayed_for in (CHALLENGER, RESOLVER):  # relayed for the honest challenger, or anyone
        assert reverts(chain, _submit(setup, sham_ruling, challenger=relayed_for)
                       ).name == "ChallengeNotOpen"
    chain.send(_submit(setup, sham_ruling, challenger=ADMIN))
    assert chain.call("challenges", sham_id)[2] == 3  # Rejected
    assert chain.call("challenges", setup["challenge_id"])[2] == 1  # still Open
    honest = ruling_struct(rule(setup["case"], (10, 10, 10)), issued_at=T0, expires_at=T0 + WEEK)
    chain.send(_submit(setup, honest))
    assert chain.call("challenges", setup["challenge_id"])[2] == 2  # Upheld
    assert chain.call("finalOutcome", setup["market_key"]) == 0  # struck


def test_the_registry_refuses_what_the_court_did_not_sign(setup: dict[str, Any]) -> None:
    chain: Chain = setup["chain"]
    struct = ruling_struct(rule(setup["case"], (80, 60, 20)), issued_at=T0,
                           expires_at=T0 + WEEK)
    chain.set_time(T0 + 2)
    cases = {
        "SignatureInvalid": _submit(setup, struct, TEST_ONLY_STRANGER),
        "RulingValue": _submit(setup, replace(struct, upheld=True)),
        "ChallengeNotOpen": _submit(setup, replace(struct, challenge_id=bytes(32))),
        "Expired": _submit(setup, replace(struct, expires_at=T0 + 1)),
        "NotYetValid": _submit(setup, replace(struct, issued_at=T0 + 5)),
    }
    for name, data in cases.items():
        assert reverts(chain, data, sender=CHALLENGER).name == name, name
    for edit in (replace(struct, leaf_hash=bytes(32)), replace(struct, case_hash=bytes(32))):
        assert reverts(chain, _submit(setup, edit), sender=CHALLENGER).name == "ChallengeNotOpen"
    relabelled = bytearray(_submit(setup, struct))
    relabelled[4 + 5 * 32 - 1] ^= 1  # workerPct 60 -> 61 after signing
    assert reverts(chain, bytes(relabelled), sender=CHALLENGER).name == "SignatureInvalid"
    assert selector(SUBMIT_RULING) == bytes(relabelled[:4])
