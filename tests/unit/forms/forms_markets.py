"""The fixture markets built honestly, decoded, for the forms tests (built once)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from por.bundle.build import build
from por.encoding import decode
from por.scenarios import list_scenarios, load_scenario


@dataclass(frozen=True)
class Market:
    name: str
    prompt_spec: dict[str, Any]
    steps: list[dict[str, Any]]
    verdict: dict[str, Any]


@functools.cache
def markets() -> tuple[Market, ...]:
    """Every fixture market (`por.scenarios`), built by ``por.bundle.build.build``."""
    out = []
    for name in list_scenarios():
        scenario = load_scenario(name)
        built = build(scenario.prompt_spec, scenario.evidence)
        out.append(Market(name, decode(scenario.prompt_spec.to_cbor()),
                          [decode(s.to_cbor()) for s in built.trace.steps],
                          decode(built.verdict.to_cbor())))
    return tuple(out)
