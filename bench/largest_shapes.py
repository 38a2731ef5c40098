"""Honest markets at the protocol's caps, for ``bench/largest_gas.py`` (issue 24 item 7).

Every text the bundle commits is as long as its rule allows, in 4-byte UTF-8 code
points where the rule counts code points (SPEC §4.1: an id is at most
``MAX_ID_LENGTH`` = 128 code points, so 512 bytes): evidence ids (in no PromptSpec,
so free) at 128 code points; text claim values at ``TEXT_CLAIM_MAX_BYTES`` = 256 bytes
(SPEC §12.1), numeric ones at the 64 characters of a canonical decimal (SPEC §3.2).
The PromptSpec's own texts (field keys, json paths, source and requirement ids) share
its ``MAX_PROMPT_SPEC_BYTES`` = 8 192 canonical bytes: :func:`fitted` spends what the
market's structure leaves on the requirement ids first (every step of a requirement
repeats its id), then the field keys (every claim, group and aggregate field repeats a
key), the json paths (every claim repeats its path) and the source ids, and pads
``event_definition`` (read by people only) to exactly 8 192 bytes. At the caps that
gives, in code points: ``one`` requirement 128, keys 125, paths 8, sources 4; ``many``
requirements 37, keys 6, paths 8, sources 4.

Two shapes cover the kinds (:data:`SHAPES`):

* ``one``: one requirement at its caps, 10 source targets and 8 expected fields, 20
  items (two from each source), so chunk 1 is a full 10-item chunk citing chunk 0;
  ``multi_source_quorum`` with ``sources_required`` set, so every field and the
  metric's votes are written. ``text`` variant: the metric numeric, the 7 other fields
  text (256-byte values); ``numeric``: all 8 numeric (64-character decimals).
* ``many``: 8 requirements of 2 numeric fields each (the spec's 16) and 3 sources each
  (the quorum's; 8 requirements of 6 or more sources do not fit 8 KiB even at the
  shortest texts, 5 do), 10 items each, so deduce reads 8 aggregates;
  ``many.conflict``: the same with odd items' values 1 more (beyond tolerance 0.5), so
  the contradictions step merges 8 chunks' 16 groups, each a conflict.

Every bundle is built by ``por.bundle.build`` and must pass ``por verify`` (exit 0):
:func:`verified` raises otherwise (a hard error, never a skip).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from por.auditor.claim_extraction import TEXT_CLAIM_MAX_BYTES
from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.protocol.limits import (
    CHECK_CHUNK_ITEMS,
    MAX_EXPECTED_FIELDS,
    MAX_ID_LENGTH,
    MAX_PROMPT_SPEC_BYTES,
    MAX_REQUIREMENTS,
    MAX_SOURCE_TARGETS,
    MAX_SPEC_EXPECTED_FIELDS,
)
from por.schemas import PromptSpec

ROOT = Path(__file__).resolve().parents[1]
_FACTORIES = ROOT / "tests" / "unit" / "auditor" / "factories.py"
_spec = importlib.util.spec_from_file_location("auditor_factories", _FACTORIES)
assert _spec is not None and _spec.loader is not None
f = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(f)

#: Longest locator (``FieldSpec.json_path``, SPEC §4.2), code points.
MAX_PATH = 256
#: Longest canonical decimal (SPEC §3.2), characters.
MAX_DECIMAL = 64
#: A code point of 4 UTF-8 bytes (Plane 1), the filler of every long text.
WIDE = "\U0001f600"
#: The caps the markets are built at (``bench/largest_gas.py --id-points/--text-bytes/
#: --path-points/--ascii/--spec-bytes`` change them to ask "what if the cap were lower"):
#: code points of an id and of a json path, UTF-8 bytes of a text claim value, the
#: filler code point, the PromptSpec's canonical bytes.
CAPS: dict[str, Any] = {"id": MAX_ID_LENGTH, "path": MAX_PATH, "text": TEXT_CLAIM_MAX_BYTES,
                        "fill": WIDE, "spec": MAX_PROMPT_SPEC_BYTES}


def wide(tag: str, points: int) -> str:
    """A text of ``points`` code points: ``tag`` (ASCII, makes it unique) then
    ``CAPS["fill"]`` (4 UTF-8 bytes each by default)."""
    return tag + CAPS["fill"] * max(0, points - len(tag))


def text_value(n: int) -> str:
    """A text claim value of exactly ``CAPS["text"]`` UTF-8 bytes."""
    head, size = f"v{n}-", CAPS["text"]
    width = len(CAPS["fill"].encode("utf-8"))
    return head + CAPS["fill"] * ((size - len(head)) // width) + "x" * (
        (size - len(head)) % width)


def decimal_value(n: int, spread: int = 0) -> str:
    """A canonical decimal of ``MAX_DECIMAL`` characters; with ``spread`` 0 every one
    agrees within tolerance 0.5 (only the last digits differ), else ``n`` odd is
    ``spread`` more (a conflict)."""
    whole = "1" + "0" * 30 + str(spread * (n % 2))
    frac = "5" * 29 + f"{n % 10}" + "1"
    value = f"{whole}.{frac}"
    assert len(value) == MAX_DECIMAL, len(value)
    return value


@dataclass(frozen=True)
class Lengths:
    """Code points of the PromptSpec's texts: requirement ids, field keys, json paths,
    source ids."""

    requirement: int
    key: int
    path: int
    source: int


@dataclass(frozen=True)
class Shape:
    """A market's structure; ``text``: fields after the metric are text; ``conflict``:
    the numeric values of even and odd items differ by 1 (a contradiction per field)."""

    name: str
    requirements: int
    fields: int
    sources: int
    items: int
    text: bool
    conflict: bool = False


SHAPES = {
    "one.text": Shape("one.text", 1, MAX_EXPECTED_FIELDS, MAX_SOURCE_TARGETS,
                      2 * CHECK_CHUNK_ITEMS, True),
    "one.numeric": Shape("one.numeric", 1, MAX_EXPECTED_FIELDS, MAX_SOURCE_TARGETS,
                         2 * CHECK_CHUNK_ITEMS, False),
    "many": Shape("many", MAX_REQUIREMENTS, MAX_SPEC_EXPECTED_FIELDS // MAX_REQUIREMENTS,
                  3, CHECK_CHUNK_ITEMS, False),
    "many.conflict": Shape("many.conflict", MAX_REQUIREMENTS,
                           MAX_SPEC_EXPECTED_FIELDS // MAX_REQUIREMENTS, 3, CHECK_CHUNK_ITEMS,
                           False, conflict=True),
}


def _key(r: int, k: int, n: Lengths) -> str:
    return wide(f"k{r}_{k}_", n.key)


def _name(r: int, k: int, n: Lengths) -> str:
    return wide(f"p{r}_{k}_", n.path - 2)  # "$." + name


def _source(s: int, n: Lengths) -> str:
    return wide(f"s{s:02d}_", n.source)


def spec_of(shape: Shape, n: Lengths) -> PromptSpec:
    """The PromptSpec of ``shape`` with texts of lengths ``n`` (not padded)."""
    sources = [_source(s, n) for s in range(shape.sources)]
    reqs = []
    for r in range(shape.requirements):
        fields = [f.json_field(_key(r, k, n), "text" if shape.text and k else "numeric",
                               "$." + _name(r, k, n)) for k in range(shape.fields)]
        reqs.append(f.requirement(wide(f"r{r}_", n.requirement), sources=sources,
                                  strategy="multi_source_quorum", min_sources=3, quorum=3,
                                  tie_breaker="highest_provenance", fields=fields))
    spec = f.prompt_spec(requirements=reqs, metric=_key(0, 0, n), tolerance="0.5",
                         market_id=wide("m_", CAPS["id"]))
    semantics = spec.prediction_semantics.model_copy(update={"sources_required": 3})
    return spec.model_copy(update={"prediction_semantics": semantics})  # type: ignore[no-any-return]


def padded(spec: PromptSpec) -> PromptSpec:
    """``spec`` with ``event_definition`` padded to exactly ``CAPS["spec"]`` canonical
    bytes (``MAX_PROMPT_SPEC_BYTES``), validated again (the §4.2 byte cap)."""
    for _ in range(4):  # the text's CBOR head may grow by a byte or two
        delta = CAPS["spec"] - len(spec.to_cbor())
        text = spec.market.event_definition
        text = text + " " * delta if delta >= 0 else text[:delta]
        spec = spec.model_copy(update={"market": spec.market.model_copy(
            update={"event_definition": text})})
    assert len(spec.to_cbor()) == CAPS["spec"], len(spec.to_cbor())
    return PromptSpec.model_validate(spec.model_dump(by_alias=True))


def _fits(shape: Shape, n: Lengths) -> bool:
    try:
        return len(spec_of(shape, n).to_cbor()) <= CAPS["spec"]
    except ValueError:  # pydantic's ValidationError: the §4.2 byte cap
        return False


def fitted(shape: Shape) -> tuple[PromptSpec, Lengths]:
    """The PromptSpec of ``shape`` at 8 192 bytes with the longest texts that fit:
    the requirement ids first (every step of the requirement repeats its id), then the
    keys (every claim, group and aggregate field), the json paths (every claim), the
    source ids (each searched by halving)."""
    lengths = Lengths(requirement=min(4, CAPS["id"]), key=min(6, CAPS["id"]), path=8,
                      source=min(4, CAPS["id"]))
    if not _fits(shape, lengths):
        raise ValueError(f"{shape.name}: over {CAPS['spec']} bytes at the shortest texts")
    ids = CAPS["id"]
    for attr, top in (("requirement", ids), ("key", ids), ("path", CAPS["path"]),
                      ("source", ids)):
        low, high = getattr(lengths, attr), top
        while low < high:
            mid = (low + high + 1) // 2
            trial = Lengths(**{**lengths.__dict__, attr: mid})
            if _fits(shape, trial):
                low = mid
            else:
                high = mid - 1
        lengths = Lengths(**{**lengths.__dict__, attr: low})
    return padded(spec_of(shape, lengths)), lengths


def _content(shape: Shape, r: int, n: int, lengths: Lengths) -> bytes:
    import json

    values: dict[str, Any] = {}
    for k in range(shape.fields):
        text = shape.text and k > 0
        spread = int(shape.conflict)
        values[_name(r, k, lengths)] = text_value(k) if text else decimal_value(n, spread)
    body = json.dumps(values, ensure_ascii=False, separators=(",", ":"))
    for k in range(shape.fields):  # decimals as JSON numbers, spelt exactly
        if not (shape.text and k > 0):
            body = body.replace(f'"{decimal_value(n, spread)}"', decimal_value(n, spread))
    return body.encode("utf-8")


def market(shape: Shape) -> Bundle:
    """The honest bundle of ``shape`` at the caps (see the module docstring)."""
    spec, lengths = fitted(shape)
    items = []
    for r, requirement in enumerate(spec.data_requirements):
        for n in range(shape.items):
            source = requirement.source_targets[n % shape.sources].source_id
            items.append(f.item(wide(f"e{r}_{n:02d}_", CAPS["id"]),
                                _content(shape, r, n, lengths),
                                requirement_id=requirement.requirement_id,
                                source_id=source, tier=3))
    return bundle_from_bytes(build(spec, f.bundle(items, market_id=spec.market.market_id)).data)


def verified(bundle: Bundle) -> Bundle:
    """``bundle`` if ``python -m por verify`` accepts it (exit 0), else a hard error."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "caps.cbor"
        path.write_bytes(bundle.to_cbor())
        run = subprocess.run([sys.executable, "-m", "por", "verify", str(path)],
                             env={"PYTHONPATH": str(ROOT)}, capture_output=True, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"por verify refused a caps bundle (exit {run.returncode}): "
                           f"{run.stdout.decode()[-400:]}{run.stderr.decode()[-400:]}")
    return bundle
