"""Benchmark: hostile inputs cost no more than honest ones (SPEC §17).

For each size (1 MB and 16 MB by default) it writes an honest bundle (JSON
evidence items of about 1 KB, as an API would return) and one input per
hostile class of the same size, then runs ``python -m por`` on each in a
child process and reads that child's CPU time (user + system) and peak RSS
from ``os.wait4``.  It prints each class as a ratio to the honest bundle of
the same size, measured in the same run, with its exit code and check id.
Target (issue 11): every ratio <= 3x in time and in peak memory above the
input size.  It prints and never fails.

Classes (the issue's numbering):
  1 json_escapes      application/json bodies of repeated ``"\\`` (quadratic scan)
  1 json_brackets     application/json bodies of ``[[],[],...]``
  1 json_tokens       refused JSON bodies of small objects, refused at the last byte
  2 steps_ints        the bundle's ``steps`` is a list of small integers
  2 output_bytes      one step output: a list of empty byte strings (recommitted)
  2 proof_ints        ``check-proof`` on a OneStepProof whose evidence list is ints
  3 output_maps       one step output full of empty maps, type-valid (recommitted)
  3 many_steps        far more steps than the evidence allows (recommitted)
  4 signatures        thousands of copies of a valid signature
  5 regex_nfa         8 regex fields (the cap) of the costliest admitted kind (DFA overflows)
  7 huge_exponent     JSON bodies full of ``1e1000000000000000000``
  - tiny_items        as many empty items as fit, each with a forged 1-byte step
  - citations_fanin   scenario 08's market with as many items as fit, honest: its
                      check step cites every item (the maximal fan-in of the size)
  - citations_reordered  the same, the check step's first two citations swapped
  - citations_repeated   the same, the check step citing every item twice

The citation classes are measured with ``verify`` only (``bench/citations.py``
measures their proofs).  With ``--challenges`` every ``verify`` child (the honest
baseline's too) runs ``verify --challenges DIR`` instead, so the ratios are those of
the challenge path (issue 22 item 5: at most 3x for ``verify`` and for ``verify
--challenges``); ``check-proof`` classes are unchanged.

Usage: python bench/hostile.py [--sizes 1,16] [--repeat N] [--only a,b] [--challenges]
"""

from __future__ import annotations

import argparse
import functools
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

sys.path.insert(0, str(Path(__file__).resolve().parent))

from verify import START, make_inputs

from por.bundle import Bundle, build_bundle, compute_commitments, with_forms
from por.encoding import encode
from por.schemas import DeterministicVerdict, EvidenceBundle, FieldSpec, PromptSpec

END = 1_782_864_000
MB = 1_000_000
NOW = START + 3600
ITEM_CAP = 4 * 1024 * 1024 - 4096  # an evidence body stays under the 4 MiB cap
SOURCES = 8  # bench/verify.py's market with sources src-00..src-07


def spec_with(fields: list[FieldSpec], content_type: str) -> PromptSpec:
    """bench/verify.py's market, with these fields and content type."""
    spec = make_inputs(SOURCES)[0]
    requirement = spec.data_requirements[0]
    targets = [t.model_copy(update={"expected_content_type": content_type})
               for t in requirement.source_targets]
    requirement = requirement.model_copy(update={"expected_fields": fields,
                                                 "source_targets": targets})
    return spec.model_copy(update={"data_requirements": [requirement]})


JSON_FIELDS = [FieldSpec(key="price", kind="numeric", json_path="$.price"),
               FieldSpec(key="timestamp", kind="timestamp", json_path="$.timestamp")]


def evidence(bodies: list[bytes], content_type: str = "application/json") -> EvidenceBundle:
    """bench/verify.py's items with these bodies (sources in rotation)."""
    template = make_inputs(SOURCES)[1]
    items = [template.items[i % SOURCES].model_copy(update={
        "evidence_id": f"ev-{i:06d}", "content_type": content_type, "content": body})
        for i, body in enumerate(bodies)]
    return template.model_copy(update={"items": items})


def chunks(total: int, make: Callable[[int], bytes]) -> list[bytes]:
    """Bodies of at most ITEM_CAP bytes adding up to about ``total`` bytes."""
    out, left = [], total
    while left > 0:
        out.append(make(min(left, ITEM_CAP)))
        left -= ITEM_CAP
    return out


