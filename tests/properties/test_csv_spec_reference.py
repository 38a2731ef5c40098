"""SPEC §12.1.6 re-derived from its text alone: a character-by-character CSV reader
written from the grammar and the four refusal rules (in their order), compared
with :func:`por.auditor.csv_body.parse_csv` on generated bodies (a second
implementer's view; the review's finding on the unstated ``extract.bad_csv`` texts)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from por.auditor.csv_body import CsvError, parse_csv

MESSAGES = ("CSV holds more than 1048576 cells",
            "CSV has a quote inside a field or text after a closing quote",
            "CSV record has a different number of fields than the header",
            "CSV header names must be unique and non-empty")


def _cell(text: str, i: int) -> tuple[str, int] | None:
    """The cell at ``i`` and the index after it; None if a quote is misplaced."""
    n = len(text)
    if i < n and text[i] == '"':
        j, cell = i + 1, []
        while j < n and not (text[j] == '"' and text[j + 1:j + 2] != '"'):
            cell.append(text[j])
            j += 2 if text[j] == '"' else 1
        return ("".join(cell), j + 1) if j < n else None
    j = i
    while j < n and text[j] not in ',\r\n"':
        j += 1
    return None if text[j:j + 1] == '"' else (text[i:j], j)


def reference(text: str) -> tuple[list[str], int] | str:
    """SPEC §12.1.6: the cells and header width, or the committed message."""
    text = text.removeprefix("\ufeff")
    if text.count(",") + text.count("\n") + 1 > 1 << 20:
        return MESSAGES[0]
    records: list[list[str]] = [[]]
    i = 0
    while True:
        found = _cell(text, i)
        if found is None:
            return MESSAGES[1]
        cell, i = found
        records[-1].append(cell)
        if i >= len(text):
            break
        if text[i] == ",":
            i += 1
            continue
        end = "\r\n" if text.startswith("\r\n", i) else "\n" if text[i] == "\n" else None
        if end is None:  # a CR alone, or text after a closing quote
            return MESSAGES[1]
        i += len(end)
        if i >= len(text):  # the optional final line break
            break
        records.append([])
    width = len(records[0])
    if any(len(r) != width for r in records):
        return MESSAGES[2]
    if "" in records[0] or len(set(records[0])) != width:
        return MESSAGES[3]
    return [c for r in records for c in r], width


@given(st.text(st.sampled_from(list('ab,"\r\n\ufeff')), max_size=24))
def test_csv_reader_is_spec_12_1_6(text: str) -> None:
    try:
        table = parse_csv(text)
        got: tuple[list[str], int] | str = (table.cells, table.width)
    except CsvError as exc:
        got = str(exc)
    assert got == reference(text)


@settings(max_examples=1000, derandomize=True)
@given(st.lists(st.sampled_from(['a', 'b,', '""', '"a""b",', '"x\r\ny"', ',', '\n', '\r\n',
                                 'ab,a\n', '"",""\n']), max_size=30).map("".join))
def test_csv_fast_paths_are_spec_12_1_6(text: str) -> None:
    """Longer bodies of whole cells and records: the capture-free grammar match,
    the counted-width match and the C splitting agree with the SPEC reading."""
    try:
        table = parse_csv(text)
        got: tuple[list[str], int] | str = (table.cells, table.width)
    except CsvError as exc:
        got = str(exc)
    assert got == reference(text)


def test_a_cell_longer_than_the_csv_modules_default_limit() -> None:
    """The C splitter's default limit is 131 072 characters a cell; a body's cell
    may be as long as the body (SPEC §12.1.6 has no cell cap)."""
    long = "x" * 200_000
    for text in (f'a,b\n"{long}",1\n', f"a,b\n{long},1\n", f'"a",b\n"{long}""",1'):
        table = parse_csv(text)
        assert (table.cells, table.width) == reference(text)
