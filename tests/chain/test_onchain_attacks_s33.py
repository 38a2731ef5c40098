"""Attacks on the s33 wave's on-chain code (issue 24): the reader's recorded top-level
offsets and byte-string flag (``PorCborTop``), the typed ``PorInclusion.parse``, the
kinds' one-word key compares and decimals, and the registry's strike and payment.

Each proof case goes through ``PorProofCheck.checkProof`` (revm, the committed build)
and ``por check-proof``: the same WON/LOST and check id (a ``CourtPath`` revert, the
court's case, is counted and not compared). Families:

* step leaves whose top-level map has 15, 16 or 17 entries (extra keys sorting before
  and after the record's), byte strings nested deep in ``inputs``/``output`` or under
  a non-step key, an evidence item (a map with a byte-string value) carried as a step;
* keys of 23/24/25/31/32/33 bytes and keys sharing a 32-byte prefix in the step's and
  the carried claims' maps;
* InclusionProof parts at type edges: leaves of 23/24/255/256/65 535/65 536 bytes,
  paths of 0/64/65 siblings, tree_size/leaf_index at 2^63-1 and 2^63, component ids of
  128/129 code points and multi-byte UTF-8;
* claim values with 62 fractional digits and 63 digits (aggregate quorum,
  contradictions), groups written as arrays;
* registry sequences: a settle whose caller re-enters or burns gas in ``receive``, a
  settle twice, every root struck on a market (any earlier round) re-proposed, bonds
  conserved to the wei, finality not before the window.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, recommit
from chain_support import (
    ADMIN,
    CHALLENGER,
    CHALLENGER_BOND,
    PROPOSER_BOND,
    TEST_ONLY_SECRET,
    WINDOW,
    Chain,
    address_of,
    call_data,
    register_bundle,
    reverts,
)
from exec_support import judge_proof_carrying, recomputed
from proof_check_support import ProofChecker, citation_proof, python_answer
from test_chain_games import COURT_TIMEOUT, Game, case, lie
from test_onchain_omission import Prover
from test_onchain_step_cap import sent
from test_registry_strikes import _init

from por.bundle.layout import Bundle
from por.chain.calldata import proof_commitment
from por.challenge.one_step import build_one_step_proof
from por.challenge.records import challenge_id_from_body
from por.encoding import decode, encode
from por.errors import PorError
from por.scenarios import list_scenarios

COUNTS: Counter[str] = Counter()
#: Scenario 08: extract leaves 0-2, check 3, aggregate 4, contradictions 5, deduce 6, map 7.
MARKET = "08-quorum-agree"
STEPS = (3, 4, 5, 6, 7)
Value = dict[str, Any]


@pytest.fixture(scope="module")
def router() -> ProofChecker:
    return ProofChecker()


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    return honest(MARKET)


def same(router: ProofChecker, name: str, proof: bytes) -> None:
    """The router's (won, id) is Python's; a CourtPath revert is counted."""
    won, check_id, _gas = router.any_proof(proof)
    if check_id.startswith("court_path:"):
        COUNTS["court_path"] += 1
        return
    assert (won, check_id) == python_answer(proof), (name, proof.hex()[:300])
    COUNTS[f"{'won' if won else 'lost'}:{check_id}"] += 1


def one_step(router: ProofChecker, name: str, bundle: Bundle, index: int) -> None:
    """Step leaf ``index``'s one-step proof (por's, else the one a challenger sends)."""
    try:
        proof = bytes(build_one_step_proof(bundle, index).to_cbor())
    except PorError:
        proof = sent(bundle, index)
    same(router, name, proof)


def omissions(router: ProofChecker, name: str, bundle: Bundle, steps: list[int]) -> None:
    for label, proof in Prover(bundle).pairs(steps):
        same(router, f"{name} {label}", proof)


def edited(bundle: Bundle, index: int, edit: Callable[[Value], None]) -> Bundle:
    value = decode(bundle.steps[index])
    edit(value)
    steps = list(bundle.steps)
    steps[index] = encode(value)
    return recommit(bundle, steps=steps)


def every_step(router: ProofChecker, name: str, bundle: Bundle, index: int,
               edit: Callable[[Value], None]) -> None:
    """Step leaf ``index`` edited: its own one-step proof, and (an extract leaf) the
    one-step proofs carrying it and the OmissionProofs carrying it."""
    forged = edited(bundle, index, edit)
    if index < 3:
        for later in STEPS:
            one_step(router, f"{name} via {later}", forged, later)
        omissions(router, name, forged, [3, 4])
    else:
        one_step(router, name, forged, index)
        omissions(router, name, forged, [index])


def _extra(count: int, where: str, value: Any) -> Callable[[Value], None]:
    """``count`` extra top-level keys sorting before (short) or after (long) the step's."""
    def edit(step: Value) -> None:
        for k in range(count):
            step[f"a{k}" if where == "before" else f"zzzzzzzzzzzzzzzz{k:02d}"] = value
    return edit