def honest(size: int) -> bytes:
    # About 1.9 KB of bundle per item: the body, its record and its extract step.
    n = max(1, size // 1900)
    pad = b"x" * 900
    bodies = [b'{"price": 101.25, "timestamp": %d, "note": "%s"}' % (START + 60 + i % 1000, pad)
              for i in range(n)]
    return build_bundle(spec_with(JSON_FIELDS, "application/json"), evidence(bodies))


def small_honest() -> Bundle:
    return Bundle.from_cbor(honest(20_000))


def rebuild(bundle: Bundle, **parts: Any) -> bytes:
    """``bundle`` with records replaced; every commitment and verdict reference
    recomputed, so the mutant passes steps 1-4 and reaches replay."""
    records = {k: getattr(bundle, k) for k in ("manifest", "prompt_spec", "evidence",
                                                "trace_header", "steps", "verdict")}
    records.update(parts)
    c = compute_commitments(**records)
    verdict = DeterministicVerdict.from_cbor(records["verdict"]).model_copy(update={
        "prompt_spec_hash": c.prompt_spec_hash, "evidence_root": c.evidence_root,
        "evidence_count": c.evidence_count, "reasoning_root": c.reasoning_root,
        "reasoning_count": c.reasoning_count})
    records["verdict"] = verdict.to_cbor()
    records = with_forms({**records, "forms": parts.get("forms")})
    c = compute_commitments(**records)
    return bundle.model_copy(update={**records, "commitments": c}).to_cbor()


def json_escapes(size: int) -> bytes:
    return build_bundle(spec_with(JSON_FIELDS, "application/json"),
                        evidence(chunks(size, lambda n: b'"\\' * (n // 2))))


def json_brackets(size: int) -> bytes:
    return build_bundle(spec_with(JSON_FIELDS, "application/json"),
                        evidence(chunks(size, lambda n: b"[" + b"[]," * (n // 3) + b"[]]")))


def json_tokens(size: int) -> bytes:
    # Refused bodies whose first refusal is at the end: the SPEC §12.1.3 scanner
    # (por.auditor.json_refusal) walks every token to find its byte offset.
    return build_bundle(spec_with(JSON_FIELDS, "application/json"), evidence(
        chunks(size, lambda n: b"[" + b'{"a":1},' * max(0, n // 8 - 1) + b"x")))


def huge_exponent(size: int) -> bytes:
    number = b"1e1000000000000000000"
    return build_bundle(spec_with(JSON_FIELDS, "application/json"), evidence(chunks(
        size, lambda n: b'{"price": [' + b",".join([number] * (n // 22)) + b"]}")))


#: Seven chains ``A[AB]{9}`` (repetition sum 63 of 64) with terminators the text never
#: has: width 10, cost 11
#: units per byte, the costliest per unit the budget admits (SPEC §17.5: 72 units per
#: byte, fields past width 10 cost 8x), about 29 ns per byte (its DFA nearly overflows).
_CHAINS = [(chr(0x41 + 2 * i), chr(0x42 + 2 * i)) for i in range(8)]
REGEX_NFA_PATTERN = "(" + "|".join(f"{a}[{a}{b}]{{9}}" + chr(0x100 + i)
                                   for i, (a, b) in enumerate(_CHAINS[:7])) + ")"


def regex_nfa(size: int) -> bytes:
    # 8 fields (SPEC §4.2's cap) of the costliest admitted kind; the budget lets six
    # run per byte.
    fields = [FieldSpec(key=f"f{i:02d}", kind="text", regex=REGEX_NFA_PATTERN[:-1] + f"|{i})")
              for i in range(8)]
    fields[0] = FieldSpec(key="price", kind="numeric", regex=REGEX_NFA_PATTERN)
    rng = random.Random(7)  # noqa: S311 - reproducible filler text, not a secret
    runs = []
    for _ in range(min(size, ITEM_CAP) // 50 + 1):
        a, b = rng.choice(_CHAINS)
        runs.append("".join(rng.choice(a + b) for _ in range(50)))
    body = "".join(runs).encode()
    return build_bundle(spec_with(fields, "text/plain"),
                        evidence(chunks(size, lambda n: body[:n]), "text/plain"))


def steps_ints(size: int) -> bytes:
    value = small_honest().to_dict()
    value["steps"] = [i % 24 for i in range(size)]
    return encode(value)


def output_bytes(size: int) -> bytes:
    b = small_honest()
    step = {"schema": "por.ReasoningStep/1", "step_id": "step_0001", "step_type": "extract",
            "description": "", "evidence_ids": [], "prior_step_ids": [], "inputs": {},
            "output": {"claims": [b""] * size}}
    return rebuild(b, steps=[encode(step), *b.steps[1:]])


def output_maps(size: int) -> bytes:
    b = small_honest()
    step = {"schema": "por.ReasoningStep/1", "step_id": "step_0001", "step_type": "extract",
            "description": "", "evidence_ids": [], "prior_step_ids": [], "inputs": {},
            "output": {"claims": [{}] * size}}
    return rebuild(b, steps=[encode(step), *b.steps[1:]])


def many_steps(size: int) -> bytes:
    b = small_honest()
    return rebuild(b, steps=[b.steps[0]] * (size // (len(b.steps[0]) + 3)))


def signatures(size: int) -> bytes:
    from por.bundle import sign_bundle
    from por.signing import Eip712Domain
    from por.signing.keys import generate_key

    data = small_honest().to_cbor()
    signed = sign_bundle(data, generate_key("secp256k1"),
                         Eip712Domain(chain_id=1, verifying_contract=b"\x00" * 20),
                         issued_at=START, expires_at=END)
    b = Bundle.from_cbor(signed)
    copies = size // (len(b.signatures[0]) + 3)
    return b.model_copy(update={"signatures": b.signatures * copies}).to_cbor()


def tiny_items(size: int) -> bytes:
    # As many empty-bodied items as fit, each with a 1-byte forged step (the exact
    # count): the verifier must not audit them all before the first comparison.
    b = small_honest()
    spec_bytes = b.prompt_spec
    template = evidence([b""]).items[0]
    n = size // (len(template.to_cbor()) + 4)
    items = [template.model_copy(update={"evidence_id": f"e{i}"}).to_cbor() for i in range(n)]
    from por.schemas import TraceHeader

    header = TraceHeader.from_cbor(b.trace_header).model_copy(update={"step_count": n + 5})
    return rebuild(b, prompt_spec=spec_bytes, evidence=items, steps=[b"\x00"] * (n + 5),
                   trace_header=header.to_cbor())


#: Bundle bytes per item of scenario 08's market (its item, record and extract
#: step, and its id in the three steps that cite every item).
CITED_ITEM_BYTES = 1070


@functools.cache
def _cited(size: int) -> Bundle:
    """Scenario 08's honest bundle with as many items as ``size`` holds; its
    ``check_requirement`` step (index = the item count) cites all of them."""
    from citations import honest_bundle

    return Bundle.from_cbor(honest_bundle(max(10, size // CITED_ITEM_BYTES)).to_cbor())


def _recited(size: int, edit: Callable[[list[str]], list[str]]) -> bytes:
    """``_cited(size)`` with the check step's citation lists edited, recommitted."""
    from por.schemas import ReasoningStep

    b = _cited(size)
    index = len(b.evidence)
    step = ReasoningStep.from_cbor(b.steps[index])
    step = step.model_copy(update={"evidence_ids": edit(list(step.evidence_ids)),
                                   "prior_step_ids": edit(list(step.prior_step_ids))})
    steps = list(b.steps)
    steps[index] = step.to_cbor()
    return rebuild(b, steps=steps)


def citations_fanin(size: int) -> bytes:
    return _cited(size).to_cbor()


def citations_reordered(size: int) -> bytes:
    return _recited(size, lambda ids: [ids[1], ids[0], *ids[2:]])


def citations_repeated(size: int) -> bytes:
    return _recited(size, lambda ids: [i for i in ids for _ in (0, 1)])


def proof_ints(size: int) -> bytes:
    from por.challenge import build_one_step_proof

    proof = build_one_step_proof(small_honest(), 0).to_dict()
    proof["evidence"] = [i % 24 for i in range(size)]
    return encode(proof)


CASES: dict[str, tuple[str, Callable[[int], bytes]]] = {
    "json_escapes": ("verify", json_escapes),
    "json_brackets": ("verify", json_brackets),
    "json_tokens": ("verify", json_tokens),
    "steps_ints": ("verify", steps_ints),
    "output_bytes": ("verify", output_bytes),
    "proof_ints": ("check-proof", proof_ints),
    "output_maps": ("verify", output_maps),
    "many_steps": ("verify", many_steps),
    "signatures": ("verify", signatures),
    "regex_nfa": ("verify", regex_nfa),
    "huge_exponent": ("verify", huge_exponent),
    "tiny_items": ("verify", tiny_items),
    "citations_fanin": ("verify", citations_fanin),
    "citations_reordered": ("verify", citations_reordered),
    "citations_repeated": ("verify", citations_repeated),
}


# A small launcher measures each child: ru_maxrss of a child includes the memory
# of the process it was forked from, so forking from this (large) process would
# inflate every figure.  The launcher is a fresh interpreter of about 10 MB.
_LAUNCHER = """
import os, resource, subprocess, sys
limit = int(sys.argv[2])
def cap():
    resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))
with open(sys.argv[1], "wb") as out:
    child = subprocess.Popen(sys.argv[3:], stdout=out, stderr=subprocess.STDOUT,
                             preexec_fn=cap)
    _, status, usage = os.wait4(child.pid, 0)
print(usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024,
      os.waitstatus_to_exitcode(status))
"""


CPU_LIMIT = 300
#: ``--challenges``: every ``verify`` child also builds and writes the winning proofs.
CHALLENGES = False


def measure(command: str, path: Path) -> tuple[float, int, int, str]:
    """CPU seconds, peak RSS bytes, exit code and first output line of one child
    (killed by SIGXCPU, exit -24, after CPU_LIMIT seconds of CPU)."""
    argv = [sys.executable, "-m", "por", command, str(path)]
    if command == "verify":
        argv[4:4] = ["--now", str(NOW)]
        if CHALLENGES:
            argv[4:4] = ["--challenges", str(path.with_suffix(".proofs"))]
    log = path.with_suffix(".out")
    result = subprocess.run([sys.executable, "-c", _LAUNCHER, str(log), str(CPU_LIMIT), *argv],
                            capture_output=True, text=True, check=True)
    cpu, rss, code = result.stdout.split()
    lines = log.read_text("utf-8", "replace").splitlines()[:1]
    return float(cpu), int(rss), int(code), lines[0] if lines else ""


def best(command: str, path: Path, repeat: int) -> tuple[float, int, int, str]:
    runs = [measure(command, path) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs), runs[0][2], runs[0][3]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,16", help="sizes in MB, comma-separated")
    parser.add_argument("--repeat", type=int, default=1, help="runs per case (best is kept)")
    parser.add_argument("--only", default="", help="comma-separated class names")
    parser.add_argument("--cpu-limit", type=int, default=CPU_LIMIT,
                        help="CPU seconds after which a child is killed (exit -24)")
    parser.add_argument("--challenges", action="store_true",
                        help="run verify --challenges DIR (the challenge path) for every verify")
    args = parser.parse_args()
    globals()["CPU_LIMIT"] = args.cpu_limit
    globals()["CHALLENGES"] = args.challenges
    wanted = [c for c in args.only.split(",") if c] or list(CASES)
    worst_time = worst_mem = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for mb in (int(s) for s in args.sizes.split(",")):
            size = mb * MB
            path = Path(tmp) / "honest.cbor"
            path.write_bytes(honest(size))
            h_size = path.stat().st_size
            h_cpu, h_rss, h_code, _ = best("verify", path, args.repeat)
            print(f"== {mb} MB: honest bundle {h_size} bytes, exit {h_code}, "
                  f"cpu {h_cpu:.2f} s, peak RSS {h_rss / 2**20:.0f} MiB")
            print(f"{'class':<19} {'bytes':>10} {'exit':>4} {'cpu':>7} {'x':>6} "
                  f"{'rss MiB':>8} {'x':>6} {'x>in':>6}  first line")
            for name in wanted:
                command, make = CASES[name]
                data = make(size)
                path = Path(tmp) / f"{name}.cbor"
                path.write_bytes(data)
                cpu, rss, code, line = best(command, path, args.repeat)
                t_ratio = cpu / h_cpu
                m_ratio = rss / h_rss
                # Peak memory above the input size, relative to the honest bundle's.
                above = max(rss - len(data), 1) / max(h_rss - h_size, 1)
                worst_time, worst_mem = max(worst_time, t_ratio), max(worst_mem, m_ratio)
                print(f"{name:<19} {len(data):>10} {code:>4} {cpu:>6.2f}s {t_ratio:>5.2f}x "
                      f"{rss / 2**20:>8.0f} {m_ratio:>5.2f}x {above:>5.2f}x  "
                      f"{line[:70]}")
    print(f"worst ratio: time {worst_time:.2f}x, peak RSS {worst_mem:.2f}x (target <= 3x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
