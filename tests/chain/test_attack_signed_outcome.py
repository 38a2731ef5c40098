"""s44 attack that SUCCEEDS (not s43's: the registry since ADR 0012): the signed
``outcome`` and ``confidenceBps`` are stored and read by markets (``finalOutcome``), but
nothing binds them to the verdict record ``porRoot`` commits (component 5, §5.4).

A registered signer signs, for an honest bundle whose verdict record says NO, a
``Verdict`` with outcome YES (every other member the bundle's, so the key is the market's
and step 7's PromptSpec binding holds). Off chain, §8.5 rebuilds the values from the bundle
and refuses the signature; on chain ``proposeVerdict`` checks only the range, stores YES,
and the bundle, honest in every byte, loses every proof por can build: the market reads
YES when the window closes. This is ADR 0018's gap 2 for the answer instead of the
question. The test states the property (a final outcome is the one the committed verdict
record gives). It was a strict xfail in s44; since s45 the outcome proof (SPEC §14.4,
``settleByForms`` kind ``outcome``: the committed VERDICT form against the stored words)
strikes the proposal in one transaction and pays the challenger, so the lie never becomes
final (the second test still shows what por verify sees: nothing wrong with the bundle).
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from chain_support import (
    CHALLENGER,
    DEMO_BUNDLES,
    T0,
    TEST_ONLY_SECRET,
    WEEK,
    WINDOW,
    Chain,
    Reverted,
    address_of,
    key_of,
    propose_data,
    remember_path,
)

from por.bundle import Bundle, verdict_struct
from por.chain.calldata import settle_by_forms_calldata, verdict_args
from por.chain.outcome import OUTCOME_KIND, outcome_args
from por.cli import main
from por.schemas import DeterministicVerdict

CODES = {"YES": 1, "NO": 2, "INVALID": 3}
NAME = "01-boolean-observed.cbor"


def _flipped(name: str) -> tuple[tuple[object, ...], int, Bundle]:
    """The bundle's Verdict words with the outcome changed, and the committed outcome."""
    bundle = Bundle.from_cbor((DEMO_BUNDLES / name).read_bytes())
    remember_path(bundle.commitments)
    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    words = verdict_args(verdict_struct(verdict, bundle.commitments, issued_at=T0,
                                        expires_at=T0 + WEEK, nonce=0))
    committed = CODES[verdict.outcome]
    lie = 2 if committed == 1 else 1
    return (words[0], lie, *words[2:]), committed, bundle


def test_a_signed_outcome_the_bundle_does_not_give_never_becomes_final() -> None:
    words, committed, bundle = _flipped(NAME)
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    chain.set_time(T0 + 1)
    try:
        chain.send(propose_data(words, chain.chain_id, chain.contract))
    except Reverted:
        return  # refused at propose: the attack fails
    key = key_of(words)
    args = outcome_args(bundle)
    chain.commit_proof(key, OUTCOME_KIND + args, CHALLENGER)
    chain.send(settle_by_forms_calldata(key, OUTCOME_KIND, args), sender=CHALLENGER)
    chain.set_time(T0 + 1 + WINDOW)
    assert chain.call("finalOutcome", key) in (0, committed)  # struck: nothing final


def test_the_flipped_verdict_is_honest_in_every_byte_por_checks(tmp_path: Path) -> None:
    """What makes the attack above work: ``por verify --challenges`` finds the bundle valid
    and writes no proof, while the proposal with the flipped outcome is accepted and
    becomes final."""
    words, committed, _bundle = _flipped(NAME)
    out = tmp_path / "proofs"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["verify", "--challenges", str(out), str(DEMO_BUNDLES / NAME)])
    assert code == 0 and not (out.exists() and any(out.iterdir()))
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    chain.set_time(T0 + 1)
    chain.send(propose_data(words, chain.chain_id, chain.contract))
    chain.set_time(T0 + 1 + WINDOW)
    assert chain.call("finalOutcome", key_of(words)) == words[1] != committed
