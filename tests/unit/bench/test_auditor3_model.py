"""bench/auditor3 (ADR 0016): the /3 records, trees and proofs the model measures are
real: entry trees split records losslessly, multiproofs rebuild the committed roots,
the /2 byte counts are the proofs' lengths, and every malformed entry list named by
the ADR has its fault found with the leaves that show it (honest records none)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from auditor3.carry import Bundle3, proof_bytes  # noqa: E402
from auditor3.convert import carried  # noqa: E402
from auditor3.entries import RecordTree, _split, multiproof  # noqa: E402
from auditor3.faults import first_fault  # noqa: E402

from por.encoding import decode, encode  # noqa: E402
from por.merkle import leaf_hash, leaf_hashes, node_hash, root_from_leaf_hashes  # noqa: E402


def rebuild(n: int, chosen: list[int], leaves: dict[int, bytes], siblings: list[bytes]) -> bytes:
    """The verifier's side of ``multiproof``: the root from the chosen leaves' hashes
    and the subtree hashes, consumed left to right."""
    queue = list(siblings)

    def walk(lo: int, hi: int) -> bytes:
        if not any(lo <= i < hi for i in chosen):
            return queue.pop(0)
        if hi - lo == 1:
            return leaves[lo]
        k = _split(hi - lo)
        return node_hash(walk(lo, lo + k), walk(lo + k, hi))

    root = walk(0, n)
    assert not queue
    return root


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 40])
def test_multiproof_rebuilds_the_root(n: int) -> None:
    hashes = [leaf_hash(bytes([i])) for i in range(n)]
    for chosen in ([0], [n - 1], list(range(0, n, 3)), list(range(n))):
        siblings, _nodes = multiproof(hashes, chosen)
        got = rebuild(n, chosen, {i: hashes[i] for i in chosen}, siblings)
        assert got == root_from_leaf_hashes(hashes)


def _typical() -> list[tuple[str, bytes, bytes]]:
    from gas_steps import cases

    return [(name, *make()) for name, _t, _e, _entry, make in cases()]


@pytest.fixture(scope="module")
def typical() -> list[tuple[str, bytes, bytes]]:
    return _typical()


def test_records_split_losslessly(typical: list[tuple[str, bytes, bytes]]) -> None:
    from por.challenge import bundle_from_bytes

    bundle = bundle_from_bytes(typical[2][1])
    for kind, records in (("prompt_spec", [bundle.prompt_spec]), ("step", bundle.steps)):
        for raw in records:
            tree = RecordTree(kind, decode(raw))
            assert first_fault(kind, tree.leaves) is None
            assert _assemble(tree.entries) == decode(raw)


def _assemble(entries: list[tuple[tuple[Any, ...], Any]]) -> Any:
    out: dict[str, Any] = {}
    for path, value in entries:
        if not path:  # the group leaf: its entries at the top level
            out.update(value)
            continue
        at: Any = out
        for depth, part in enumerate(path[:-1]):
            nxt = path[depth + 1]
            if type(at) is list and part == len(at):
                at.append({})
            at = at[part] if type(at) is list else at.setdefault(part, [] if type(nxt) is int
                                                                  else {})
        last = path[-1]
        if type(at) is list:
            if last == len(at):
                at.append(value)
        elif type(value) is int and any(type(p[len(path)]) is int for p, _v in entries
                                        if len(p) > len(path) and p[:len(path)] == path):
            at.setdefault(last, [])
        else:
            at[last] = value
    return out


def test_proofs3_open_against_the_components(typical: list[tuple[str, bytes, bytes]]) -> None:
    from por.challenge import bundle_from_bytes

    for name, lie, proof in typical:
        b3 = Bundle3(bundle_from_bytes(lie))
        _kind, schema, c = carried(proof, b3)
        data, roles, _sha = proof_bytes(c, b3, schema)
        assert sum(roles.values()) == len(data), name
        p3 = decode(data)
        assert p3["components"] == b3.components
        for comp, indices, upper, opened in p3["records"]:
            heads = {}
            for index, (count, picked, leaves, siblings) in zip(indices, opened, strict=True):
                root = rebuild(count, picked, dict(zip(picked, leaf_hashes(leaves),
                                                       strict=True)), siblings)
                heads[index] = root + count.to_bytes(8, "big")
            if comp in (2, 4):
                size = int.from_bytes(b3.components[comp][32:], "big")
                top = rebuild(size, indices, {i: leaf_hash(h) for i, h in heads.items()}, upper)
                assert top == b3.components[comp][:32], name
            elif comp == 1:
                assert heads[0] == b3.components[1], name


def test_anatomy2_sums_to_the_proof(typical: list[tuple[str, bytes, bytes]]) -> None:
    from proof_anatomy import anatomy

    for _name, _lie, proof in typical:
        assert sum(anatomy(proof).values()) == len(proof)


def test_every_malformed_entry_list_is_shown(typical: list[tuple[str, bytes, bytes]]) -> None:
    from por.challenge import bundle_from_bytes

    bundle = bundle_from_bytes(typical[2][1])
    leaves = RecordTree("prompt_spec", decode(bundle.prompt_spec)).leaves
    n = len(leaves)
    assert first_fault("prompt_spec", leaves) is None
    swapped = [*leaves[:3], leaves[4], leaves[3], *leaves[5:]]
    assert first_fault("prompt_spec", swapped) == ("record.entry_order", (3, 4))
    assert first_fault("prompt_spec", [*leaves[:5], leaves[4], *leaves[5:]]) == (
        "record.entry_order", (4, 5))
    paths = [decode(leaf)[0] for leaf in leaves]
    policy = paths.index(["conflict_policy"])
    assert first_fault("prompt_spec", [*leaves[:policy], *leaves[policy + 1:]]) == (
        "record.entry_missing", (policy - 1, policy))
    assert first_fault("prompt_spec", leaves[:-1]) == ("record.entry_missing", (n - 2,))
    assert first_fault("prompt_spec", [*leaves[:2], b"\x80", *leaves[3:]]) == (
        "record.entry_invalid", (2,))
    assert first_fault("prompt_spec", [*leaves[:2], bytes(encode([[7], 1])), *leaves[3:]]
                       )[0] == "record.entry_invalid"
    step = RecordTree("step", decode(bundle.steps[0])).leaves
    assert decode(step[0])[0] == []  # the group leaf first
    assert first_fault("step", step) is None
    bad = bytes(encode([[], {**decode(step[0])[1], "description": "x"}]))
    assert first_fault("step", [bad, *step[1:]]) == ("record.entry_invalid", (0,))
    loose = bytes(encode([["step_id"], "step_0001"]))
    assert first_fault("step", [*step, loose])[0] == "record.entry_invalid"
    head = decode(step[0])[1]
    short = bytes(encode([[], {k: v for k, v in head.items() if k != "inputs"}]))
    assert first_fault("step", [short, *step[1:]]) == ("record.entry_missing", (0,))
    length = next(i for i, leaf in enumerate(leaves)
                  if decode(leaf)[0] == ["data_requirements"])
    end = max(i for i, leaf in enumerate(leaves)
              if decode(leaf)[0][:1] == ["data_requirements"])
    more = [*leaves[:length], bytes(encode([["data_requirements"], 2])), *leaves[length + 1:]]
    assert first_fault("prompt_spec", more) == ("record.entry_count", (length, end, end + 1))
    fewer = [*leaves[:length], bytes(encode([["data_requirements"], 0])), *leaves[length + 1:]]
    assert first_fault("prompt_spec", fewer) == ("record.entry_count", (length, length + 1))


def test_least_squares_is_exact_on_a_consistent_system() -> None:
    from fractions import Fraction

    from auditor3.model import least_squares

    rows = [[Fraction(x), Fraction(y), Fraction(1)] for x, y in ((1, 7), (4, 2), (9, 9), (3, 5))]
    want = [Fraction(271), Fraction(15, 8), Fraction(14_000)]
    ys = [sum((a * b for a, b in zip(r, want, strict=True)), Fraction(0)) for r in rows]
    assert least_squares(rows, ys) == want


def _row(name: str, kind: str, common: int | None, **over: int) -> dict[str, Any]:
    """A synthetic measured row: every term the model reads, its settle the model's own
    sum (registry 9 000 + 1 a byte, route 10 000, own 50 000; the common part
    300 a walked item + 2 a carried byte + 12 000, and the hashing of profiled.py)."""
    from auditor3.model import hashing

    r: dict[str, Any] = {"class": name, "kind": kind, "bytes2": 4000, "reader2": 20_000,
                         "leaves2": 90_000, "spec_pass2": 30_000, "sha2": 20, "hashed2": 3000,
                         "items2": 150, "fields2": 1000, "pass_in_own2": 0, **over}
    walk = 300 * r["items2"] + 2 * r["fields2"] + 12_000
    shared = r["leaves2"] - r["spec_pass2"] + hashing(r, "2") + walk
    r["common"] = round(shared) if common is not None else None
    r["exec"] = round(shared) + r["spec_pass2"] + 50_000
    r["checkProof"] = 10_000 + r["reader2"] + r["exec"]
    r["settle"] = 9_000 + r["bytes2"] + r["checkProof"]
    return r


def test_model_recovers_its_terms_and_names_their_sources() -> None:
    """The fit recovers the common part's P, Q, C; a step row's own part is measured
    (exec - common - PromptSpec pass), a profiled row's comes from profiled.OWN, any
    other is the residual: /2 is then exact on every synthetic row."""
    from fractions import Fraction

    from auditor3.model import Model
    from auditor3.profiled import OWN

    rows = [_row(f"step {i}", "deduce", 1, items2=100 + 37 * i, fields2=500 + 900 * i * i,
                 bytes2=3000 + 500 * i) for i in range(5)]
    rows.append(_row("other", "map", None))
    model = Model(rows)
    assert (model.p, model.q, model.c) == (Fraction(300), Fraction(2), Fraction(12_000))
    assert [model.source(r) for r in rows] == ["run"] * 5 + ["fit"]
    assert all(model.settle2(r) == r["settle"] for r in rows)
    assert all(model.common2(r) == r["common"] for r in rows[:5])
    name, (_gas, nbytes) = next(iter(OWN.items()))
    assert model.source({**rows[-1], "class": name, "bytes2": nbytes}) == "profile"
    assert model.source({**rows[-1], "class": name, "bytes2": nbytes + 1}) == "fit"


def test_every_default_row_has_a_measured_own_part() -> None:
    """Every row of gas_steps.py and largest_gas.py (default caps) whose executor has no
    common part bench/common_part.py measures has profiled own stages (so no default
    row is a residual 'fit'), and every profiled class names such a row."""
    from auditor3.profiled import OWN, WALK
    from auditor3_model import COMMON_KINDS
    from gas_steps import cases
    from largest_gas import KINDS

    rows = [(name, executor) for name, _t, executor, _entry, _make in cases()]
    rows += [(f"{kind.name} [{shape}]", kind.executor) for kind in KINDS for shape in kind.shapes]
    unmeasured = {name for name, executor in rows if executor not in COMMON_KINDS}
    assert unmeasured == set(OWN)
    assert set(WALK) <= set(OWN)
