"""CSV evidence bodies (``text/csv``, RFC 4180 with two stated relaxations; SPEC §12.1.6).

A CSV body becomes a :class:`CsvTable`, read by ``json_path`` as an array with
one object per data record, mapping each header name to that record's cell (a text).  Fields are
then located with ``json_path`` exactly as in JSON evidence: ``$[2].close``
(row by index, header excluded) or ``$[?(@.date=="2026-05-29")].close`` (row
by another column's value, §12.1.7).  Cells are texts, so they convert as
regex captures do (§12.1.5).

Grammar: RFC 4180 §2 (``file = header *(CRLF record) [CRLF]``, fields
separated by ``,``, a quoted field in ``"`` with ``""`` for a quote and may
hold commas and line breaks), with two relaxations: a record may end with LF
alone as well as CRLF, and one leading U+FEFF is skipped.  Refused
(``extract.bad_csv``): a quote inside an unquoted field, text after a closing
quote, an unterminated quote, a header name repeated or empty, a record whose
field count differs from the header's, more than :data:`MAX_CSV_CELLS` cells.
Linear in the body: a scan in C, then list work per cell.
"""

from __future__ import annotations

import csv
import functools
import io
import itertools
import re

#: Most cells one body may hold (header included).
MAX_CSV_CELLS = 1 << 20

#: The ``csv`` module refuses a cell longer than its (process-wide) limit, 131 072
#: characters by default; no cell of a body is longer than the body, and no body
#: comes near 2^31 - 1 characters (the record cap is 64 MiB), so the limit is
#: raised once to that (the largest every platform's C long holds).
_CELL_LIMIT = (1 << 31) - 1
csv.field_size_limit(max(csv.field_size_limit(), _CELL_LIMIT))

#: A cell and its terminator; where no pair starts, the last group takes the rest of
#: the text (one failed attempt, then the end: the scan never restarts inside a run).
_CELL = r'(?:"(?:[^"]|"")*+"|[^,"\r\n]*+)'
#: Cells and their terminators tiling a whole body (possessive: a cell is closed
#: where the grammar closes it, so no other tiling exists to backtrack into).
_TILES = re.compile(rf"(?:{_CELL}(?:,|\r?\n))*+{_CELL}")


class CsvError(ValueError):
    """A body outside the grammar; ``message`` is one of :data:`CSV_MESSAGES`, the
    committed texts of SPEC §12.1.6 (never a library's text)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_MISPLACED = "CSV has a quote inside a field or text after a closing quote"
_WIDTH = "CSV record has a different number of fields than the header"
_TOO_MANY = f"CSV holds more than {MAX_CSV_CELLS} cells"
_HEADER = "CSV header names must be unique and non-empty"
#: Every committed ``extract.bad_csv`` message (SPEC §12.1.6's table).
CSV_MESSAGES = frozenset({_MISPLACED, _WIDTH, _TOO_MANY, _HEADER})


def _quoted_cells(text: str) -> tuple[list[str], int]:
    """Cells of a body with quotes and the header's width.  The grammar is decided
    by one match in C that builds nothing (cells and terminators must tile the
    text, else a quote or a CR is misplaced); the text, now known to be RFC 4180
    with LF or CRLF line ends, is split by the ``csv`` module (in C), which reads
    that grammar alike (an empty line, which it reads as no cells, is one empty
    cell; its errors cannot occur on such a text)."""
    if not _TILES.fullmatch(text):
        raise CsvError(_MISPLACED)
    rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    if [] in rows:
        rows = [row or [""] for row in rows]
    width = len(rows[0])
    if len(set(map(len, rows))) != 1:
        raise CsvError(_WIDTH)
    return list(itertools.chain.from_iterable(rows)), width


@functools.lru_cache(maxsize=64)
def _records_of_width(commas: int) -> re.Pattern[str]:
    """Records of ``commas + 1`` unquoted cells separated by LF, matched in C
    (counted repeats: the pattern's size does not grow with the width)."""
    record = rf"[^,\n]*+(?:,[^,\n]*+){{{commas}}}"
    return re.compile(rf"{record}(?:\n{record})*+")


def _plain_cells(text: str) -> tuple[list[str], int]:
    """The same for a body without quotes, checked and split in C (no per-record
    or per-cell loop: a million empty records cost what their bytes cost)."""
    text = text.replace("\r\n", "\n")
    if "\r" in text:
        raise CsvError(_MISPLACED)
    if text.endswith("\n"):
        text = text[:-1]  # the optional final line break
    newline = text.find("\n")
    commas = text.count(",", 0, len(text) if newline < 0 else newline)
    if not _records_of_width(commas).fullmatch(text):
        raise CsvError(_WIDTH)
    return text.replace("\n", ",").split(","), commas + 1


class CsvTable:
    """A parsed body: the header and the data cells in one flat list, read lazily
    (no object per row until a locator reads one; a column is a slice).
    ``json_path`` treats it as an array of header -> cell objects."""

    __slots__ = ("cells", "header", "index", "width")

    def __init__(self, cells: list[str], width: int) -> None:
        self.cells = cells
        self.width = width
        self.header = cells[:width]
        self.index = {name: i for i, name in enumerate(self.header)}

    def __len__(self) -> int:
        return len(self.cells) // self.width - 1

    def row(self, i: int) -> list[str]:
        """Data record ``i`` (0 = the first after the header)."""
        start = (i + 1) * self.width
        return self.cells[start:start + self.width]

    def record(self, i: int) -> dict[str, str]:
        """Data record ``i`` as a header -> cell object."""
        return dict(zip(self.header, self.row(i), strict=True))

    def column(self, name: str) -> list[str]:
        """The data cells of column ``name`` (empty if there is no such column)."""
        j = self.index.get(name)
        return [] if j is None else self.cells[self.width + j::self.width]


def parse_csv(text: str) -> CsvTable:
    """The parsed body; :class:`CsvError` if refused (see the module docstring)."""
    text = text[1:] if text.startswith("\ufeff") else text
    if text.count(",") + text.count("\n") + 1 > MAX_CSV_CELLS:
        raise CsvError(_TOO_MANY)
    cells, width = _quoted_cells(text) if '"' in text else _plain_cells(text)
    header = cells[:width]
    if "" in header or len(set(header)) != len(header):
        raise CsvError(_HEADER)
    return CsvTable(cells, width)


__all__ = ["MAX_CSV_CELLS", "CsvError", "CsvTable", "parse_csv"]
