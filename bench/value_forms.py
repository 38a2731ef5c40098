"""Benchmark: CSV bodies and json_path filters cost about what honest JSON costs (SPEC §17).

Extraction of one evidence item of about 1 MB, in process (CPU time, best of
``--repeat``), for an honest JSON API body (one plain field: the baseline), honest
CSV bodies (no quotes; every numeric cell quoted), an honest filtered field, and
hostile inputs of the same size: CSV bodies of empty records or empty quoted cells
(most cells per byte), a quoted CSV whose header is refused at the end, and 8
filtered fields (the field cap, SPEC §4.2) over one large array (the filter budget
stops them), and 8 value-mapped fields reading one 1 MB string.  Each line
prints the ratio to the baseline measured in the same run.  It prints and never fails.

Usage: python bench/value_forms.py [--size 1000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from por.auditor.claim_extraction import extract_item
from por.schemas import (
    DataRequirement,
    EvidenceItem,
    FieldSpec,
    RetrievalReceipt,
    SelectionPolicy,
    SourceRef,
    SourceTarget,
)
from por.schemas.prompt import ValueMap, ValueMapEntry


def _requirement(fields: list[FieldSpec], content_type: str) -> DataRequirement:
    return DataRequirement(
        requirement_id="r1", description="bench",
        source_targets=[SourceTarget(source_id="s", uri="https://s.example/",
                                     expected_content_type=content_type)],  # type: ignore[arg-type]
        selection_policy=SelectionPolicy(strategy="single_best"), expected_fields=fields)


def _item(body: str, content_type: str) -> EvidenceItem:
    return EvidenceItem(
        evidence_id="e1", requirement_id="r1",
        source=SourceRef(source_id="s", uri="https://s.example/", provider="s"),
        content_type=content_type, content=body.encode("utf-8"),  # type: ignore[arg-type]
        retrieval_receipt=RetrievalReceipt(retrieved_at=1, method="GET", status_code=200),
        provenance_tier=1, confidence_bps=9000)


def _fit(unit: str, size: int, head: str = "", tail: str = "") -> str:
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


def _cut(text: str, size: int) -> str:
    return text[:text.rfind("\n", 0, size) + 1]


def cases(size: int) -> list[tuple[str, str, str, list[FieldSpec]]]:
    """(name, content type, body, fields) per case; the first is the baseline."""
    row = {"date": "2026-05-01", "open": "100.25", "high": "101.5", "close": "100.5",
           "volume": 123456, "ticker": "T"}
    rows = json.dumps([dict(row, ticker=f"T{i}") for i in range(size // 100)])[:size - 64]
    rows = rows[:rows.rfind("},") + 1] + "]"
    plain = FieldSpec(key="v", kind="numeric", json_path="$.last")
    filtered = FieldSpec(key="v", kind="numeric", json_path='$.rows[?(@.ticker=="T7")].open')
    column = FieldSpec(key="v", kind="numeric", json_path='$[?(@.date=="d9")].close')
    many = [FieldSpec(key=f"f{i}", kind="numeric", json_path=f'$.rows[?(@.ticker=="T{i}")].open')
            for i in range(8)]  # the field cap (SPEC §4.2)
    plain_rows = "".join(f"d{i},100.25,101.5,99.75,100.5,123456\n" for i in range(size // 30))
    quoted_rows = "".join(f'd{i},"1,100.25","1,101.5","99.75"\n' for i in range(size // 30))
    tiny = _fit("{},", size, '{"rows":[', "{}]}")
    folded = ValueMap(normalise="trim_casefold", others="refuse",
                      entries=[ValueMapEntry(printed="YES", value="true")])
    mapped = [FieldSpec(key=f"m{i}", kind="boolean", json_path="$.a", value_map=folded)
              for i in range(8)]
    return [
        ("honest json (1 field)", "application/json", '{"rows":' + rows + ',"last":1}', [plain]),
        ("honest json filter", "application/json", '{"rows":' + rows + "}", [filtered]),
        ("honest csv plain", "text/csv",
         _cut("date,open,high,low,close,volume\n" + plain_rows, size), [column]),
        ("honest csv quoted", "text/csv", _cut("date,open,high,close\n" + quoted_rows, size),
         [column]),
        ("hostile csv empty records", "text/csv", _fit("\n", size, "date\n"), [column]),
        ("hostile csv quoted empties", "text/csv", _fit('"",""\n', size, "a,date\n"), [column]),
        ("hostile csv bad header", "text/csv", _fit('"",', size), [column]),
        ("hostile csv late CR", "text/csv", _fit("a", size, '"date"\n', "\r"), [column]),
        ("hostile csv late quote", "text/csv", _fit("a", size, '"', '"x'), [column]),
        ("hostile 8 filters", "application/json", '{"rows":' + rows + "}", many),
        ("hostile 8 filters, tiny", "application/json", tiny, many),
        ("hostile 8 value maps", "application/json", _fit("B", size, '{"a":"', '"}'), mapped),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    baseline = None
    for name, content_type, body, fields in cases(args.size):
        requirement, item = _requirement(fields, content_type), _item(body, content_type)
        best = float("inf")
        for _ in range(args.repeat):
            start = time.process_time()
            found = extract_item(requirement, item)
            best = min(best, time.process_time() - start)
        baseline = baseline or best
        codes = sorted({w.check_id for w in found.warnings})
        print(f"{name:28s} {len(body):>9d} B {best * 1000:8.1f} ms {best / baseline:5.2f}x "
              f"claims {len(found.claims):2d} {' '.join(codes)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