def test_top_level_entries(router: ProofChecker, bundle: Bundle) -> None:
    """Step leaves of 8 + 7/8/9 = 15/16/17 top-level entries and an evidence item of
    9 + 6/7/8: the reader keeps the offsets of 16 entries at most."""
    for index in (1, *STEPS):
        for count in (7, 8, 9):
            for where in ("before", "after"):
                for value in (0, b"", "x"):
                    every_step(router, f"top {index} {count} {where} {value!r}", bundle,
                               index, _extra(count, where, value))
    for count in (6, 7, 8):
        evidence = list(bundle.evidence)
        item = decode(evidence[1])
        for k in range(count):
            item[f"zzzzzzzzzzzzzzzzzz{k}"] = 1
        evidence[1] = encode(item)
        forged = recommit(bundle, evidence=evidence)
        omissions(router, f"item top {count}", forged, [3, 4])
        for later in STEPS:
            one_step(router, f"item top {count} {later}", forged, later)


def _nest(value: Any, depth: int, shape: str) -> Any:
    for k in range(depth):
        value = [value] if shape == "array" or k % 2 else {"k": value}
    return value


def _put(where: str, key: str, value: Any) -> Callable[[Value], None]:
    def edit(step: Value) -> None:
        if where in ("inputs", "output"):
            step[where][key] = value
        elif where == "claims":
            step["output"]["claims"][0][key] = value
        elif where == "card":
            step["output"]["card"][key] = value
        else:
            step[key] = value
    return edit


def test_byte_strings_anywhere(router: ProofChecker, bundle: Bundle) -> None:
    """A byte string nested 0-25 deep in ``inputs``/``output``, in a claim, under a
    non-step top-level key, as a step's field value: the leaf is no step either way."""
    for index in (1, *STEPS):
        for where in ("inputs", "output", "top"):
            for depth in (0, 1, 2, 7, 25):
                for shape in ("array", "map"):
                    every_step(router, f"bytes {index} {where} {depth} {shape}", bundle,
                               index, _put(where, "pad", _nest(b"\x01", depth, shape)))
        for field in ("description", "step_id", "schema"):
            every_step(router, f"bytes field {index} {field}", bundle, index,
                       _put("top", field, b"x"))
    for where in ("claims", "card"):
        for key in ("value", "key", "claim_id", "source_id", "zz"):
            every_step(router, f"bytes extract {where} {key}", bundle, 1,
                       _put(where, key, b"251.42"))
    # an evidence item (a map holding bytes under `content`) carried as a step leaf
    prover = Prover(bundle)
    for step in (3, 4):
        for index in range(3):
            evidence = prover.evidence.proof(index).to_dict()
            body = {"schema": "por.OmissionProof/1", "kind": "reasoning_leaf",
                    "por_root": prover.por_root, "step": prover.steps.proof(step).to_dict(),
                    "evidence": {**evidence, "kind": "reasoning_leaf"}}
            same(router, "item as step", encode(
                {**body, "challenge_id": challenge_id_from_body(body)}))


#: Keys around the word and head limits, and pairs sharing a 32-byte prefix.
KEYS = ["k" * 23, "k" * 24, "k" * 25, "k" * 31, "k" * 32, "k" * 33,
        "value" + "x" * 18, "value" + "x" * 19, "claim_id" + "\x00" * 15, "key" + "\x00" * 21,
        "k" * 32 + "a", "k" * 32 + "b", "\u00e9" * 12, "\u00e9" * 16 + "x"]


def test_key_lengths(router: ProofChecker, bundle: Bundle) -> None:
    """An extra key of each length (and two sharing 32 bytes) in the step's maps and in
    the carried extract step's claim and card maps."""
    for key in KEYS:
        for index in (1, *STEPS):
            for where in ("inputs", "output"):
                every_step(router, f"key {index} {where} {key!r}", bundle, index,
                           _put(where, key, 1))
        for where in ("claims", "card"):
            every_step(router, f"key extract {where} {key!r}", bundle, 1, _put(where, key, "1"))
    pair = ["k" * 32 + "a", "k" * 32 + "b"]
    for index in (1, 3, 4):
        def both(step: Value) -> None:
            for key in pair:
                step["output"][key] = key
        every_step(router, f"prefix pair {index}", bundle, index, both)


