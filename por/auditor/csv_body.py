"""CSV evidence bodies (``text/csv``, RFC 4180 with two stated relaxations; SPEC §12.1.4).

A CSV body becomes a :class:`CsvTable`, read by ``json_path`` as an array with
one object per data record, mapping each header name to that record's cell (a text).  Fields are
then located with ``json_path`` exactly as in JSON evidence: ``$[2].close``
(row by index, header excluded) or ``$[?(@.date=="2026-05-29")].close`` (row
by another column's value, §12.1.5).  Cells are texts, so they convert as
regex captures do (§12.1.3).

Grammar: RFC 4180 §2 (``file = header *(CRLF record) [CRLF]``, fields
separated by ``,``, a quoted field in ``"`` with ``""`` for a quote and may
hold commas and line breaks), with two relaxations: a record may end with LF
alone as well as CRLF, and one leading U+FEFF is skipped.  Refused
(``extract.bad_csv``): a quote inside an unquoted field, text after a closing
quote, an unterminated quote, a header name repeated or empty, a record whose
field count differs from the header's, more than :data:`MAX_CSV_CELLS` cells.
One pass, linear in the body.
"""

from __future__ import annotations

import operator
import re

#: Most cells one body may hold (header included).
MAX_CSV_CELLS = 1 << 20

_PAIR = re.compile(r'(?:(")((?:[^"]|"")*)"|([^,"\r\n]*))(,|\r\n|\n|\Z)')


class CsvError(ValueError):
    """A body outside the grammar (the message is stable)."""


def _quoted_records(text: str) -> list[list[str]]:
    """RFC 4180 records of a body with quotes: one C-level scan of cell + terminator
    pairs; the pairs must tile the text (else a quote is misplaced)."""
    if text.count(",") + text.count("\n") + 1 > MAX_CSV_CELLS:
        raise CsvError(f"CSV holds more than {MAX_CSV_CELLS} cells")
    records: list[list[str]] = []
    record: list[str] = []
    covered = 0
    for quote, quoted, plain, end in _PAIR.findall(text):
        covered += len(quoted) + 2 + len(end) if quote else len(plain) + len(end)
        record.append(quoted.replace('""', '"') if quote else plain)
        if end != ",":
            records.append(record)
            record = []
            if not end:  # \Z: the end of the text
                break
    if covered != len(text):
        raise CsvError("CSV has a quote inside a field or text after a closing quote")
    if text.endswith("\n") and records[-1] == [""]:
        records.pop()  # the empty match at \Z after the optional final line break
    return records


def _plain_lines(text: str) -> list[str]:
    """The lines of a body without quotes (split in C: no per-cell loop)."""
    if "\r" in text.replace("\r\n", "\n"):
        raise CsvError("CSV has a quote inside a field or text after a closing quote")
    lines = text.replace("\r\n", "\n").split("\n")
    if text.endswith("\n"):
        lines.pop()  # the optional final line break
    if text.count(",") + text.count("\n") + 1 > MAX_CSV_CELLS:
        raise CsvError(f"CSV holds more than {MAX_CSV_CELLS} cells")
    return lines


class CsvTable:
    """A parsed body: the header and the data records, read lazily (no object per
    row is built until a locator reads it).  ``json_path`` treats it as an array
    of header -> cell objects (:mod:`por.auditor.json_path`)."""

    __slots__ = ("_lines", "_records", "header", "index")

    def __init__(self, header: list[str], records: list[list[str]] | None,
                 lines: list[str] | None) -> None:
        self.header = header
        self.index = {name: i for i, name in enumerate(header)}
        self._records = records
        self._lines = lines

    def __len__(self) -> int:
        return len(self._records if self._records is not None else self._lines or ())

    def row(self, i: int) -> list[str]:
        """Data record ``i`` (0 = the first after the header)."""
        if self._records is not None:
            return self._records[i]
        return (self._lines or [])[i].split(",")

    def record(self, i: int) -> dict[str, str]:
        """Data record ``i`` as a header -> cell object."""
        return dict(zip(self.header, self.row(i), strict=True))


def parse_csv(text: str) -> CsvTable:
    """The parsed body; :class:`CsvError` if refused (see the module docstring)."""
    text = text[1:] if text.startswith("\ufeff") else text
    if '"' in text:
        records = _quoted_records(text)
        header, widths = records[0], set(map(len, records))
        table = CsvTable(header, records[1:], None)
    else:
        lines = _plain_lines(text)
        header = lines[0].split(",")
        widths = {n + 1 for n in map(operator.methodcaller("count", ","), lines)}
        table = CsvTable(header, None, lines[1:])
    if "" in header or len(set(header)) != len(header):
        raise CsvError("CSV header names must be unique and non-empty")
    if widths != {len(header)}:
        raise CsvError("CSV record has a different number of fields than the header")
    return table


__all__ = ["MAX_CSV_CELLS", "CsvError", "CsvTable", "parse_csv"]
