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