def _leaf_of(bundle: Bundle, size: int) -> Bundle:
    """Step leaf 7 (map) padded through its description to exactly ``size`` bytes."""
    value = decode(bundle.steps[7])
    value["description"] = ""
    base = len(encode(value))
    for pad in range(max(0, size - base - 8), size - base + 1):
        value["description"] = "d" * pad
        if len(encode(value)) == size:
            break
    leaf = encode(value)
    assert len(leaf) == size, (size, len(leaf))
    steps = list(bundle.steps)
    steps[7] = leaf
    return recommit(bundle, steps=steps)


def test_inclusion_type_edges(router: ProofChecker, bundle: Bundle) -> None:
    """A one-step proof whose step part is at each type edge, resealed: leaf lengths,
    forged leaves of 0/23/24/255/256 bytes, path lengths, counts at 2^63-1 / 2^63,
    component ids of 128/129 code points."""
    for size in (511, 512, 65_535, 65_536):
        one_step(router, f"leaf {size}", _leaf_of(bundle, size), 7)
    proof = decode(build_one_step_proof(bundle, 7).to_cbor())
    part = proof["step"]
    forged: list[tuple[str, Value]] = []
    for n in (0, 1, 23, 24, 64, 65):
        for field in ("leaf_path", "component_path"):
            forged.append((f"{field} {n}", {**part, field: [b"\x07" * 32] * n}))
    for field in ("tree_size", "leaf_index"):
        for value in (2**63 - 2, 2**63 - 1, 2**63, 2**64 - 1, 23, 24, 255, 256, 65_535, 65_536):
            forged.append((f"{field} {value}", {**part, field: value}))
    for component in ("r" * 128, "r" * 129, "\u00e9" * 128, "\u00e9" * 129, "\u20ac" * 129,
                      "\U0001f600" * 128, "\U0001f600" * 129, "reasoning\u00e9", "reasonin"):
        forged.append((f"component {len(component)}", {**part, "component": component}))
    for leaf in (b"", b"\x00" * 23, b"\x00" * 24, b"\x00" * 255, b"\x00" * 256, b"\xa0"):
        forged.append((f"leaf {len(leaf)}", {**part, "leaf": leaf}))
    for name, value in forged:
        for sealed in (False, True):
            inner = dict(value)
            if sealed:
                inner.pop("challenge_id")
                inner["challenge_id"] = challenge_id_from_body(inner)
            body = {k: v for k, v in proof.items() if k != "challenge_id"}
            body["step"] = inner
            same(router, name, encode({**body, "challenge_id": challenge_id_from_body(body)}))


DECIMALS = ["251." + "4" * 61, "251." + "4" * 62, "2" * 62, "2" * 63, "0." + "0" * 61 + "1",
            "0." + "0" * 62 + "1", "251.4" + "0" * 57, "9" * 63, "-" + "9" * 62 + ".5",
            "1" + "0" * 62, "251.40", "251.4000000001"]


def test_decimals(router: ProofChecker, bundle: Bundle) -> None:
    """Claim values with 61-63 digits and 62 fractional digits in one or every extract
    step: the aggregate's quorum, the check's groups, the contradictions' tolerance."""
    for text in DECIMALS:
        for leaves in ((1,), (0, 1, 2)):
            steps = list(bundle.steps)
            for j in leaves:
                value = decode(steps[j])
                value["output"]["claims"][0]["value"] = text
                steps[j] = encode(value)
            forged = recommit(bundle, steps=steps)
            for index in (3, 4, 5, 6):
                one_step(router, f"decimal {text} {leaves} {index}", forged, index)


def _pairs(maps: list[Value]) -> list[list[list[Any]]]:
    """Each map written as an array of its [key, value] pairs."""
    return [[list(kv) for kv in sorted(m.items())] for m in maps]


def _arrays(step: Value) -> None:
    step["output"]["groups"] = _pairs(step["output"]["groups"])


