// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorForms as F} from "./PorForms.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
import {PorFormsIndex as Index} from "./PorFormsIndex.sol";
import {PorFormsSort as Sort} from "./PorFormsSort.sol";

/// @title PorCheckFormState: the running state of the cited chunk P read from its CHUNK
/// form (draft §2.5), with SPEC §12.5.3's checks of a malformed state, and the chunk's
/// contradiction groups (P's, then updated with the admitted items' claims).
/// @notice A group lives in memory as `G` words: kind (0 boolean, 1 numeric), H(key),
/// claim_count, then two claim references, each three call data offsets (its
/// `H(claim_id)`, `H(evidence_id)`, value), and whether the second is present (numeric:
/// always, min then max; boolean: first, then `other` when present).
library PorCheckFormState {
    uint256 internal constant G = 10;
    /// Up to this many groups a claim finds its group by a scan (`addClaim`, cheaper for
    /// the few of an honest chunk); past it, the rest are placed by `fold` (s41 `boundsa`).
    uint256 internal constant FEW = 16;

    /// What the chunk reads of P.
    struct Prior {
        bool present;
        bool covered;
        bool provenanceOk;
        bool hasLast;
        uint256 last;
        uint256 chunk;
        uint256 itemCount;
        uint256 admitted;
        uint256 claimCount;
        uint256 sources; // the first `sources` entry (4 words each)
        uint256 nSources;
        uint256 ridT; // T(inputs.requirement_id)
        bytes32 outRid; // H(output.requirement_id)
        uint256 groups; // the first group
        uint256 nGroups;
    }

    /// P's state from its form at `p` (end `end`); `bad` when SPEC §12.5.3 finds it
    /// malformed (`step.bad_prior_output`, a count out of 0..2^63-1, coverage against the
    /// counts, a source entry with another key or named twice). The whole form is walked
    /// (a fault anywhere is `proof.form`); the groups are read by `loadGroups`.
    function readPrior(uint256 p, uint256 end) internal pure returns (Prior memory s, bool bad) {
        s.present = true;
        s.outRid = bytes32(F.wordAt(p + 64, end));
        s.covered = F.codeAt(p + 96, end, 1) == 1;
        s.provenanceOk = F.codeAt(p + 128, end, 1) == 1;
        s.itemCount = F.intAt(p + 160, end);
        (s.hasLast, s.last) = F.optAt(p + 192, end);
        s.nSources = F.countAt(p + 256, end, 4);
        s.sources = p + 288;
        uint256[] memory ids = new uint256[](s.nSources);
        for (uint256 k; k < s.nSources; ++k) {
            uint256 e = s.sources + 128 * k;
            if (F.wordAt(e + 96, end) != 0) bad = true;
            ids[k] = F.wordAt(e + 64, end);
        }
        if (Sort.repeats(ids)) bad = true; // a source named twice: O(n log n), the count is the signer's
        uint256 q = s.sources + 128 * s.nSources;
        s.ridT = q;
        q = F.tEnd(q, end);
        F.wordAt(q, end); // Ri, not read (Python reads inputs' kind and requirement_id only)
        q += 32;
        q += 32 + 32 * F.countAt(q, end, 1); // priors
        q += 32 + 32 * F.countAt(q, end, 1); // evidence ids, L[H]
        s.chunk = F.intAt(q, end);
        s.admitted = F.intAt(q + 32, end);
        s.claimCount = F.intAt(q + 64, end);
        F.intAt(q + 96, end); // window start, end, rest
        F.intAt(q + 128, end);
        F.wordAt(q + 160, end);
        F.optAt(q + 192, end); // from_leaf
        q = _skipItems(q + 256, end);
        s.nGroups = F.countAt(q, end, 1);
        s.groups = q + 32;
        if (
            s.chunk > F.MAX_UINT63 || s.itemCount > F.MAX_UINT63 || s.admitted > F.MAX_UINT63 || s.claimCount > F.MAX_UINT63
                || (s.hasLast && s.last > F.MAX_UINT63) || s.covered != (s.admitted > 0) || (s.covered && !s.provenanceOk)
        ) bad = true;
    }

    function _skipItems(uint256 q, uint256 end) private pure returns (uint256) {
        uint256 n = F.countAt(q, end, 8);
        q += 32;
        for (uint256 k; k < n; ++k) {
            F.codeAt(q + 64, end, 1); // admitted
            uint256 nr = F.countAt(q + 96, end, 1);
            for (uint256 j; j < nr; ++j) {
                uint256 reason = F.wordAt(q + 128 + 32 * j, end);
                if (reason == 0 || reason > 7) revert F.ProofForm();
            }
            q += 128 + 32 * nr;
            F.intAt(q, end); // observed_at
            F.codeAt(q + 32, end, 1); // observed_from
            q += F.codeAt(q + 64, end, 1) == 1 ? 128 : 96; // gate_reason
            F.wordAt(q, end); // the item's rest
            q += 32;
        }
        return q;
    }

    /// P's groups (at `q`, `n` of them) into `g`; the offset after them, and `bad` when a
    /// group is malformed (a count out of 1..2^63-1, a rest word, a boolean `other` of
    /// `first`'s value, a (kind, key) named twice).
    function loadGroups(uint256[] memory g, uint256 q, uint256 n, uint256 end)
        internal
        pure
        returns (uint256, bool bad)
    {
        uint256[] memory named = new uint256[](n); // each group's (kind, key), hashed
        for (uint256 k; k < n; ++k) {
            uint256 at = k * G;
            uint256 kind = F.codeAt(q, end, 1);
            uint256 key = F.wordAt(q + 32, end);
            uint256 cnt = F.intAt(q + 64, end);
            if (cnt == 0 || cnt > F.MAX_UINT63) bad = true;
            g[at] = kind;
            g[at + 1] = key;
            g[at + 2] = cnt;
            bool refBad;
            (q, refBad) = _ref(g, at + 3, q + 96, kind, end);
            bad = bad || refBad;
            if (kind == 1) {
                (q, refBad) = _ref(g, at + 6, q, kind, end);
                g[at + 9] = 1;
            } else if (F.codeAt(q, end, 1) == 1) {
                (q, refBad) = _ref(g, at + 6, q + 32, kind, end);
                g[at + 9] = 1;
                if (F.wordAt(g[at + 5], end) == F.wordAt(g[at + 8], end)) bad = true;
            } else {
                q += 32;
            }
            bad = bad || refBad || F.wordAt(q, end) != 0;
            q += 32;
            named[k] = uint256(keccak256(abi.encode(kind, key)));
        }
        if (Sort.repeats(named)) bad = true; // a (kind, key) named twice: O(n log n)
        return (q, bad);
    }

    function _ref(uint256[] memory g, uint256 at, uint256 q, uint256 kind, uint256 end)
        private
        pure
        returns (uint256, bool)
    {
        F.wordAt(q + 32, end); // H(claim_id) H(evidence_id)
        g[at] = q;
        g[at + 1] = q + 32;
        g[at + 2] = q + 64;
        q = F.vEnd(kind == 1 ? 1 : 0, q + 64, end);
        return (q + 32, F.wordAt(q, end) != 0);
    }

    /// Fold one admitted claim (kind, H(key), its three offsets) into the groups `g` of
    /// which `n` are used: §12.5.3's min/max by §3.2's exact order, boolean first/other.
    /// Returns the new count. `g` has room for every claim (its caller sizes it), so the
    /// table is read and written in place, without bounds checks. A scan of the `n`
    /// groups: its caller uses it while `n <= FEW`.
    function addClaim(uint256[] memory g, uint256 n, uint256 kind, uint256 key, uint256 c, uint256 e, uint256 v)
        internal
        pure
        returns (uint256)
    {
        uint256 base;
        assembly { base := add(g, 32) }
        for (uint256 k; k < n; ++k) {
            uint256 at = base + k * 320;
            if (_m(at) != kind || _m(at + 32) != key) continue;
            _s(at + 64, _m(at + 64) + 1); // `_into`, written out: the honest path's loop
            if (kind == 1) {
                if (D.cmpDecimal(v, _m(at + 160)) < 0) _ref(at + 96, c, e, v);
                if (D.cmpDecimal(v, _m(at + 256)) > 0) _ref(at + 192, c, e, v);
            } else if (_m(at + 288) == 0 && F.load(v) != F.load(_m(at + 160))) {
                _ref(at + 192, c, e, v);
                _s(at + 288, 1);
            }
            return n;
        }
        uint256 a = base + n * 320; // `_open`, written out
        _s(a, kind);
        _s(a + 32, key);
        _s(a + 64, 1);
        _ref(a + 96, c, e, v);
        if (kind == 1) {
            _ref(a + 192, c, e, v);
            _s(a + 288, 1);
        }
        return n + 1;
    }

    /// `addClaim` for each claim at `qs[i]` (`H(key) E(kind) H(claim_id) V`, kind 0 or 1)
    /// of evidence `es[i]`, in order, in O((n + m) log(n + m)) on any input (s41
    /// `boundsa`: the scan was O(claims x groups), both counts the signer's): the groups'
    /// and the claims' (kind, H(key)) as keccak256 words, sorted stably
    /// (`PorFormsIndex.order`); each claim's group is the first position of its run (a
    /// group of `g`, or the claim that opens it, numbered in order). The same groups as
    /// the scan: `g`'s (kind, key) pairs are distinct (P's repeats are
    /// `step.bad_prior_output`, the scan opens a pair once).
    function fold(uint256[] memory g, uint256 n, uint256[] memory qs, uint256[] memory es)
        internal
        pure
        returns (uint256)
    {
        uint256 m = qs.length;
        bytes32[] memory h = new bytes32[](n + m);
        for (uint256 k; k < n; ++k) h[k] = _pair(g[k * G], g[k * G + 1]);
        for (uint256 i; i < m; ++i) h[n + i] = _pair(F.load(qs[i] + 32), F.load(qs[i]));
        uint256[] memory o = Index.order(h);
        uint256[] memory slot = new uint256[](n + m); // each position's run head
        for (uint256 r; r < n + m;) {
            uint256 head = o[r];
            bytes32 w = h[head];
            for (; r < n + m && h[o[r]] == w; ++r) slot[o[r]] = head;
        }
        uint256 next = n; // a new group's number: its head's order among the heads
        for (uint256 p = n; p < n + m; ++p) {
            uint256 head = slot[p];
            if (head == p) slot[p] = next++;
            else if (head >= n) slot[p] = slot[head];
        }
        uint256 base;
        assembly { base := add(g, 32) }
        uint256 n0 = n;
        for (uint256 i; i < m; ++i) n = _place(base, n, slot[n0 + i], qs[i], es[i]);
        return n;
    }

    /// The claim at `q` (evidence `e`) into group `s` of the `n` at `base`: a new one
    /// when `s == n`. The new count.
    function _place(uint256 base, uint256 n, uint256 s, uint256 q, uint256 e) private pure returns (uint256) {
        uint256 kind = F.load(q + 32);
        if (s < n) {
            _into(base + s * 320, kind, q + 64, e, q + 96);
            return n;
        }
        _open(base + n * 320, kind, F.load(q), q + 64, e, q + 96);
        return n + 1;
    }

    function _pair(uint256 kind, uint256 key) private pure returns (bytes32 h) {
        assembly {
            mstore(0, kind)
            mstore(32, key)
            h := keccak256(0, 64)
        }
    }

    /// One more claim in the group at `at`.
    function _into(uint256 at, uint256 kind, uint256 c, uint256 e, uint256 v) private pure {
        _s(at + 64, _m(at + 64) + 1);
        if (kind == 1) {
            if (D.cmpDecimal(v, _m(at + 160)) < 0) _ref(at + 96, c, e, v);
            if (D.cmpDecimal(v, _m(at + 256)) > 0) _ref(at + 192, c, e, v);
        } else if (_m(at + 288) == 0 && F.load(v) != F.load(_m(at + 160))) {
            _ref(at + 192, c, e, v);
            _s(at + 288, 1);
        }
    }

    /// A new group at `a` opened by a claim.
    function _open(uint256 a, uint256 kind, uint256 key, uint256 c, uint256 e, uint256 v) private pure {
        _s(a, kind);
        _s(a + 32, key);
        _s(a + 64, 1);
        _ref(a + 96, c, e, v);
        if (kind == 1) {
            _ref(a + 192, c, e, v);
            _s(a + 288, 1);
        }
    }

    function _ref(uint256 at, uint256 c, uint256 e, uint256 v) private pure {
        assembly {
            mstore(at, c)
            mstore(add(at, 32), e)
            mstore(add(at, 64), v)
        }
    }

    function _m(uint256 at) private pure returns (uint256 v) {
        assembly { v := mload(at) }
    }

    function _s(uint256 at, uint256 v) private pure {
        assembly { mstore(at, v) }
    }
}
