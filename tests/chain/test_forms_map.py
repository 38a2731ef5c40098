"""The map executor on chain forms (``contracts/src/forms/PorMapForm.sol``, s45
``mapform``) answers as Python's one-step check (``por.challenge.one_step``) on the CBOR
records and as Python's executor on forms (``por.forms.execute.map``) on the same call
data, on over 2 000 generated map steps (``POR_FORMS_SWEEP=1``: every fixture market;
the default run is every third).

Cases (``forms_map_cases.lies``): each fixture market's honest map step; every word of
MAP edited (the description, each variable absent, present, wrong, edge decimals and
timestamps 0, 2^63 - 1, 2^63, 2^64 - 1; the summary and the evidence ids reordered,
cut, extended, repeated; the rest words; inputs; the step id); the citations (none,
twice, an aggregate, the contradictions step, itself, a later kind); the deduce step's
variables edited (flags, event, decimals, timestamps, a repeated summary id) with the
map step left as it was and rewritten by ``recompute_step``; generated markets; a
carried form that is not the cited one (``Citations``) and malformed forms
(``proof.form``). Records with no form are counted (a FormProof's case), not compared.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterable

from bundle_edits import honest, recommit
from exec_support import generated_cases
from forms_deduce_cases import checked
from forms_harness import forms_root_of, replaced, sizes
from forms_map_cases import NAME, agree, call_data, lies, map_leaf
from forms_python import reverts_agree
from scratch_harness import SOLC

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.scenarios import list_scenarios

pytestmark = SOLC

SWEEP = bool(os.environ.get("POR_FORMS_SWEEP"))
SCENARIOS = list_scenarios() if SWEEP else list_scenarios()[::3]
COUNTS: Counter[str] = Counter()


def check(cases: Iterable[tuple[str, Bundle, int]], tag: str) -> Counter[str]:
    seen: Counter[str] = Counter()
    return checked(agree(cases, seen, tag), seen, COUNTS)


def test_fixture_lies() -> None:
    rng = random.Random(45)  # noqa: S311 - seeded cases, not secrets
    seen = check((case for name in SCENARIOS for case in lies(name, honest(name), rng)),
                 "fixtures")
    total = sum(seen.values())
    assert total >= (2000 if SWEEP else 600), total
    assert seen["compared:one_step.match:"] >= len(SCENARIOS) * 2
    for answer in ("one_step.mismatch:", "one_step.id_position:", "one_step.prior_order:",
                   "one_step.unexecutable:step.bad_inputs",
                   "one_step.unexecutable:step.citation_mismatch",
                   "one_step.unexecutable:step.bad_prior_output"):
        assert seen[f"compared:{answer}"] >= len(SCENARIOS), (answer, seen)


@generated_cases(max_examples=20 if SWEEP else 4)
def test_generated_markets(case: tuple[object, object], seed: int) -> None:
    spec, evidence = case
    bundle = bundle_from_bytes(build(spec, evidence).data)  # type: ignore[arg-type]
    if not any(decode(s)["inputs"].get("kind") == "map" for s in bundle.steps):
        return
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    check(lies("generated", bundle, rng), "generated")


def test_long_summary() -> None:
    """A summary of 300 ids (a valid step holds at most 1 024 CBOR items, SPEC §17.1):
    the map step and its deduce rewritten with it (lost), one id repeated (won
    ``step.bad_prior_output``)."""
    bundle = honest("08-quorum-agree")
    leaf = map_leaf(bundle)
    at = leaf - 1
    ids = [f"item-{k:04d}" for k in range(300)]
    for summary, want in ((ids, "one_step.match"), ([*ids, ids[7]], "one_step.unexecutable")):
        steps = list(bundle.steps)
        d = decode(steps[at])
        d["output"]["source_summary"] = summary
        d["evidence_ids"] = summary
        steps[at] = encode(d)
        m = decode(steps[leaf])
        m["output"]["evaluation_variables"]["source_summary"] = summary
        m["evidence_ids"] = summary
        steps[leaf] = encode(m)
        seen = check([("long", recommit(bundle, steps=steps), leaf)], "long")
        assert any(k.startswith(f"compared:{want}") for k in seen), seen


def test_wrong_forms_revert_alike() -> None:
    """A carried DEDUCE replaced by another step's form (``Citations(2)``), a MAP form
    cut, padded or retagged (``proof.form``): both sides revert alike."""
    bundle = honest("08-quorum-agree")
    leaf = map_leaf(bundle)
    c = forms_root_of(bundle)
    data = call_data(bundle, leaf, c)
    assert reverts_agree("map", NAME, data) and data != b""
    step_index = c.index_of_step(leaf)
    own = c.forms.forms[step_index].form
    other = c.forms.forms[step_index - 2].form
    for form in (own[:-32], own + bytes(32), (9).to_bytes(32, "big") + own[32:], own[:64]):
        bad = replaced(bundle, c, step_index, form)
        assert reverts_agree("map", NAME, call_data(bundle, leaf, bad))
    swapped = replaced(bundle, c, step_index - 1, other)
    assert reverts_agree("map", NAME, call_data(bundle, leaf, swapped))


def test_code_size() -> None:
    assert sizes(NAME) <= 24_576 - 600


def test_case_count() -> None:
    """Print the classes and answers compared (``pytest -s``)."""
    for key, n in sorted(COUNTS.items()):
        print(f"{key:70} {n}")