def test_groups_as_arrays(router: ProofChecker, bundle: Bundle) -> None:
    """The check step's groups (and its items) written as arrays of pairs, and the
    contradictions' conflicts as arrays."""
    every_step(router, "groups arrays", bundle, 3, _arrays)

    def items(step: Value) -> None:
        step["output"]["items"] = _pairs(step["output"]["items"])
    every_step(router, "items arrays", bundle, 3, items)

    def conflicts(step: Value) -> None:
        step["output"]["conflicts"] = [["a", "b"]]
    every_step(router, "conflicts arrays", bundle, 5, conflicts)

    def fields(step: Value) -> None:
        step["output"]["fields"] = _pairs(step["output"]["fields"])
    every_step(router, "fields arrays", bundle, 4, fields)


def _consistent(bundle: Bundle, values: tuple[str, ...]) -> Bundle:
    """``bundle`` with extract leaf j's first claim (``close``) ``values[j]`` and the
    steps after them recomputed by por (a consistent trace, where it can be)."""
    steps = list(bundle.steps)
    for j, text in enumerate(values):
        value = decode(steps[j])
        value["output"]["claims"][0]["value"] = text
        steps[j] = encode(value)
    for index in range(3, len(steps)):
        redone = recomputed(bundle, steps, index)
        if redone is not None:
            steps[index] = redone
    return recommit(bundle, steps=steps)


#: 2^254 / 10^62 = 289480223093290.48...: an integer of 15 digits aligned to scale 62
#: fits the aggregate's one-word path up to 289480223093290, past it ``absDiffLe``.
EDGE = "289480223093290"
TINY = "0." + "0" * 61 + "1"
QUORUMS = [
    (EDGE, EDGE, TINY), ("289480223093291", "289480223093291", TINY),
    ("-" + EDGE, "-" + EDGE, TINY), ("-289480223093291", "289480223093291", TINY),
    (EDGE, "289480223093290.05", TINY), ("289480223093291", "289480223093291.05", TINY),
    ("289480223093291", "289480223093291.0500000000000000000000000000000000000000000001", "1"),
    ("9" * 64, "9" * 63 + "8", "1"), ("1" + "0" * 63, "9" * 63, "-" + "9" * 63),
    (TINY, "0.05", "0"), ("0.05", TINY, "-0." + "0" * 60 + "1"),
    ("-0.025", "0.025", "0.025" + "0" * 57 + "1"), ("251.4", "251.45", "251.45" + "0" * 57 + "1"),
    ("251.4", "251.35", "251.45"),
    ("-" + "9" * 60 + ".5", "-" + "9" * 59 + ".45", "-" + "9" * 60 + ".55"),
]


def test_decimal_quorum(router: ProofChecker, bundle: Bundle) -> None:
    """Consistent traces over claim values at the one-word edge of the aggregate's
    quorum (aligned to 62 fractional digits), 63/64-digit values, distances at exactly
    the tolerance and one unit past it, in the aggregate, contradictions and deduce;
    then each step's output flipped (a lie)."""
    for values in QUORUMS:
        forged = _consistent(bundle, values)
        for index in (3, 4, 5, 6, 7):
            one_step(router, f"quorum {values} {index}", forged, index)
        for index, key, flip in ((4, "fields", None), (5, "conflicts", []),
                                 (6, "conflict_detected", None)):
            def lie(step: Value, key: str = key, flip: Any = flip) -> None:
                out = step["output"]
                if key == "fields":
                    quorum = out["fields"][0]["quorum"]
                    quorum["met"] = not quorum["met"]
                elif key == "conflicts":
                    out["conflicts"] = [] if out["conflicts"] else flip
                    out["conflicts"] = out["conflicts"] or []
                    out["claim_count"] = out["claim_count"] + 1
                else:
                    out[key] = not out[key]
            one_step(router, f"quorum lie {values} {index}", edited(forged, index, lie), index)


# --- the registry ---------------------------------------------------------------------

#: Forwarders (the _FORWARD of test_registry_strikes, hand-assembled, Cancun) that call
#: the registry with their calldata when sent no value; when paid they either burn all
#: their gas (INVALID) or re-enter the registry (``withdraw()``) and accept the payment.
_FORWARD_TAIL = "5b365f5f37" "5f5f365f5f73{registry}5af1" "3d5f5f3e60{ok}57" "3d5ffd" "5b3d5ff3"
BURNER = "3415600857" "fe5f5f" + _FORWARD_TAIL.replace("{ok}", "33")
REENTER = ("3415602c57" "633ccfd60b" "5f52" "5f5f6004601c5f73{registry}5af1" "5000"
           + _FORWARD_TAIL.replace("{ok}", "57"))


