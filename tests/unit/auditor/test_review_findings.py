"""Findings of the adversarial review of the value forms, predicates and
por-auditor/2 extraction (one test per finding, named after it)."""

from __future__ import annotations

import pytest

from por.auditor.csv_body import CsvError, parse_csv

MIB = 1 << 20


@pytest.mark.parametrize("body", [
    '"x"\n' + "a" * MIB + "\r",  # a lone CR after a long unquoted cell
    '"' + "a" * MIB + '"x',  # text after a closing quote, after a long quoted cell
    'a,b\n"c",' + "d" * MIB + '"',  # a quote at the end of a long unquoted cell
])
def test_csv_misplaced_quote_or_cr_is_refused_in_one_pass(body: str) -> None:
    """Finding: the quoted-CSV scan (``findall``) restarted at every character of a
    run that no cell + terminator pair tiles, so a body whose fault sits after a long
    cell cost time quadratic in the cell (40 KB: ~40 s, against ~6 ms for an honest
    body of that size; SPEC §12.1.6 says one pass, §17 at most ~3x an honest body).
    At 1 MiB this test did not finish before the fix; it is a work bound, not a timing."""
    with pytest.raises(CsvError, match="quote inside a field"):
        parse_csv(body)


def test_k_of_n_with_k_above_n_is_not_no() -> None:
    """Finding: with ``sources_required`` k above the n source targets, "NO iff more
    than n - k fail" held for any votes (n - k < 0), so three sources all reading 79
    under a ``< 80`` market resolved NO.  k > n cannot be decided: insufficient."""
    from test_predicates import _bodies, _run, _spec

    spec = _spec("67-two-of-three-below", sources_required=4)
    evidence = _bodies("67-two-of-three-below", {"close": 79}, {"close": 79}, {"close": 79})
    outcome, deduce = _run(spec, evidence)
    assert (outcome, deduce["metric_status"]) == ("INVALID", "votes_undecided")
