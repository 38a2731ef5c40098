"""Attribute every gas unit of a traced call to contract, function and source line.

An opcode's cost is the gas left before it less the gas left before the next
opcode of the same call frame (for the frame's last opcode, the trace's gasCost).
A CALL-family opcode's own (exclusive) cost is that difference less the gas its
callee frame used, which goes to the callee's opcodes; a precompile (no frame of
its own: SHA-256 at 0x2, ecrecover, identity) stays on the calling line.  So the
opcode costs sum to the gas the outermost frame used (:attr:`Profile.total`).

Functions: the exclusive cost of an opcode goes to the innermost function whose
source range holds the opcode's (inlined library code keeps its own name); the
inclusive cost to every function on the stack as well, which is kept from the
source map's jump markers (``i`` pushes the function jumped into, ``o`` pops one)
within a frame, and across frames from the calling opcode's stack.  Memory
expansion is summed apart: with the memory sizes (``--memory``) exactly, from the
sizes before consecutive opcodes of a frame (a frame's last opcode: a RETURN or
REVERT's cost); without them where the opcode log tells it (no stack in the log): an
MLOAD, MSTORE or MSTORE8's cost less 3, a RETURN or REVERT's cost; the expansion of
copies, KECCAK256, LOG and calls then stays in their cost (a lower bound).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from gasprof.groups import group_of
from gasprof.srcmap import Code, Names
from gasprof.trace import Traced

CALLS = {"CALL", "STATICCALL", "DELEGATECALL", "CALLCODE"}
#: Opcodes that open a frame: the calls and the creations (each a call-tree entry).
FRAMES = CALLS | {"CREATE", "CREATE2"}
#: Opcodes whose cost is a constant plus memory expansion alone: the constant.
MEMORY_ONLY = {"MLOAD": 3, "MSTORE": 3, "MSTORE8": 3, "RETURN": 0, "REVERT": 0}
def memory_cost(size: int) -> int:
    """The memory cost of ``size`` bytes (yellow paper: 3 a word plus words^2/512)."""
    words = (size + 31) // 32
    return 3 * words + words * words // 512


#: Deepest internal call stack kept per frame (a guard against unmatched markers).
MAX_STACK = 256


@dataclass
class Frame:
    """One call frame being traced: its code, internal stack and pending opcode."""

    code: Code | None
    name: str
    outer: tuple[int, ...]
    stack: list[int] = field(default_factory=list)
    pending: tuple[Any, ...] | None = None
    used: int = 0
    child: int = 0
    enter_next: bool = False
    callee: tuple[str, tuple[int, ...]] = ("", ())


@dataclass
class Profile:
    """The attribution of one traced call (gas units)."""

    total: int = 0
    gas_used: int = 0
    refund: int = 0
    memory: int = 0
    ops: int = 0
    contracts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    exclusive: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    inclusive: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    lines: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    opcodes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    memory_by: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    #: "caller -> callee": [calls, the calling opcodes' own gas, the callee frames' gas]
    calls: dict[str, list[int]] = field(default_factory=dict)
    groups: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def match(codes: list[Code], deployed: dict[str, bytes]) -> dict[str, Code]:
    """address -> the compiled code it runs (immutables aside); refuses code it
    cannot name."""
    out = {}
    for address, runtime in sorted(deployed.items()):
        if not runtime:
            continue
        for code in codes:
            masked = bytearray(runtime)
            for start, length in code.immutables:
                masked[start:start + length] = bytes(length)
            if masked == code.object:
                out[address] = code
                break
        else:
            raise SystemExit(f"gas_profile: the code at {address} is none of the build's")
    return out


class Attributor:
    """Reads a :class:`Traced` call's opcode log and fills a :class:`Profile`."""

    def __init__(self, by_address: dict[str, Code], functions: Names, lines: Names) -> None:
        self.by_address = by_address
        self.functions, self.lines = functions, lines
        self.chains: dict[tuple[int, ...], int] = {}
        self.chain_list: list[tuple[int, ...]] = []
        self.acc: dict[tuple[int, int], int] = defaultdict(int)
        self.profile = Profile()

    def _chain(self, chain: tuple[int, ...]) -> int:
        if chain not in self.chains:
            self.chains[chain] = len(self.chain_list)
            self.chain_list.append(chain)
        return self.chains[chain]

    def _frame(self, address: str, outer: tuple[int, ...]) -> Frame:
        code = self.by_address.get(address)
        return Frame(code, code.name if code else address, outer)

    def _settle(self, frame: Frame, gas_after: int, memory_after: int | None = None) -> None:
        """Charge ``frame``'s pending opcode, which left ``gas_after`` (and the frame's
        memory at ``memory_after`` bytes, when the trace has sizes); a call's callee
        frame (``frame.child``) is not its own."""
        assert frame.pending is not None
        gas, op, pc, chain, listed, memory = frame.pending
        cost = gas - gas_after
        frame.used += cost
        child, frame.child = frame.child, 0
        own = cost - child
        code, p = frame.code, self.profile
        if op in CALLS:
            callee = self.by_address.get(frame.callee[0])
            key = f"{frame.name} -> {callee.name if callee else frame.callee[0]}"
            row = p.calls.setdefault(key, [0, 0, 0])
            row[0], row[1], row[2] = row[0] + 1, row[1] + own, row[2] + child
        p.contracts[frame.name] += own
        p.opcodes[op] += own
        if code is None:
            line = func = f"{frame.name} (unknown code)"
        else:
            line, func = self.lines.items[code.line[pc]], self.functions.items[code.function[pc]]
            self.acc[(chain, code.function[pc])] += own
        p.lines[line] += own
        p.exclusive[func] += own
        grow = 0
        if memory is not None and memory_after is not None:
            grow = memory_cost(memory_after) - memory_cost(memory)
        elif op in MEMORY_ONLY:
            grow = listed - MEMORY_ONLY[op]
        p.memory += grow
        p.memory_by[frame.name] += grow
        frame.pending = None

    def _end(self, frames: list[Frame]) -> None:
        """The innermost frame ended: its last opcode costs its gasCost."""
        ended = frames.pop()
        if ended.pending is not None:
            self._settle(ended, ended.pending[0] - ended.pending[4])  # no size after
        if frames:
            frames[-1].child += ended.used

    def run(self, traced: Traced) -> Profile:
        frames = [self._frame(traced.target, ())]
        calls = iter(traced.calls)
        sizes = traced.memory
        if sizes is not None and len(sizes) != len(traced.steps):
            raise SystemExit("gas_profile: the memory sizes do not match the opcode log")
        for index, step in enumerate(traced.steps):
            memory = None if sizes is None else sizes[index]
            depth, gas = step["depth"], int(step["gas"])
            while len(frames) > depth:
                self._end(frames)
            if len(frames) < depth:  # the previous opcode, a call, entered a frame
                address, outer = frames[-1].callee
                frames.append(self._frame(address, outer))
            frame = frames[-1]
            if frame.pending is not None:
                self._settle(frame, gas, memory)
            self._step(frame, step, gas, calls, memory)
            self.profile.refund = int(step.get("refund", 0))
        while frames:
            self._end(frames)
        if next(calls, None) is not None:
            raise SystemExit("gas_profile: the call tree has more calls than the opcode log")
        self.profile.total = sum(self.profile.contracts.values())
        for (chain, func), cost in self.acc.items():
            path = tuple(self.functions.items[f] for f in (*self.chain_list[chain], func))
            for name in set(path):
                self.profile.inclusive[name] += cost
            self.profile.groups[group_of(path)] += cost
        unmapped = self.profile.total - sum(self.profile.groups.values())
        if unmapped:
            self.profile.groups["code without a source map"] += unmapped
        self.profile.gas_used = traced.gas_used
        return self.profile

    def _step(self, frame: Frame, step: dict[str, Any], gas: int, calls: Iterator[str],
              memory: int | None) -> None:
        pc, op = step["pc"], step["op"]
        self.profile.ops += 1
        code = frame.code
        if code is not None and frame.enter_next:
            frame.stack.append(code.function[pc])
            del frame.stack[:-MAX_STACK]
        frame.enter_next = False
        chain = self._chain(frame.outer + tuple(frame.stack))
        frame.pending = (gas, op, pc, chain, int(step["gasCost"]), memory)
        if op in FRAMES:
            target = next(calls, None)
            if target is None:
                raise SystemExit("gas_profile: the opcode log has more calls than the call tree")
            here = frame.outer + tuple(frame.stack)
            if code is not None:
                here += (code.function[pc],)
            frame.callee = (target, here)
        elif op == "JUMP" and code is not None:
            marker = code.jump[pc]
            if marker == "i":
                frame.enter_next = True
            elif marker == "o" and frame.stack:
                frame.stack.pop()

    def callers(self, name: str, levels: int = 3) -> dict[str, int]:
        """Inclusive gas of function ``name`` by the ``levels`` functions calling it
        (its outermost activation on each stack; repeats in a row merged)."""
        out: dict[str, int] = defaultdict(int)
        if name not in self.functions.items:
            return out
        fid = self.functions.items.index(name)
        for (chain, func), cost in self.acc.items():
            path = [f for i, f in enumerate((*self.chain_list[chain], func))
                    if i == 0 or f != (*self.chain_list[chain], func)[i - 1]]
            if fid in path:
                at = path.index(fid)
                named = [self.functions.items[f] for f in path[max(0, at - levels):at]]
                out[" > ".join(named) or "(outermost)"] += cost
        return out

