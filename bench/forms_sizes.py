"""The largest chain form of each type (SPEC §5.6.16), from ``bench/largest_shapes.py``'s
markets at the caps, computed by ``por.forms``.

For each UTF-8 width of the filler (``CAPS["fill"]`` as ``bench/largest_gas.py
--fill-bytes 1..4`` sets it) it builds the four shapes (``one.text``, ``one.numeric``,
``many``, ``many.conflict``), computes every record's form (``por.forms.forms_of``) and
prints, per form type, the largest size in words (bytes = 32 x words) with the shape
that has it.  Deterministic (the markets are); slow (16 bundles built at the caps).

    PYTHONPATH=. python bench/forms_sizes.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from largest_gas import FILLS  # noqa: E402
from largest_shapes import CAPS, SHAPES, market  # noqa: E402

from por.forms import forms_of  # noqa: E402
from por.forms.component import TAG_NAMES  # noqa: E402
from por.schemas import DeterministicVerdict, PromptSpec, ReasoningStep  # noqa: E402


def largest(width: int) -> dict[str, tuple[int, list[str]]]:
    """Per form type, (largest size in words, the shapes that have it) at filler ``width``."""
    CAPS["fill"] = FILLS[width]
    out: dict[str, tuple[int, list[str]]] = {}
    for name in sorted(SHAPES):
        bundle = market(SHAPES[name])
        forms = forms_of(PromptSpec.from_cbor(bundle.prompt_spec),
                         [ReasoningStep.from_cbor(s) for s in bundle.steps],
                         DeterministicVerdict.from_cbor(bundle.verdict))
        for f in forms.forms:
            words, kind = len(f.form) // 32, TAG_NAMES[f.tag]
            top, shapes = out.get(kind, (0, []))
            if words > top:
                out[kind] = (words, [name])
            elif words == top and name not in shapes:
                shapes.append(name)
    return out


def _n(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    table = {width: largest(width) for width in (1, 2, 3, 4)}
    if args.json:
        print(json.dumps({str(w): {k: {"words": n, "shape": s} for k, (n, s) in t.items()}
                          for w, t in table.items()}, indent=1, sort_keys=True))
        return 0
    print("| form | words, 1-/2-/3-/4-byte fill | bytes at 4-byte fill | shape |")
    print("| --- | ---: | ---: | --- |")
    for kind in TAG_NAMES.values():
        sizes = [table[w][kind] for w in (1, 2, 3, 4)]
        shapes = sorted({s for _, names in sizes for s in names})
        print(f"| {kind} | {' / '.join(_n(n) for n, _ in sizes)} | {_n(32 * sizes[3][0])} "
              f"| {', '.join(shapes)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
