// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCheckSpec} from "./PorCheckSpec.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";

/// @title PorCheckParts: what `PorCheckExec` hands the contract holding the chunk's
/// re-execution (EIP-170 splits `check_requirement` in two): each part's leaf offset,
/// the step's and the carried records' value offsets and the PromptSpec as read, all the
/// re-execution reads, so the second contract neither parses the proof's parts again nor
/// receives their structures.
/// @notice The call's data is written by hand (`call`), not by the ABI encoder: the
/// proof, then one array of words `[n, leaf x n, evidenceCount, len(at), at..., per part
/// i: len(records[i]), records[i]..., the Spec's eight words, len(tags), tags...]`, each
/// piece one `mcopy`; `unpack` copies that array to memory once and gives each array
/// and the Spec as a view of its words there (no copy, no struct built per part).
library PorCheckParts {
    /// Words of `PorCheckSpec.Spec` in memory; its `tags` pointer is word TAGS.
    uint256 private constant SPEC_WORDS = 8;
    uint256 private constant TAGS = 6;
    /// `PorCheckCompute.run(bytes,uint256[])`'s selector (keccak256 of that signature's
    /// first four bytes), left-aligned.
    uint256 private constant RUN = 0x90c525d400000000000000000000000000000000000000000000000000000000;

    /// `PorCheckCompute(to).run(d, packed)`, its data written here; its revert passed on.
    function call(
        address to,
        bytes calldata d,
        PorOneStepCheck.Parts memory parts,
        uint256[][] memory records,
        uint256[] memory at,
        PorCheckSpec.Spec memory spec
    ) internal view returns (bool, bytes32) {
        (uint256 m, uint256 q) = header(d);
        return send(to, m, words(q, parts, records, at, spec));
    }

    /// The call's data up to the array's words, from the free pointer `m`: the selector,
    /// the two ABI offsets, the proof (one `calldatacopy`, its last word zeroed first for
    /// the padding), the array's length word (set by `send`); `q` the place after it.
    function header(bytes calldata d) private pure returns (uint256 m, uint256 q) {
        assembly ("memory-safe") {
            m := mload(0x40)
            let padded := and(add(d.length, 31), not(31))
            mstore(m, RUN)
            mstore(add(m, 0x04), 0x40)
            mstore(add(m, 0x24), add(0x60, padded))
            mstore(add(m, 0x44), d.length)
            mstore(add(m, add(0x44, padded)), 0)
            calldatacopy(add(m, 0x64), d.offset, d.length)
            q := add(add(m, 0x84), padded)
        }
    }

    /// The call of data `m..q` (the array's words end at `q`): (won, check id).
    function send(address to, uint256 m, uint256 q) private view returns (bool won, bytes32 checkId) {
        assembly ("memory-safe") {
            // the proof's length at m + 0x44, padded: the array's length word after it
            let lenAt := add(add(m, 0x64), and(add(mload(add(m, 0x44)), 31), not(31)))
            mstore(lenAt, shr(5, sub(q, add(lenAt, 0x20))))
            if iszero(staticcall(gas(), to, m, sub(q, m), 0, 0x40)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
            if lt(returndatasize(), 0x40) { revert(0, 0) }
            won := iszero(iszero(mload(0)))
            checkId := mload(0x20)
        }
    }

    /// The array's words written from `q` (memory past the free pointer): the place after.
    function words(
        uint256 q,
        PorOneStepCheck.Parts memory parts,
        uint256[][] memory records,
        uint256[] memory at,
        PorCheckSpec.Spec memory spec
    ) private pure returns (uint256) {
        bytes32[] memory tags = spec.tags;
        assembly ("memory-safe") {
            // n, then each part's leaf (`Part.leaf` is its fifth word)
            let all := mload(parts)
            let n := mload(all)
            mstore(q, n)
            q := add(q, 0x20)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                mstore(q, mload(add(mload(add(all, shl(5, add(i, 1)))), 0x80)))
                q := add(q, 0x20)
            }
            mstore(q, mload(add(parts, 0x20))) // evidenceCount
            q := add(q, 0x20)
            let size := shl(5, add(mload(at), 1))
            mcopy(q, at, size)
            q := add(q, size)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                let r := mload(add(records, shl(5, add(i, 1))))
                size := shl(5, add(mload(r), 1))
                mcopy(q, r, size)
                q := add(q, size)
            }
            mcopy(q, spec, shl(5, SPEC_WORDS))
            q := add(q, shl(5, SPEC_WORDS))
            size := shl(5, add(mload(tags), 1))
            mcopy(q, tags, size)
            q := add(q, size)
        }
        return q;
    }

    /// `call`'s array back: the leaves, evidenceCount, the step's value offsets `at`, the
    /// carried records (one per part) and the Spec, each a view of the one copy.
    /// The caller is the executor that deployed the compute contract: its array is
    /// well formed (a word past the array's end reads as zero, not as memory of another).
    function unpack(uint256[] calldata packed)
        internal
        pure
        returns (
            uint256[] memory leaves,
            uint256 evidenceCount,
            uint256[][] memory records,
            uint256[] memory at,
            PorCheckSpec.Spec memory spec
        )
    {
        assembly ("memory-safe") {
            leaves := mload(0x40)
            let size := shl(5, packed.length)
            calldatacopy(leaves, packed.offset, size)
            let end := add(leaves, size)
            let n := mload(leaves)
            let p := add(leaves, shl(5, add(n, 1)))
            evidenceCount := mload(p)
            at := add(p, 0x20)
            p := add(at, shl(5, add(mload(at), 1)))
            // records: n pointers into the copy, after it
            records := end
            mstore(records, n)
            let r := add(records, 0x20)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                mstore(r, p)
                r := add(r, 0x20)
                p := add(p, shl(5, add(mload(p), 1)))
            }
            spec := p
            mstore(add(spec, shl(5, TAGS)), add(p, shl(5, SPEC_WORDS)))
            // the copy's end must be the tags' end: a short array is refused
            if gt(add(add(p, shl(5, SPEC_WORDS)), shl(5, add(mload(add(p, shl(5, SPEC_WORDS))), 1))), end) {
                revert(0, 0)
            }
            mstore(0x40, r)
        }
    }
}
