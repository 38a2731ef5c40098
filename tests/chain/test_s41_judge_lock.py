"""The judge's lock on an evidence id's length under lever (a)+v (docs/adr/0017, addendum
(s41, execb2)): MAP's ``source_summary`` is ``L[H]``, so the JudgeProof counts the code
points of each carried EXTRACT's word 5 (``T(evidence_id)``), the EXTRACT whose word 4
equals the summary word. A hand-made proof (forms edited and recommitted: ``por`` never
builds one, ``build_judge_proof`` refuses an id of more than 128 code points) whose
EXTRACT and summary carry an id of 129 code points fails the lock on chain and in Python
(``judge.mismatch``: the committed YES is not the judge's INVALID); 128 passes
(``judge.match``). Each broken on purpose (the count off by one) is caught here.

A word 4 that is not ``H`` of word 5 is that EXTRACT's FormProof's fault (SPEC §5.6.15):
the judge counts word 5 as carried, on both sides.
"""

from __future__ import annotations

import pytest
from eth_abi.abi import encode as abi_encode
from forms_deduce_cases import INCLUSION, SIGNATURE
from forms_harness import SRC, Committed, forms_root_of, replaced, selector
from forms_judge_cases import NAME, chain_answer, summary_ids
from forms_python import python_answer
from scratch_harness import SOLC

import por.forms.execute.judge as judge_py
from por.challenge.one_step import positions_of
from por.forms.words import H, T

pytestmark = SOLC

MARKET = "01-boolean-observed"  # YES, one summary id
#: 127 one-byte code points and a 3-byte one: 128 code points in 130 bytes (a count of
#: bytes, not code points, would fail it).
ID_128 = "e" * 127 + "\u20ac"
ID_129 = "e" + ID_128


def _honest() -> tuple[object, Committed, list[int]]:
    from bundle_edits import honest

    bundle = honest(MARKET)
    c = forms_root_of(bundle)
    wanted = summary_ids(bundle)
    found = positions_of(bundle.evidence, "evidence_id", set(wanted))
    index = [c.forms.size - 1, 0, c.forms.size - 2, *(c.index_of_step(found[w]) for w in wanted)]
    return bundle, c, index


def _call(c: Committed, index: list[int]) -> bytes:
    forms = [c.forms.forms[i].form for i in index]
    inc = (c.por_root, c.forms.size, index, [c.path(i) for i in index], c.component_path)
    return selector(SIGNATURE) + abi_encode(["bytes[]", INCLUSION], [forms, inc])


def _with_id(word4: str | None, word5: str, summary: str | None) -> bytes:
    """The JudgeProof's call data with the first carried EXTRACT's word 4 ``H(word4)``
    (None: as committed) and word 5 ``T(word5)``, and the MAP's first summary id (and its
    evidence id) ``H(summary)`` (None: as committed); forms recommitted."""
    bundle, c, index = _honest()
    old = summary_ids(bundle)[0]
    e = c.forms.forms[index[3]].form
    assert e[128:160] == H(old) and e[160:160 + len(T(old))] == T(old)
    head = H(word4) if word4 is not None else e[128:160]
    c = replaced(bundle, c, index[3], e[:128] + head + T(word5) + e[160 + len(T(old)):])
    if summary is not None:
        m = c.forms.forms[index[2]].form
        assert H(old) in m
        c = replaced(bundle, c, index[2], m.replace(H(old), H(summary)))
    return _call(c, index)


def _both(data: bytes, code: str | None = None) -> tuple[object, object]:
    return chain_answer(data, code)[0], python_answer("judge", data)


def test_honest_market_matches() -> None:
    _, c, index = _honest()
    assert _both(_call(c, index)) == ((False, "judge.match"), (False, "judge.match"))


@pytest.mark.parametrize(("ident", "want"), [(ID_128, (False, "judge.match")),
                                             (ID_129, (True, "judge.mismatch"))])
def test_id_length_lock(ident: str, want: tuple[bool, str]) -> None:
    """128 code points pass the lock, 129 fail it: the same answer on chain and in
    Python."""
    data = _with_id(ident, ident, ident)
    assert _both(data) == (want, want)


def test_word5_is_what_the_lock_counts() -> None:
    """Word 4 not ``H`` of word 5 (the EXTRACT's FormProof's fault): the judge counts the
    carried word 5. A long word 5 under the honest word 4 fails the lock; a long word 4
    (and summary) over a short word 5 passes it; both sides alike."""
    long_5 = _with_id(None, ID_129, None)
    assert _both(long_5) == ((True, "judge.mismatch"), (True, "judge.mismatch"))
    long_4 = _with_id(ID_129, "e", ID_129)
    assert _both(long_4) == ((False, "judge.match"), (False, "judge.match"))


def test_the_count_broken_on_purpose_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lock's bound off by one (129 allowed) on chain, then in Python: the 129 case
    then matches, so :func:`test_id_length_lock` would fail."""
    data = _with_id(ID_129, ID_129, ID_129)
    source = (SRC / "forms" / f"{NAME}.sol").read_text(encoding="utf-8")
    broken = source.replace("points > 128", "points > 129")
    assert broken != source
    assert chain_answer(data, broken)[0] == (False, "judge.match")
    monkeypatch.setattr(judge_py, "MAX_ID_POINTS", 129)
    assert python_answer("judge", data) == (False, "judge.match")

