"""CSV evidence bodies (``text/csv``, RFC 4180 with two stated relaxations; SPEC §12.1.4).

A CSV body becomes a JSON-like document: an array with one object per data
record, mapping each header name to that record's cell (a text).  Fields are
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

import re

#: Most cells one body may hold (header included).
MAX_CSV_CELLS = 1 << 20

_CELL = re.compile(r'"((?:[^"]|"")*)"|([^,"\r\n]*)')
_END = re.compile(r",|\r\n|\n|\Z")


class CsvError(ValueError):
    """A body outside the grammar (the message is stable)."""


def _records(text: str) -> list[list[str]]:
    records: list[list[str]] = []
    record: list[str] = []
    position, cells = 0, 0
    while True:
        cell = _CELL.match(text, position)
        if cell is None:  # unreachable: the second branch matches the empty string
            raise CsvError("CSV cell is malformed")
        quoted = cell.group(1)
        record.append(quoted.replace('""', '"') if quoted is not None else cell.group(2))
        cells += 1
        if cells > MAX_CSV_CELLS:
            raise CsvError(f"CSV holds more than {MAX_CSV_CELLS} cells")
        end = _END.match(text, cell.end())
        if end is None:
            raise CsvError("CSV has a quote inside a field or text after a closing quote")
        position = end.end()
        if end.group() != ",":
            records.append(record)
            record = []
            if position >= len(text):
                return records


def parse_csv(text: str) -> list[dict[str, str]]:
    """The rows of a CSV body as header -> cell objects; :class:`CsvError` if refused."""
    text = text[1:] if text.startswith("\ufeff") else text
    records = _records(text)
    if len(records) > 1 and records[-1] == [""]:
        records.pop()  # the optional final line break
    header = records[0]
    if "" in header or len(set(header)) != len(header):
        raise CsvError("CSV header names must be unique and non-empty")
    rows: list[dict[str, str]] = []
    for record in records[1:]:
        if len(record) != len(header):
            raise CsvError("CSV record has a different number of fields than the header")
        rows.append(dict(zip(header, record, strict=True)))
    return rows


__all__ = ["MAX_CSV_CELLS", "CsvError", "parse_csv"]