def _deploy(chain: Chain, runtime: str, salt: int) -> str:
    code = bytes.fromhex(runtime.format(registry=chain.address[2:].lower()))
    deployer = "0x" + f"{0xf1 + salt:02x}" * 20
    chain.evm.set_balance(deployer, 10**18)
    return str(chain.evm.deploy(deployer, _init(code)))


def _struck_by(runtime: str) -> tuple[Chain, bytes, str, int]:
    """A lie's market settled by a forwarder ``runtime``: (chain, market, caller, the
    settle's gas)."""
    data, won, _lost = lie()
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    market = register_bundle(chain, data)
    caller = _deploy(chain, runtime, 0)
    commitment = proof_commitment(market, won, bytes.fromhex(caller[2:]))
    chain.send(call_data("commitProof", commitment), sender=CHALLENGER, to=caller)
    chain.mine()
    settle = call_data("settleByProof", market, won)
    gas = chain.send(settle, sender=CHALLENGER, to=caller).gas_used
    assert chain.call("verdicts", market)[6:8] == (1, 2)  # round 1, Struck
    assert reverts(chain, settle, sender=CHALLENGER, to=caller).name == "NotChallengeable"
    return chain, market, caller, gas


def test_settle_caller_burns_gas_or_reenters() -> None:
    """A settle whose caller burns its gas when paid is credited (its stipend is all it
    burns: the settle costs about what a refusing caller's does); one whose caller
    re-enters ``withdraw`` when paid is paid once, and the re-entry changes nothing.
    The registry holds exactly the credits, to the wei."""
    chain, _market, caller, burnt = _struck_by(BURNER)
    assert chain.balance(caller) == 0
    assert chain.call("withdrawable", caller) == PROPOSER_BOND
    assert chain.balance(chain.address) == PROPOSER_BOND
    error = reverts(chain, call_data("withdraw"), sender=CHALLENGER, to=caller)
    assert error.name == "WithdrawFailed"
    assert chain.call("withdrawable", caller) == PROPOSER_BOND
    chain, _market, caller, paid = _struck_by(REENTER)
    assert chain.balance(caller) == PROPOSER_BOND
    assert chain.call("withdrawable", caller) == 0
    assert chain.balance(chain.address) == 0
    # the burner pays its 2 300 stipend and the credit's new slot, nothing more
    assert burnt - paid <= 2_300 + 22_100 + 5_000, (burnt, paid)


def test_settle_at_the_window_edges() -> None:
    """One second before the deadline a lie is settled and the verdict is not final; at
    the deadline the settle reverts ``WindowClosed`` and the verdict is final."""
    data, won, _lost = lie()
    for offset, settles in ((-1, True), (0, False)):
        chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
        market = register_bundle(chain, data)
        chain.commit_proof(market, won, CHALLENGER)
        deadline = chain.timestamp + WINDOW
        chain.set_time(deadline + offset)
        assert chain.call("isFinal", market) is not settles
        settle = call_data("settleByProof", market, won)
        if settles:
            before = chain.balance(CHALLENGER)
            chain.send(settle, sender=CHALLENGER)
            assert chain.balance(CHALLENGER) - before == PROPOSER_BOND
            assert chain.call("isFinal", market) is False
            assert reverts(chain, call_data("finalize", market)).name in (
                "NotFinal", "NotChallengeable")
        else:
            assert reverts(chain, settle, sender=CHALLENGER).name == "WindowClosed"
            chain.send(call_data("finalize", market))
            assert chain.call("isFinal", market) is True
        credits = sum(chain.call("withdrawable", a) for a in (ADMIN, CHALLENGER))
        assert chain.balance(chain.address) == credits


def test_every_struck_root_refused_in_every_later_round() -> None:
    """Five rounds, each verdict struck by a ruling: in every later round each earlier
    root (and the last) is refused ``RootStruck``, a fresh one is accepted; ``isStruck``
    names exactly the struck ones; the registry's balance is the open bonds plus the
    credits, to the wei."""
    game = Game()
    chain, market = game.chain, game.market
    roots = []
    for n in range(1, 6):
        roots.append(chain.call("verdicts", market)[0])
        game.open(CHALLENGER, case(n))
        chain.send(game.ruling(CHALLENGER, case(n), True))
        game.round += 1
        for variant in range(n):
            with pytest.raises(Exception) as info:
                game.propose(variant, n)
            assert getattr(info.value, "name", None) == "RootStruck", (n, variant)
        game.propose(n, n)
        assert [chain.call("isStruck", market, r) for r in roots] == [True] * n
        assert chain.call("isStruck", market, chain.call("verdicts", market)[0]) is False
        assert game.balance() == game.owed() + PROPOSER_BOND


