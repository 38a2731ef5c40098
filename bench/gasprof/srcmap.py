"""Source maps of the committed contract build, for the gas profiler.

Recompiles ``contracts/src`` with the pinned solc-js (``contracts/node_modules``),
each artifact at the optimizer runs its committed artifact records (SPEC §14.1;
``contracts/compile.mjs``'s FEWER_RUNS show there), asking for the deployed
bytecode's source map, its generated (Yul utility) sources and the ASTs.  Refuses
unless every recompiled deployed bytecode equals the committed artifact's.  The
contracts a constructor creates (``new X()``) are compiled in their creator's
group, as solc builds them there.

Per deployed code it gives, for each pc, the source line, the enclosing function
(innermost Solidity function or modifier, inline-assembly or Yul utility
function) and the jump marker (``i`` into a function, ``o`` out of one, ``-``);
Solidity documentation, "Source Mappings".  The result is cached in the system
temporary directory under a hash of the sources and the job (bench only).
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ROOT / "contracts"
BUILD = CONTRACTS / "build"
SCRIPT = Path(__file__).with_name("solc_maps.mjs")
SOLC = CONTRACTS / "node_modules" / "solc" / "package.json"
#: The line and function of code without a source (f = -1 in the map).
NO_SOURCE = "(no source)"


def missing() -> str | None:
    """Why the source maps cannot be built here, or None."""
    if shutil.which("node") is None:
        return "node is not installed: cannot run the pinned solc-js"
    if not SOLC.is_file():
        return "the pinned solc is not installed in contracts/node_modules"
    return None


def _sources() -> list[Path]:
    """The sources ``contracts/compile.mjs`` compiles: ``src/`` and ``src/forms/``."""
    return [*sorted((CONTRACTS / "src").glob("*.sol")),
            *sorted((CONTRACTS / "src" / "forms").glob("*.sol"))]


def _job(only: frozenset[str] | None = None) -> dict[str, Any]:
    """The compile job: every committed artifact (or those named in ``only``) in a
    group per optimizer runs, with the contracts its source creates (transitively)."""
    texts = {p.relative_to(CONTRACTS).as_posix(): p.read_text(encoding="utf-8")
             for p in _sources()}
    defined = {m.group(1): file for file, text in texts.items()
               for m in re.finditer(r"^(?:abstract\s+)?contract\s+(\w+)", text, re.M)}
    groups: dict[str, dict[str, list[str]]] = {}
    settings: dict[str, Any] = {}
    for path in sorted(BUILD.glob("*.json")):
        art = json.loads(path.read_text(encoding="utf-8"))
        if only is not None and art["contractName"] not in only:
            continue
        settings = {"evmVersion": art["settings"]["evmVersion"],
                    "metadata": art["settings"]["metadata"]}
        group = groups.setdefault(str(art["settings"]["optimizer"]["runs"]), {})
        todo = [art["contractName"]]
        while todo:
            name = todo.pop()
            file = defined[name]
            if name in group.setdefault(file, []):
                continue
            group[file].append(name)
            todo += [m for m in re.findall(r"\bnew\s+(\w+)\s*\(", texts[file])
                     if m in defined]
    for group in groups.values():
        for names in group.values():
            names.sort()
    return {"contracts": str(CONTRACTS), "groups": groups, **settings}


def compile_maps(only: frozenset[str] | None = None) -> dict[str, Any]:
    """solc_maps.mjs's output for the committed build (cached), checked against it;
    ``only``: just these artifacts (and what they create)."""
    job = _job(only)
    # the key: the job less its path (a checkout's place), the sources, script, solc
    digest = hashlib.sha256(json.dumps({**job, "contracts": ""}, sort_keys=True).encode())
    for path in [*_sources(), SCRIPT, SOLC]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    cache = Path(tempfile.gettempdir()) / "por-gasprof" / f"{digest.hexdigest()[:32]}.json"
    if cache.is_file():
        out: dict[str, Any] = json.loads(cache.read_text(encoding="utf-8"))
    else:
        node = shutil.which("node")
        assert node is not None, missing()
        run = subprocess.run([node, str(SCRIPT)], input=json.dumps(job), capture_output=True,
                             text=True, check=False, timeout=1800)
        if run.returncode != 0:
            raise SystemExit(f"gas_profile: solc failed: {run.stderr.strip()[-500:]}")
        out = json.loads(run.stdout)
        cache.parent.mkdir(parents=True, exist_ok=True)
        partial = cache.with_suffix(f".{os.getpid()}.partial")
        partial.write_text(run.stdout, encoding="utf-8")
        os.replace(partial, cache)  # atomic: a concurrent run reads all or nothing
    for path in sorted(BUILD.glob("*.json")):
        art = json.loads(path.read_text(encoding="utf-8"))
        if only is not None and art["contractName"] not in only:
            continue
        unit = out["groups"][str(art["settings"]["optimizer"]["runs"])]["contracts"]
        if "0x" + unit[art["contractName"]]["object"] != art["deployedBytecode"]:
            raise SystemExit(f"gas_profile: recompiled {art['contractName']} differs from "
                             f"contracts/build (rebuild with `cd contracts && node compile.mjs`)")
    return out


@dataclass
class Code:
    """One compiled deployed code: per pc, a line id, a function id and a jump marker."""

    name: str
    runs: int
    object: bytes
    #: (start, length) of each immutable's bytes (zero in :attr:`object`).
    immutables: list[tuple[int, int]]
    line: list[int]
    function: list[int]
    jump: list[str]


class Names:
    """Interned names of lines and functions (ids index :attr:`items`)."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._ids: dict[str, int] = {}

    def id(self, name: str) -> int:
        if name not in self._ids:
            self._ids[name] = len(self.items)
            self.items.append(name)
        return self._ids[name]


