"""Every optional word and every code of SPEC §5.6 has a vector in forms.json (s39).

``por.forms``' encoders ``E``, ``P``, ``O`` and ``Z`` are wrapped while every market's
forms (fixture and synthesized) and every shape are computed: each code of each set of
§5.6.2 must be written at least once, and each optional key both absent and present
(fixtures/vectors/README.md's table names the vector of each). COMMON's rule codes
(0-5) and EXTRACT's blank-source flag (0, 1) are derived words, read off the forms.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from por.encoding import decode
from por.forms import form_of, forms_of, recomputed, spec, steps, verdict
from por.forms import words as w

VECTORS = Path(__file__).resolve().parents[2] / "fixtures" / "vectors"
DATA: dict[str, Any] = json.loads((VECTORS / "forms.json").read_text(encoding="utf-8"))
SETS = {name: codes for name, codes in vars(w).items()
        if name.isupper() and isinstance(codes, dict)}
#: Optional keys (P, O, Z) by the encoder that writes them.
OPTIONAL = {
    "P": {"comparison", "threshold", "terms", "lower", "upper", "other_metric",
          "expected_text", "preconditions", "accepted_status_codes", "gate_reason", "other",
          "value", "quorum", "votes", "event_observed", "numeric_value", "timestamp"},
    "O": {"lower_inclusive", "upper_inclusive", "last_leaf", "from_leaf", "resolution_time"},
    "Z": {"sources_required"},
}
Seen = dict[tuple[str, str], set[object]]


def _wrapped(seen: Seen) -> Iterator[tuple[Any, str, Callable[..., bytes]]]:
    """(module, name, wrapper) for each encoder each ``por.forms`` module imports."""
    names = {id(codes): name for name, codes in SETS.items()}

    def enum(codes: Mapping[str, int], x: object) -> bytes:
        seen.setdefault(("E", names[id(codes)]), set()).add(x)
        return w.E(codes, x)

    def optional(kind: str, orig: Callable[..., bytes], at: int) -> Callable[..., bytes]:
        def encoder(*args: Any) -> bytes:
            m, key = args[at], args[at + 1]
            seen.setdefault((kind, key), set()).add(key in m)
            return orig(*args)
        return encoder

    wrappers = {"E": enum, "P": optional("P", w.P, 1), "O": optional("O", w.O, 0),
                "Z": optional("Z", w.Z, 0)}
    for module in (spec, steps, recomputed, verdict):
        for name, wrapper in wrappers.items():
            if hasattr(module, name):
                yield module, name, wrapper


def _rows(form: bytes) -> list[int]:
    return [int.from_bytes(form[k:k + 32], "big") for k in range(0, len(form), 32)]


def test_every_code_and_optional_word_has_a_vector(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: Seen = {}
    for module, name, wrapper in _wrapped(seen):
        monkeypatch.setattr(module, name, wrapper)
    rule_codes: set[int] = set()
    blank: set[int] = set()
    for v in DATA["vectors"] + DATA["synthesized"]:
        prompt = decode(bytes.fromhex(v["prompt_spec_cbor_hex"]))
        records = [decode(bytes.fromhex(s)) for s in v["steps_cbor_hex"]]
        forms = forms_of(prompt, records, decode(bytes.fromhex(v["verdict_cbor_hex"])))
        rules = prompt["market"]["resolution_rules"]["rules"]
        rule_codes |= {w.RULE.get(r["rule_id"], 0) for r in rules}
        blank |= {_rows(f.form)[-1] for f in forms.forms if f.tag == w.EXTRACT}
    for case in DATA["shapes"]:
        form_of(decode(bytes.fromhex(case["record_cbor_hex"])))
    missing = [f"{name} {code}" for name, codes in SETS.items()
               for code in codes if code not in seen.get(("E", name), set())]
    missing += [f"{kind} {key} {state}" for kind, keys in OPTIONAL.items() for key in keys
                for state in (False, True) if state not in seen.get((kind, key), set())]
    assert not missing, missing
    assert {key for kind, key in seen if kind != "E"} == set().union(*OPTIONAL.values())
    assert rule_codes == set(range(6)) and blank == {0, 1}