def test_settle_with_a_challenge_open_past_the_court_timeout() -> None:
    """A lie with a challenge open is settled by proof after the deadline and after the
    court's timeout (the open challenge keeps it strikable): the settler is paid the
    proposer's bond, the challenge is moot (``lapse`` refused, ``closeMoot`` returns
    its bond), nothing is final, and the registry ends holding exactly the credits."""
    _data, won, _lost = lie()
    game = Game(lying=True)
    chain, market = game.chain, game.market
    opened = game.open(CHALLENGER, case(1))
    settler = ADMIN
    chain.commit_proof(market, won, settler)
    game.at(chain.call("verdicts", market)[9] + COURT_TIMEOUT + 1)
    before = chain.balance(settler)
    outcome = chain.send(call_data("settleByProof", market, won), sender=settler)
    paid = chain.balance(settler) - before
    assert paid == PROPOSER_BOND, paid  # revm charges no gas price here
    assert outcome.output
    assert chain.call("verdicts", market)[6:8] == (1, 2)
    assert reverts(chain, call_data("lapse", opened)).name == "ChallengeMoot"
    chain.send(call_data("closeMoot", opened))
    assert chain.call("withdrawable", CHALLENGER) == CHALLENGER_BOND
    assert reverts(chain, call_data("closeMoot", opened)).name == "ChallengeNotOpen"
    assert chain.call("isFinal", market) is False
    assert game.balance() == game.owed() == CHALLENGER_BOND


def _recomputed_after(bundle: Bundle, index: int, edit: Callable[[Value], None]) -> Bundle:
    """Extract leaf ``index`` edited, the steps after the extracts recomputed by por."""
    steps = list(edited(bundle, index, edit).steps)
    for later in range(3, len(steps)):
        redone = recomputed(bundle, steps, later)
        if redone is not None:
            steps[later] = redone
    return recommit(bundle, steps=steps)


def _claims(shape: str) -> Callable[[Value], None]:
    def edit(step: Value) -> None:
        out = step["output"]
        claims = out["claims"]
        first = dict(claims[0])
        if shape == "drop":
            out.pop("claims")
        elif shape in SHAPED:
            out["claims"] = SHAPED[shape]
        elif shape == "twice":
            out["claims"] = [first, {**first, "claim_id": "cl_000000000000"}]
        elif shape == "same id":
            out["claims"] = [first, {**claims[1], "claim_id": first["claim_id"]}]
        elif shape == "reversed":
            out["claims"] = claims[::-1]
        elif shape.startswith("value="):
            claims[0]["value"] = VALUES[shape[6:]]
        elif shape.startswith("no "):
            claims[0].pop(shape[3:])
        elif shape.startswith("key="):
            claims[0]["key"] = shape[4:]
            claims[1]["key"] = shape[4:]
        elif shape.startswith("kind="):
            claims[0]["kind"] = shape[5:]
    return edit


SHAPED: dict[str, Any] = {"empty": [], "ints": [1], "texts": ["x"], "arrays": [[]],
                          "map": {"a": 1}, "maps": [{}], "nested": [[{"key": "close"}]]}
VALUES: dict[str, Any] = {"int": 251, "neg": -251, "true": True, "noncanon": "251.50",
                          "exp": "2.5e2", "list": ["251.4"], "map": {"v": "251.4"},
                          "empty": "", "64": "1" * 64, "65": "1" * 65}
CLAIM_SHAPES = ["drop", *SHAPED, "twice", "same id", "reversed", *(f"value={v}" for v in VALUES),
                "no key", "no value", "no kind", "no claim_id", "no path", "key=" + "c" * 23,
                "key=" + "c" * 24, "key=" + "c" * 33, "key=", "key=\u00e9", "kind=text",
                "kind=timestamp", "kind=numeric "]


