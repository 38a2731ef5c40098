"""Properties of the carried chain form hashes (SPEC §5.1, §6.2 step 5; ADR 0017 §4).

An honest build always verifies (on the fast path), and changing any one carried form
hash (every commitment recomputed, so only §6.2 step 5 can see it) is ``form.mismatch``
at exactly that index, with the same report on both paths.
"""

from __future__ import annotations

from functools import cache

from bundle_edits import honest, paths_agree, recommit
from hypothesis import given, settings
from hypothesis import strategies as st

from por.bundle import Bundle
from por.scenarios import list_scenarios
from verifier import check_bundle
from verifier.fast import fast_report


@cache
def _honest(name: str) -> Bundle:
    return honest(name)


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(list_scenarios()), data=st.data())
def test_one_changed_form_hash_is_caught_at_its_index(name: str, data: st.DataObject) -> None:
    bundle = _honest(name)
    assert fast_report(bundle.to_cbor()) is not None  # an honest build verifies
    index = data.draw(st.integers(0, len(bundle.forms) - 1), label="index")
    byte = data.draw(st.integers(0, 31), label="byte")
    bit = data.draw(st.integers(0, 7), label="bit")
    forms = list(bundle.forms)
    forms[index] = forms[index][:byte] + bytes([forms[index][byte] ^ (1 << bit)]) + \
        forms[index][byte + 1:]
    lie = recommit(bundle, forms=forms).to_cbor()
    failure = check_bundle(lie).first_failure
    assert failure is not None
    assert (failure.check_id, failure.details) == ("form.mismatch", {"form_index": index})
    assert failure.actual == forms[index].hex()
    assert paths_agree(lie) == "rejected"