def _walk(node: Any, visit: Any, scope: str) -> None:
    """Depth-first over a solc JSON AST, ``visit(node, scope) -> scope``."""
    if isinstance(node, dict):
        scope = visit(node, scope)
        for value in node.values():
            _walk(value, visit, scope)
    elif isinstance(node, list):
        for value in node:
            _walk(value, visit, scope)


def _ranges(ast: Any) -> list[tuple[int, int, int, str]]:
    """(file id, start, end, qualified name) of every function-like node of ``ast``."""
    found: list[tuple[int, int, int, str]] = []

    def visit(node: dict[str, Any], scope: str) -> str:
        kind = node.get("nodeType")
        if kind == "ContractDefinition":
            name = node["name"]
        elif kind in ("FunctionDefinition", "ModifierDefinition"):
            name = f"{scope}.{node.get('name') or node.get('kind')}"
        elif kind == "YulFunctionDefinition":
            name = f"{scope}.{node['name']}" if scope else f"yul {node['name']}"
        else:
            return scope
        start, length, file = (int(x) for x in node["src"].split(":"))
        found.append((file, start, start + length, name))
        return name

    _walk(ast, visit, "")
    return found


class Sources:
    """Line starts and function ranges of every source of one compile group."""

    def __init__(self, group: dict[str, Any]) -> None:
        self.files: dict[int, str] = {}
        self.newlines: dict[int, list[int]] = {}
        self.ranges: dict[int, list[tuple[int, int, str]]] = {}
        for file, unit in group["sources"].items():
            text = (CONTRACTS / file).read_bytes()
            self._add(unit["id"], Path(file).name, text, _ranges(unit["ast"]))

    def _add(self, fid: int, name: str, text: bytes,
             ranges: list[tuple[int, int, int, str]]) -> None:
        self.files[fid] = name
        self.newlines[fid] = [i for i, b in enumerate(text) if b == 0x0A]
        for file, start, end, qual in ranges:
            self.ranges.setdefault(file, []).append((start, end, qual))

    def with_generated(self, contract: str, generated: list[dict[str, Any]]) -> Sources:
        """A copy knowing one contract's generated (Yul utility) sources."""
        copy = Sources.__new__(Sources)
        copy.files, copy.newlines = dict(self.files), dict(self.newlines)
        copy.ranges = {k: list(v) for k, v in self.ranges.items()}
        for unit in generated:
            copy._add(unit["id"], f"{contract}/{unit['name']}", unit["contents"].encode(),
                      _ranges(unit["ast"]))
        return copy

    def place(self, start: int, length: int, fid: int, contract: str) -> tuple[str, str]:
        """(line, function) of a source range."""
        if fid < 0 or fid not in self.files:
            return f"{contract} {NO_SOURCE}", f"{contract} {NO_SOURCE}"
        line = bisect.bisect_left(self.newlines[fid], start) + 1
        best, width = f"{contract} (outside functions)", None
        for lo, hi, qual in self.ranges.get(fid, ()):
            if lo <= start and start + length <= hi and (width is None or hi - lo < width):
                best, width = qual, hi - lo
        return f"{self.files[fid]}:{line}", best


def _instructions(code: bytes) -> list[int]:
    """The pc of each instruction (PUSH1..PUSH32 carry 1..32 bytes)."""
    pcs, pc = [], 0
    while pc < len(code):
        pcs.append(pc)
        op = code[pc]
        pc += 1 + (op - 0x5F if 0x60 <= op <= 0x7F else 0)
    return pcs


def decode(unit: dict[str, Any], name: str, runs: int, *, sources: Sources,
           lines: Names, functions: Names) -> Code:
    """One contract's pc tables from its compressed source map."""
    code = bytes.fromhex(unit["object"])
    immutables = sorted((ref["start"], ref["length"])
                        for refs in unit["immutableReferences"].values() for ref in refs)
    known = sources.with_generated(name, unit["generatedSources"])
    size = len(code)
    line, function, jump = [0] * size, [0] * size, ["-"] * size
    fields = [0, 0, -1, "-"]
    cache: dict[tuple[int, int, int], tuple[int, int]] = {}
    pcs = _instructions(code)
    for pc, entry in zip(pcs, unit["sourceMap"].split(";"), strict=False):
        for i, value in enumerate(entry.split(":")[:4]):
            if value:
                fields[i] = value if i == 3 else int(value)
        s, n, f, j = int(fields[0]), int(fields[1]), int(fields[2]), str(fields[3])
        if (s, n, f) not in cache:
            where, func = known.place(s, n, f, name)
            cache[(s, n, f)] = (lines.id(where), functions.id(func))
        line[pc], function[pc] = cache[(s, n, f)]
        jump[pc] = j
    return Code(name, runs, code, immutables, line, function, jump)


def codes(lines: Names, functions: Names, only: frozenset[str] | None = None) -> list[Code]:
    """Every compiled deployed code of the committed build (each runs group), or of
    the artifacts named in ``only``."""
    out = compile_maps(only)
    found = []
    for runs, group in sorted(out["groups"].items()):
        sources = Sources(group)
        for name, unit in sorted(group["contracts"].items()):
            found.append(decode(unit, name, int(runs), sources=sources, lines=lines,
                                functions=functions))
    return found