def test_claim_shapes(router: ProofChecker, bundle: Bundle) -> None:
    """The carried extract step's claims in every shape (not a list, lists of
    non-maps, repeated ids and keys, values of every type and length, keys of 23/24/33
    bytes), each as a lie (later steps kept) and in a consistent trace (recomputed)."""
    for shape in CLAIM_SHAPES:
        every_step(router, f"claims {shape}", bundle, 1, _claims(shape))
        forged = _recomputed_after(bundle, 1, _claims(shape))
        for index in STEPS:
            one_step(router, f"claims {shape} consistent {index}", forged, index)


def _spec(path: tuple[Any, ...], value: Any) -> Callable[[Value], None]:
    def edit(spec: Value) -> None:
        target = spec
        for key in path[:-1]:
            target = target[key]
        if value is _DROP:
            target.pop(path[-1])
        else:
            target[path[-1]] = value
    return edit


_DROP = object()
SEMANTICS = ("prediction_semantics",)
QUORUM = ("data_requirements", 0, "selection_policy")
SPEC_EDITS: list[tuple[tuple[Any, ...], Any]] = [
    *((("conflict_policy", "numeric_tolerance"), v) for v in (
        TINY, "0", "9" * 64, "1" * 63, "0.5", "289480223093290", "289480223093291", "0.050", 5)),
    *(((*SEMANTICS, "threshold"), v) for v in (
        "251.4", "-" + "9" * 63, "9" * 64, "251." + "3" * 60, "251.40", TINY, 250)),
    *(((*SEMANTICS, "comparison"), v) for v in (">=", "<", "<=", "==", "!=", ">", " >")),
    *(((*SEMANTICS, "metric"), v) for v in ("as_of", "closed", "", "c" * 24)),
    *(((*SEMANTICS, key), 1) for key in ("k" * 23, "k" * 24, "k" * 25, "k" * 32, "k" * 33, "a")),
    *(((*SEMANTICS, key), _DROP) for key in ("metric", "threshold", "comparison", "predicate")),
    *(((*QUORUM, "quorum"), v) for v in (0, 1, 3, 4, 2**63, "2")),
    *(((*QUORUM, "min_sources"), v) for v in (0, 2, 4)),
    *(((*QUORUM, key), 1) for key in ("k" * 23, "k" * 24, "quorumm", "z" * 33)),
    ((*QUORUM, "tie_breaker"), "first"), ((*QUORUM, "strategy"), "single_best_source"),
    (("data_requirements", 0, "expected_fields", 0, "kind"), "text"),
    (("data_requirements", 0, "expected_fields", 0, "key"), "c" * 24),
]


#: The kinds (step leaves of scenario 08) whose SPEC §10.5 step 6 row reads a PromptSpec
#: field: a malformed field read there is won ``one_step.invalid_record`` on chain too.
READS: dict[Any, set[int]] = {
    "numeric_tolerance": {4, 5}, "threshold": {6}, "comparison": {6}, "metric": {3, 4, 6},
    "predicate": {3, 6}, "quorum": {4}, "min_sources": {4}, "tie_breaker": {4},
    "strategy": {4, 6}, "kind": {4}, "key": {4}}


def spec_case(router: ProofChecker, name: str, bundle: Bundle, index: int, read: bool) -> None:
    """``one_step``, where a PromptSpec malformed in a field the kind does not read may
    be lost ``one_step.match`` on chain (SPEC §10.5 step 3 **Limit**: the court path)."""
    try:
        proof = bytes(build_one_step_proof(bundle, index).to_cbor())
    except PorError:
        proof = sent(bundle, index)
    expected = python_answer(proof)
    got = router.any_proof(proof)[:2]
    if got != expected and not read:
        assert (got, expected) == ((False, "one_step.match"), (True, "one_step.invalid_record"))
        COUNTS["limit:prompt_spec"] += 1
        return
    same(router, name, proof)


def test_prompt_spec_edges(router: ProofChecker, bundle: Bundle) -> None:
    """The carried PromptSpec's tolerance, threshold, comparison, metric and quorum at
    their edges (62 fractional digits, 63/64 digits, the one-word edge), extra keys of
    23-33 bytes, fields dropped: each as a lie (the trace kept) and consistent (the
    trace recomputed under the edited spec). A field a kind reads gets Python's answer;
    one it does not read may be the documented limit (``spec_case``)."""
    for path, value in SPEC_EDITS:
        spec = decode(bundle.prompt_spec)
        _spec(path, value)(spec)
        lying = recommit(bundle, prompt_spec=encode(spec))
        steps = list(lying.steps)
        for later in range(3, len(steps)):
            redone = recomputed(lying, steps, later)
            if redone is not None:
                steps[later] = redone
        consistent = recommit(lying, steps=steps)
        for index in STEPS:
            read = index in READS.get(path[-1], set())
            spec_case(router, f"spec {path} {value!r} {index}", lying, index, read)
            spec_case(router, f"spec {path} {value!r} consistent {index}", consistent, index,
                      read)


