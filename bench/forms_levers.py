"""The call data of a FormStepProof under the two layout levers of ADR 0017 (s39
decision 3), measured without changing a committed byte (s40, helper ``levers``); s41
took (a)+v into SPEC §5.6 (helper ``layout``), so ``today`` is (a)+v.

Every form is rebuilt in memory from the bundle's records (``forms_levers_layouts``),
under three layouts (six with ``--levers``):

* ``today``: SPEC §5.6, s40's (a)+v (checked: these encoders give ``por.forms``' bytes,
  word for word);
* ``today+b``: today with (b);
* ``s40``: SPEC §5.6 before s41 (no lever);

and with ``--levers`` s40's levers alone, on s40's layout:

* ``s40+a``: ``H(id)`` instead of ``T(id)`` for every id a form only copies or compares for
  equality: claim ids everywhere; evidence ids everywhere but EXTRACT's own ``T`` (the one
  place the JudgeProof counts an id's code points, its schema lock); the field keys
  (REQUIREMENT drops its ``T(key)``, AGGREGATE's field key is ``H``); AGGREGATE's
  ``o.requirement_id``. ``T`` stays where a text is composed into a description
  (``inputs.requirement_id`` of CHUNK and AGGREGATE, COMMON's metric, DEDUCE's
  ``uncovered_requirements``) and for values (claim values, ``expected_text``);
* ``s40+b``: the AGGREGATE split into a head and one part per field: the head is the form
  with ``L[field]`` replaced by ``L[H(key) E(kind) E(status) B32(SHA-256(part))]``, a
  part is the field encoding; the forms tree holds ``LH(head)`` (no new leaves).
  The aggregate's proof carries the committed head only (it rebuilds the parts and
  compares the rebuilt head); deduce carries each AGGREGATE head and the parts of the
  fields it reads (the first field with each needed key, and the metric requirement's
  first selected timestamp field), as an extra ``bytes[] parts`` with one ``uint256``
  (carried position << 32 | field index) a part;
* ``s40+a+b``: both.

+v is ``a`` with text claim values, COMMON's ``expected_text`` and a precondition's
``equals`` as ``H`` too (every executor compares them for equality only: votes,
``text_equals``, preconditions).

For each proof class at the caps (``bench/largest_shapes.py``'s four markets, filler of
1-4 UTF-8 bytes, as ``bench/forms_sizes.py``: the largest proof of the class over the
shapes) and for the typical market (``bench/proofs.py``'s scenario 08 of 3 items) it
prints the call data of ``settleByForms(bytes32 marketId, bytes32 kind, bytes args)``
(s40's route: ``args`` is the executor's call data without its selector) in bytes and
its EIP-2028 gas (16 a non-zero byte, 4 a zero byte), with EIP-7623's floor (21 000 +
10 a token, a zero byte 1 token and a non-zero byte 4: the transaction pays at least
that whatever its execution; anvil's default hardfork applies it), and the
``por.FormStepProof/1`` file's bytes (por-cbor/1; under ``b`` plus the parts).
``--detail`` prints each proof's bytes by carried form type and the SHA-256 price of its
forms' leaf hashes; ``--json`` every proof's figures. ``contradictions`` has no executor on
forms yet: its row is what it would carry (CONTRADICTIONS, COMMON, its cited CHUNKs).

    PYTHONPATH=. python bench/forms_levers.py [--fill-bytes 1 2 3 4] [--levers] [--detail]
        [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from eth_abi.abi import encode as abi_encode  # noqa: E402
from forms_levers_layouts import (  # noqa: E402
    BOTH,
    EVERY,
    LEVER_A,
    LEVER_B,
    S40,
    TODAY,
    Committed,
    Layout,
    committed,
    same_as_spec,
)

from por.bundle.layout import Bundle  # noqa: E402
from por.challenge.one_step import positions_of  # noqa: E402
from por.challenge.records import FormStepProof  # noqa: E402
from por.encoding import decode, encode  # noqa: E402
from por.forms.component import TAG_NAMES  # noqa: E402
from por.signing.eip712 import keccak256  # noqa: E402

INCLUSION = "(bytes32,uint256,uint256[],bytes32[][],bytes32[])"
TX = 21_000
CLASSES = ("aggregate", "check", "deduce", "judge", "contradictions")
STEP_KIND = {"aggregate": "aggregate", "check": "check_requirement", "deduce": "deduce",
             "contradictions": "contradictions"}


# ------------------------------------------------------------------ what a proof carries

def _first_leaf(steps: Sequence[Mapping[str, Any]]) -> dict[Any, int]:
    by_id: dict[Any, int] = {}
    for i, step in enumerate(steps):
        by_id.setdefault(step.get("step_id"), i)
    return by_id


def carried(bundle: Bundle, kind: str, leaf: int) -> list[int]:
    """The forms indexes a FormStepProof of ``kind`` carries, in the executor's order
    (s40 ``common.md``; the tests' call data builders): check / aggregate: the step,
    COMMON, R's REQUIREMENT (the first when R is none), its priors; deduce and
    contradictions: the step, COMMON, its priors; judge: VERDICT, COMMON, the last
    step, the extract step at each summarised id's first evidence leaf."""
    spec = decode(bundle.prompt_spec)
    steps = [decode(s) for s in bundle.steps]
    r = len(spec["data_requirements"])
    if kind == "judge":
        size = r + len(steps) + 2
        summary = steps[-1]["output"]["evaluation_variables"]["source_summary"]
        wanted = list(dict.fromkeys(summary))
        found = positions_of(bundle.evidence, "evidence_id", set(wanted))
        return [size - 1, 0, size - 2, *(1 + r + found[w] for w in wanted if w in found)]
    step = steps[leaf]
    by_id = _first_leaf(steps)
    cited = [1 + r + by_id[p] for p in step["prior_step_ids"]]
    if kind in ("check", "aggregate"):
        rids = [q["requirement_id"] for q in spec["data_requirements"]]
        rid = step["inputs"].get("requirement_id")
        return [1 + r + leaf, 0, 1 + (rids.index(rid) if rid in rids else 0), *cited]
    return [1 + r + leaf, 0, *cited]


def needed_parts(bundle: Bundle, c: Committed, index: list[int]) -> list[tuple[int, int]]:
    """(b): (carried position, field index) of each AGGREGATE field part deduce reads: the
    first field, in requirement then field order, with each key the predicate needs
    (``por.predicates.needed_fields``: metric, terms, other metric, preconditions), and
    the metric requirement's first selected ``timestamp`` field (``deduce._stamp``)."""
    ps = decode(bundle.prompt_spec)["prediction_semantics"]
    keys = [ps["metric"], *(t["metric"] for t in ps.get("terms", [])),
            *([ps["other_metric"]] if "other_metric" in ps else []),
            *(p["key"] for p in ps.get("preconditions", []))]
    fields = []
    for position, j in enumerate(index):
        if position and j in c.parts:
            step = decode(bundle.steps[j - 1 - c.requirements])
            fields.append((position, step["output"]["fields"]))
    hits = [next(((p, n) for p, fs in fields for n, f in enumerate(fs) if f["key"] == key),
                 None) for key in keys]
    chosen = [hit for hit in hits if hit is not None]
    metric_owner = hits[0][0] if hits[0] is not None else None
    skip = ps["metric"] if ps["predicate"] == "timestamp_threshold" else None
    for p, fs in fields:
        if p == metric_owner:
            stamp = next((n for n, f in enumerate(fs) if f["kind"] == "timestamp"
                          and f["status"] == "selected" and f["key"] != skip), None)
            if stamp is not None:
                chosen.append((p, stamp))
    return sorted(set(chosen))


@dataclass(frozen=True)
class Proof:
    """One FormStepProof's sizes: its call data, its file's bytes, the bytes of the forms
    it carries by type (an AGGREGATE's parts counted with it)."""

    calldata: bytes
    record: int
    by_type: dict[str, int]
    sha256: int


    @property
    def gas(self) -> int:
        """EIP-2028: 16 a non-zero byte, 4 a zero byte."""
        zeros = self.calldata.count(0)
        return 4 * zeros + 16 * (len(self.calldata) - zeros)

    @property
    def floor(self) -> int:
        """EIP-7623's floor on the transaction: 21 000 + 10 a token (a zero byte 1, a
        non-zero byte 4)."""
        zeros = self.calldata.count(0)
        return TX + 10 * (zeros + 4 * (len(self.calldata) - zeros))


def proof(bundle: Bundle, c: Committed, kind: str, index: list[int]) -> Proof:
    """``settleByForms(marketId, keccak256("form:" || kind), args)``'s call data and the
    ``por.FormStepProof/1`` file's bytes (under (b) a deduce proof also carries the
    parts, each with one word naming its carried form and field)."""
    forms = [c.forms[j] for j in index]
    inc = (c.por_root, len(c.forms), index, [c.path(j) for j in index], c.component_path)
    wanted = needed_parts(bundle, c, index) if kind == "deduce" and c.layout.split else []
    parts = [c.parts[index[p]][n] for p, n in wanted]
    if c.layout.split and kind == "deduce":
        args = abi_encode(["bytes[]", "bytes[]", "uint256[]", INCLUSION],
                          [forms, parts, [p << 32 | n for p, n in wanted], inc])
    else:
        args = abi_encode(["bytes[]", INCLUSION], [forms, inc])
    kind_word = keccak256(f"form:{kind}".encode())
    market = decode(bundle.prompt_spec)["market"]["market_id"]
    sig = keccak256(b"settleByForms(bytes32,bytes32,bytes)")[:4]
    calldata = sig + abi_encode(["bytes32", "bytes32", "bytes"],
                                [keccak256(market.encode()), kind_word, args])
    record = FormStepProof.model_validate({
        "schema": "por.FormStepProof/1", "challenge_id": keccak256(kind_word + args),
        "kind": "check" if kind == "contradictions" else kind, "por_root": c.por_root,
        "forms": forms, "index": index, "forms_size": len(c.forms),
        "paths": [c.path(j) for j in index], "forms_path": c.component_path})
    size = len(record.to_cbor())
    if parts:
        size += len(encode({"parts": parts, "part_at": [p << 32 | n for p, n in wanted]})) - 1
    by_type: dict[str, int] = {}
    for form in forms:
        tag = TAG_NAMES[int.from_bytes(form[:32], "big")]
        by_type[tag] = by_type.get(tag, 0) + len(form)
    if parts:
        by_type["AGGREGATE parts"] = sum(map(len, parts))
    # The SHA-256 precompile's price (60 + 12 a word) of each carried form's LH (0x00 || F)
    # and, under (b), of each carried part: the execution gas the layout moves most.
    sha = sum(60 + 12 * ((len(f) + 32) // 32) for f in forms) + sum(
        60 + 12 * ((len(x) + 31) // 32) for x in parts)
    return Proof(calldata, size, by_type, sha)


Row = tuple[str, str, dict[str, Proof]]


def leaves_of(bundle: Bundle, kind: str) -> list[int]:
    """The reasoning leaves a proof of ``kind`` can dispute (the judge: one, -1)."""
    if kind == "judge":
        return [-1]
    return [i for i, s in enumerate(bundle.steps) if decode(s)["inputs"]["kind"] == STEP_KIND[
        kind]]


def candidates(bundles: Mapping[str, Bundle], layouts: Sequence[Layout], kind: str
               ) -> list[tuple[str, dict[str, Proof]]]:
    """Every proof of ``kind`` over ``bundles`` (shape, each layout's proof)."""
    out = []
    for name, bundle in bundles.items():
        trees = {lay.name: committed(bundle, lay) for lay in layouts}
        for leaf in leaves_of(bundle, kind):
            index = carried(bundle, kind, leaf)
            out.append((name, {n: proof(bundle, c, kind, index) for n, c in trees.items()}))
    return out


def largest(found: Sequence[tuple[str, dict[str, Proof]]]) -> tuple[str, dict[str, Proof]]:
    """The largest proof by today's call data (each layout's figures for that proof)."""
    return max(found, key=lambda x: len(x[1][TODAY.name].calldata))


def _n(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def _cell(p: Proof, base: Proof) -> str:
    """Bytes; gas, and the change of the gas against today's."""
    text = f"{_n(len(p.calldata))}; {_n(p.gas)}"
    if p is base:
        return text
    return f"{text} ({100 * (p.gas - base.gas) / base.gas:+.0f} %)"


def table(rows: list[Row], layouts: Sequence[Layout]) -> None:
    """The markdown table: bytes; EIP-2028 gas per layout, then EIP-7623's floor and the
    FormStepProof file's bytes, today and under today+b."""
    names = [lay.name for lay in layouts]
    print("| proof | shape | " + " | ".join(f"{n}: bytes; gas" for n in names)
          + " | floor (EIP-7623) today / today+b | FormStepProof file today / today+b (B) |")
    print("| --- | --- |" + " ---: |" * (len(names) + 2))
    for label, shape, proofs in rows:
        base, both = proofs[TODAY.name], proofs[EVERY.name]
        print(f"| {label} | {shape} | "
              + " | ".join(_cell(proofs[n], base) for n in names)
              + f" | {_n(base.floor)} / {_n(both.floor)} | {_n(base.record)} / "
              f"{_n(both.record)} |")


def detail(rows: list[Row], layouts: Sequence[Layout]) -> None:
    """Where each proof's call data goes: bytes of the carried forms by type (parts with
    the AGGREGATE), paths and framing, per layout."""
    for label, shape, proofs in rows:
        print(f"{label} ({shape}):")
        for lay in layouts:
            p = proofs[lay.name]
            parts = ", ".join(f"{tag} {_n(n)}" for tag, n in p.by_type.items())
            rest = len(p.calldata) - sum(p.by_type.values())
            print(f"  {lay.name:5} {parts}; paths and framing {_n(rest)}; "
                  f"SHA-256 of the carried forms {_n(p.sha256)} gas")


def caps_table(found: Sequence[Row], layouts: Sequence[Layout]) -> None:
    """Per class, the largest proof at the caps under each layout (any shape and width:
    under a lever another proof may be the largest), then the largest file of the four
    executors' proofs."""
    names = [lay.name for lay in layouts]
    print("\n| largest at the caps | " + " | ".join(f"{n}: gas (bytes), where" for n in names)
          + " |")
    print("| --- |" + " ---: |" * len(names))
    for kind in CLASSES:
        mine = [r for r in found if r[0].startswith(f"{kind},")]
        cells = []
        for n in names:
            label, shape, proofs = max(mine, key=lambda r, n=n: r[2][n].gas)
            fill = label.rsplit(" ", 1)[1]
            cells.append(f"{_n(proofs[n].gas)} ({_n(len(proofs[n].calldata))}), {shape} {fill}")
        print(f"| {kind} | " + " | ".join(cells) + " |")
    four = [r for r in found if not r[0].startswith("contradictions")]
    cells = []
    for n in names:
        label, shape, proofs = max(four, key=lambda r, n=n: r[2][n].record)
        cells.append(f"{_n(proofs[n].record)} B, {label.split(',')[0]} {shape} "
                     f"{label.rsplit(' ', 1)[1]}")
    print("| FormStepProof file, four executors | " + " | ".join(cells) + " |")


def typical(layouts: Sequence[Layout]) -> list[Row]:
    from proofs import market as scenario

    bundle = scenario(3)
    same_as_spec(bundle)
    return [(f"{kind}, typical (fan-in 3)", "08 x 3",
             largest(candidates({"08 x 3": bundle}, layouts, kind))[1]) for kind in CLASSES]


def caps(width: int, layouts: Sequence[Layout]) -> tuple[list[Row], list[Row]]:
    """Per class the largest proof at filler ``width``, and every proof."""
    from largest_gas import FILLS
    from largest_shapes import CAPS, SHAPES, market

    CAPS["fill"] = FILLS[width]
    bundles = {name: market(shape) for name, shape in SHAPES.items()}
    for bundle in bundles.values():
        same_as_spec(bundle)
    rows, every = [], []
    for kind in CLASSES:
        found = candidates(bundles, layouts, kind)
        label = f"{kind}, caps, fill {width}"
        shape, proofs = largest(found)
        rows.append((label, shape, proofs))
        every += [(label, name, x) for name, x in found]
    return rows, every


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fill-bytes", type=int, nargs="*", choices=(1, 2, 3, 4),
                        default=[1, 2, 3, 4], help="UTF-8 widths of the caps markets' filler")
    parser.add_argument("--levers", action="store_true",
                        help="add s40's levers alone: s40+a, s40+b, s40+a+b")
    parser.add_argument("--detail", action="store_true",
                        help="also print each proof's bytes by carried form type")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    layouts = [TODAY, EVERY, S40] + ([LEVER_A, LEVER_B, BOTH] if args.levers else [])
    rows, every = typical(layouts), []
    for width in args.fill_bytes:
        largest_rows, found = caps(width, layouts)
        rows += largest_rows
        every += found
    if args.json:
        def doc(found: Sequence[Row]) -> list[dict[str, Any]]:
            return [{"proof": label, "shape": shape, **{
                n: {"bytes": len(p.calldata), "gas": p.gas, "floor": p.floor,
                    "record": p.record, "forms": p.by_type, "sha256": p.sha256}
                for n, p in proofs.items()}} for label, shape, proofs in found]

        print(json.dumps({"largest": doc(rows), "every": doc(every)}, indent=1))
        return 0
    table(rows, layouts)
    if every:
        caps_table(every, layouts)
    if args.detail:
        detail(rows, layouts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
