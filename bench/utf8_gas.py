"""The §2 reader's price per byte of text, ASCII and not (s42, utf8gas; ADR 0017 addendum).

Compiles a scratch harness from the committed ``contracts/src`` (revm, the build's
optimizer settings) and prints, for one text of 60 000 bytes of ASCII, of 2-, 3- and
4-byte characters: ``PorCbor.scan`` on the bare text, and on a por.ReasoningStep/1 leaf
whose description is that text, ``scan`` and ``PorRecords.reasoningStep`` (what the
record's check adds past the scan). Execution gas less an empty call's on the same data.

Then (s44, agggas) the bound's measure: the caps count code points, so the reader's worst
text is the most gas a code point. A second table prints ``scan`` of about 60 000 bytes
of each width mix in :data:`MIXES` (a unit repeated: runs of one width, alternations,
characters that end or straddle a 32-byte window at every phase, the edges of each
width's range, ASCII between multi-byte characters) a byte and a code point, the worst
last.

    PYTHONPATH=. python bench/utf8_gas.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests")]

from eth_abi.abi import encode as abi_encode  # noqa: E402
from eth_utils.crypto import keccak  # noqa: E402
from proof_check_support import message_call  # noqa: E402
from scratch_harness import deploy  # noqa: E402

from por.encoding import encode  # noqa: E402

CODE = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorCbor} from "./PorCbor.sol";
import {PorRecords} from "./PorRecords.sol";
contract Utf8Gas {
    function scan(bytes calldata d) external pure returns (uint256, uint256) {
        return PorCbor.scan(d);
    }
    function step(bytes calldata d) external pure returns (bool ok) {
        (ok,) = PorRecords.reasoningStep(d);
    }
    function nop(bytes calldata d) external pure returns (uint256) { return d.length; }
}
"""
FILES = ("PorCbor.sol", "PorCborScan.sol", "PorCborTop.sol", "PorCborKeys.sol", "PorRecords.sol",
         "PorIds.sol")
SIZE = 60_000
CHARS = (("ASCII", "a"), ("2-byte", "\u00e9"), ("3-byte", "\u20ac"), ("4-byte", "\U0001f600"))
#: Units of the width mixes (repeated to about SIZE bytes).
MIXES = (("4", "\U0001f600"), ("4, range edges", "\U00010000\U0010ffff\U000f0000"),
         ("3, E0/ED edges", "\u0800\ud7ff\ue000\uffff"), ("2, C2/DF edges", "\u0080\u07ff"),
         ("4 7x, 2", "\U0001f600" * 7 + "\u00e9"), ("4 7x, 1", "\U0001f600" * 7 + "a"),
         ("4 3x, 3", "\U0001f600" * 3 + "\u20ac"), ("4, 3", "\U0001f600\u20ac"),
         ("4, 2", "\U0001f600\u00e9"), ("4, 1", "\U0001f600a"), ("3, 1", "\u20aca"),
         ("2, 1", "\u00e9a"), ("4 8x, 1", "\U0001f600" * 8 + "a"),
         ("1 31x, 4", "a" * 31 + "\U0001f600"), ("1 32x, 4", "a" * 32 + "\U0001f600"),
         ("ordinary mixed", "na\u00efve caf\u00e9 \u20ac5 \U0001f600 "))


def gas(function: str, data: bytes) -> tuple[bytes, int]:
    """(return data, execution gas) of ``function(bytes)`` on ``data``."""
    evm, address = deploy("Utf8Gas", CODE, FILES)
    call = keccak(text=f"{function}(bytes)")[:4] + abi_encode(["bytes"], [data])
    return message_call(evm, address, call)


def main() -> int:
    print("| text | scan(text) gas | a byte | step leaf B | scan(leaf) gas | a byte | "
          "reasoningStep gas | past the scan |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, char in CHARS:
        text = char * (SIZE // len(char.encode()))
        bare = encode(text)
        scan_bare = gas("scan", bare)[1] - gas("nop", bare)[1]
        leaf = encode({"schema": "por.ReasoningStep/1", "step_id": "s1", "step_type": "deduce",
                       "description": text, "inputs": {}, "output": {}, "evidence_ids": [],
                       "prior_step_ids": []})
        base = gas("nop", leaf)[1]
        scan_leaf = gas("scan", leaf)[1] - base
        out, step = gas("step", leaf)
        assert out[-1] == 1, name
        print(f"| {name} | {scan_bare:,} | {scan_bare / len(bare):.2f} | {len(leaf):,} | "
              f"{scan_leaf:,} | {scan_leaf / len(leaf):.2f} | {step - base:,} | "
              f"{step - base - scan_leaf:,} |")
    print()
    print("| mix (unit repeated) | bytes | code points | scan gas | a byte | a code point |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    rows = []
    for name, unit in MIXES:
        text = unit * (SIZE // len(unit.encode()))
        bare = encode(text)
        scan = gas("scan", bare)[1] - gas("nop", bare)[1]
        rows.append((scan / len(text), name, len(text.encode()), len(text), scan))
    for per_point, name, size, points, scan in sorted(rows):
        print(f"| {name} | {size:,} | {points:,} | {scan:,} | {scan / size:.2f} | "
              f"{per_point:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