def test_proof_top_entries(router: ProofChecker, bundle: Bundle) -> None:
    """Every proof schema with extra top-level entries (the reader keeps 16 at most; the
    router reads ``schema`` from them, else walks): keys sorting before and after
    ``schema``, totals of 15/16/17 entries and more, resealed or not; the proof as an
    array, a text, and a map with ``schema`` of another type."""
    prover = Prover(bundle)
    proofs = [bytes(build_one_step_proof(bundle, 3).to_cbor()), prover.proof(3, 2, "evidence_leaf"),
              citation_proof(bundle, 3, [0, 1]), judge_proof_carrying(bundle, [0, 1, 2])]
    for proof in proofs:
        value = decode(proof)
        for total in (15, 16, 17, 18, 40):
            for where in ("a", "zzzzzzzzzzzzzzzzz"):
                body = {k: v for k, v in value.items() if k != "challenge_id"}
                for k in range(total - len(value)):
                    body[f"{where}{k:02d}"] = k
                same(router, f"top {total} {where}", encode(
                    {**body, "challenge_id": challenge_id_from_body(body)}))
                same(router, f"top {total} {where} unsealed", encode(
                    {**body, "challenge_id": value["challenge_id"]}))
        for schema in (1, b"por.OneStepProof/1", ["por.OneStepProof/1"], "por.", "por.x/1", ""):
            same(router, f"schema {schema!r}", encode({**value, "schema": schema}))
        same(router, "array", encode(list(value.values())))
        same(router, "text", encode(value["schema"]))


#: The ``prediction_semantics`` fields deduce reads (SPEC §10.5 step 6, its row).
DEDUCE_READS = {"predicate", "metric", "comparison", "threshold", "lower", "upper",
                "lower_inclusive", "upper_inclusive", "terms", "other_metric", "expected_text",
                "absent_means_no", "sources_required", "preconditions"}


def test_every_market_prediction_fields(router: ProofChecker) -> None:
    """On every fixture market, each ``prediction_semantics`` field dropped or made a
    byte string, a 23/24-byte key added there, and each non-extract step's output given
    a 23/24-byte key: deduce's spec reader (``PorDeduceSpec``) and every kind agree
    with Python, or give the documented limit for a field they do not read."""
    for name in list_scenarios():
        market = honest(name)
        kinds = [decode(s)["inputs"].get("kind") for s in market.steps]
        later = [i for i, k in enumerate(kinds) if k != "extract_claims"]
        semantics = decode(market.prompt_spec)["market"].get("prediction_semantics") or \
            decode(market.prompt_spec).get("prediction_semantics", {})
        edits: list[tuple[str, Any]] = [(key, _DROP) for key in semantics]
        edits += [(key, b"\x01") for key in semantics]
        edits += [("k" * 23, 1), ("k" * 24, 1)]
        for key, value in edits:
            spec = decode(market.prompt_spec)
            _spec((*SEMANTICS, key), value)(spec)
            forged = recommit(market, prompt_spec=encode(spec))
            for index in (i for i in later if kinds[i] in ("deduce", "map")):
                read = (kinds[index] == "deduce" and key in DEDUCE_READS) or (
                    kinds[index] == "check_requirement" and key in ("metric", "predicate"))
                spec_case(router, f"{name} {key} {index}", forged, index, read)
        for index in later:
            for key in ("k" * 23, "k" * 24):
                one_step(router, f"{name} output {key} {index}",
                         edited(market, index, _put("output", key, 1)), index)


def test_attack_case_count() -> None:
    """Runs last: the proof families reached both sides with several outcomes."""
    if not COUNTS:
        pytest.skip("run with the whole module")
    print(f"\n{sum(COUNTS.values())} attacks compared: {dict(sorted(COUNTS.items()))}")
    for wanted in ("won:one_step.invalid_record", "won:one_step.mismatch",
                   "won:one_step.unexecutable", "lost:one_step.match", "lost:proof.schema",
                   "lost:omission.cited", "limit:prompt_spec"):
        assert COUNTS[wanted] > 0, (wanted, sorted(COUNTS))
