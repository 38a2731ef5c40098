// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorForms as F} from "./PorForms.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
import {PorCheckFormItems as I} from "./PorCheckFormItems.sol";
import {PorCheckFormState as S} from "./PorCheckFormState.sol";

/// @title PorCheckFormWrite: the chunk's running state (SPEC §12.5.3) and its whole
/// recomputed CHUNK form (draft §2.5), built in memory and compared by hash with the
/// committed one.
library PorCheckFormWrite {
    /// H("agent name is blank (empty or only white space)"), the gate's fixed reason.
    bytes32 internal constant GATE_REASON = 0xf675b769c5c5affdcc8b39909d1b47ea9cf3330cf0702d6063ccdfb800e333d1;

    /// The disputed chunk and what it reads, as offsets in call data.
    struct Ctx {
        uint256 r; // requirement count (COMMON's table)
        uint256 common;
        uint256 commonEnd;
        uint256 req;
        uint256 reqEnd;
        uint256 step;
        uint256 stepEnd;
        uint256 ridT; // the step's T(inputs.requirement_id)
        uint256 evidence; // its L[H] evidence_ids: the count word
        uint256 headEnd; // after its evidence ids
        bytes32 rid; // H(R)
        uint256 row; // R's row in COMMON's table (r when absent)
        uint256 stepIndex;
    }

    /// The chunk's own counts, its new sources and the groups' use.
    struct St {
        uint256 admittedNow;
        uint256 claims;
        bool tierFailed;
        uint256 ng;
        bool folded; // the rest of the claims went to `S.fold`
        uint256[] fresh; // fresh[0]: the count, then the items whose source is new
    }

    /// The counts, new sources and groups of the admitted `items` after P's.
    function _state(S.Prior memory prior, I.Item[] memory items, uint256[] memory g, uint256 ng)
        private
        pure
        returns (St memory st)
    {
        st.claims = prior.claimCount;
        st.ng = ng;
        st.fresh = new uint256[](items.length + 1);
        for (uint256 k; k < items.length; ++k) {
            I.Item memory it = items[k];
            if (it.reasons & (1 << 4) != 0) st.tierFailed = true;
            if (it.reasons != 0) continue;
            ++st.admittedNow;
            st.claims += it.nClaims;
            _source(prior, items, st.fresh, k);
            if (!st.folded) _claims(g, st, items, k);
        }
    }

    /// Fold item `k`'s numeric and boolean claims into the groups: each by a scan while
    /// there are at most `S.FEW` groups, then this one's and every later admitted item's
    /// by `S.fold` (O(n log n); the scan of every group per claim was O(claims x groups)).
    function _claims(uint256[] memory g, St memory st, I.Item[] memory items, uint256 k) private pure {
        I.Item memory it = items[k];
        uint256 q = it.claims;
        uint256 ng = st.ng;
        for (uint256 j; j < it.nClaims; ++j) {
            if (ng > S.FEW) {
                st.ng = ng;
                return _rest(g, st, items, k, q, it.nClaims - j);
            }
            uint256 kind = F.load(q + 32);
            uint256 next = I.nextClaim(q);
            if (kind <= 1) ng = S.addClaim(g, ng, kind, F.load(q), q + 64, it.e + 128, q + 96);
            q = next;
        }
        st.ng = ng;
    }

    /// The `left` claims of item `k` from `q` on and every later admitted item's, folded
    /// by `S.fold`.
    function _rest(uint256[] memory g, St memory st, I.Item[] memory items, uint256 k, uint256 q, uint256 left)
        private
        pure
    {
        st.folded = true;
        uint256 cap = left;
        for (uint256 i = k + 1; i < items.length; ++i) {
            if (items[i].reasons == 0) cap += items[i].nClaims;
        }
        uint256[] memory qs = new uint256[](cap);
        uint256[] memory es = new uint256[](cap);
        uint256 m;
        for (uint256 i = k; i < items.length; ++i) {
            I.Item memory it = items[i];
            if (it.reasons != 0) continue;
            uint256 nc = left;
            if (i > k) (q, nc) = (it.claims, it.nClaims);
            for (uint256 j; j < nc; ++j) {
                if (F.load(q + 32) <= 1) {
                    qs[m] = q;
                    es[m] = it.e + 128;
                    ++m;
                }
                q = I.nextClaim(q);
            }
        }
        assembly {
            mstore(qs, m)
            mstore(es, m)
        }
        st.ng = S.fold(g, st.ng, qs, es);
    }

    /// The chunk's state from P's and the admitted `items`, and its form: whether it is
    /// the committed one.
    function build(Ctx memory c, S.Prior memory prior, I.Item[] memory items, uint256[] memory g, uint256 ng)
        internal
        pure
        returns (bool same)
    {
        St memory st = _state(prior, items, g, ng);
        uint256 start;
        assembly { start := mload(0x40) }
        uint256 o = _head(start, c, prior, items, st);
        o = _put(o, prior.present ? prior.chunk + 1 : 0);
        o = _put(o, prior.admitted + st.admittedNow);
        o = _put(o, st.claims);
        o = _window(c, o);
        o = _put(o, prior.hasLast ? 1 : 0);
        o = _put(o, prior.last);
        o = _items(o, items);
        o = _groups(o, g, st.ng);
        o = _put(o, 0);
        o = _description(o, c.ridT, prior.present ? prior.chunk + 1 : 0, st.admittedNow, items.length);
        uint256 len = o - start;
        uint256 step = c.step;
        if (len == c.stepEnd - step) {
            assembly {
                calldatacopy(o, step, len)
                same := eq(keccak256(start, len), keccak256(o, len))
            }
        }
    }

    /// Words 0-8, the sources, and the step's inputs, priors and evidence ids (copied:
    /// Python's citations are the step's when it gets here).
    function _head(uint256 o, Ctx memory c, S.Prior memory prior, I.Item[] memory items, St memory st)
        private
        pure
        returns (uint256)
    {
        uint256 n = items.length;
        bool covered = prior.admitted + st.admittedNow > 0;
        o = _put(o, 4);
        o = _put(o, F.load(c.step + 32));
        o = _put(o, uint256(c.rid));
        o = _put(o, covered ? 1 : 0);
        o = _put(o, covered || ((!prior.present || prior.provenanceOk) && !st.tierFailed) ? 1 : 0);
        o = _put(o, prior.itemCount + n);
        o = _put(o, n > 0 || prior.hasLast ? 1 : 0);
        o = _put(o, n > 0 ? items[n - 1].leaf : prior.last);
        uint256[] memory fresh = st.fresh;
        o = _put(o, prior.nSources + fresh[0]);
        o = _copy(o, prior.sources, 128 * prior.nSources);
        for (uint256 k = 1; k <= fresh[0]; ++k) {
            uint256 e = items[fresh[k]].e;
            o = _put(o, F.load(e + 32));
            o = _put(o, F.load(e + 128));
            o = _put(o, F.load(e + 64));
            o = _put(o, 0);
        }
        return _copy(o, c.ridT, c.headEnd - c.ridT); // T(inputs.requirement_id), Ri (0), priors, evidence
    }

    /// Record item `k`'s source in `fresh` unless P's `sources` or an earlier fresh one
    /// names it.
    function _source(S.Prior memory prior, I.Item[] memory items, uint256[] memory fresh, uint256 k) private pure {
        uint256 id = F.load(items[k].e + 64);
        for (uint256 j; j < prior.nSources; ++j) {
            if (F.load(prior.sources + 128 * j + 64) == id) return;
        }
        for (uint256 j = 1; j <= fresh[0]; ++j) {
            if (F.load(items[fresh[j]].e + 64) == id) return;
        }
        fresh[0] += 1;
        fresh[fresh[0]] = k;
    }

    /// `window` {start, end} with the slack, and its rest word.
    function _window(Ctx memory c, uint256 o) private pure returns (uint256) {
        uint256 q = D.dEnd(c.common + 96, c.commonEnd) + 64 + 128 * c.r;
        uint256 start = F.load(q);
        uint256 slack = F.load(q + 64);
        o = _put(o, start > slack ? start - slack : 0);
        o = _put(o, F.load(q + 32) + slack);
        return _put(o, 0);
    }

    function _items(uint256 o, I.Item[] memory items) private pure returns (uint256) {
        o = _put(o, items.length);
        for (uint256 k; k < items.length; ++k) {
            I.Item memory it = items[k];
            o = _put(o, F.load(it.e + 128));
            o = _put(o, F.load(it.e + 64));
            o = _put(o, it.reasons == 0 ? 1 : 0);
            uint256 countAt = o;
            o += 32;
            uint256 nr;
            for (uint256 code = 1; code <= 7; ++code) {
                if (it.reasons >> code & 1 == 1) {
                    o = _put(o, code);
                    ++nr;
                }
            }
            _put(countAt, nr);
            o = _put(o, it.observed);
            o = _put(o, it.fromClaim ? 0 : 1);
            if (it.reasons == 1 << 7) {
                o = _put(o, 1);
                o = _put(o, uint256(GATE_REASON));
            } else {
                o = _put(o, 0);
            }
            o = _put(o, 0);
        }
        return o;
    }

    function _groups(uint256 o, uint256[] memory g, uint256 ng) private pure returns (uint256) {
        o = _put(o, ng);
        for (uint256 k; k < ng; ++k) {
            uint256 at = k * S.G;
            uint256 kind = g[at];
            o = _put(o, kind);
            o = _put(o, g[at + 1]);
            o = _put(o, g[at + 2]);
            o = _ref(o, g, at + 3, kind);
            if (kind == 0) o = _put(o, g[at + 9]);
            if (g[at + 9] == 1) o = _ref(o, g, at + 6, kind);
            o = _put(o, 0);
        }
        return o;
    }

    /// A claim reference: H(claim_id) H(evidence_id) V(value) and its rest word.
    function _ref(uint256 o, uint256[] memory g, uint256 at, uint256 kind) private pure returns (uint256) {
        o = _put(o, F.load(g[at]));
        o = _put(o, F.load(g[at + 1]));
        uint256 v = g[at + 2];
        o = _copy(o, v, F.vSize(kind, v));
        return _put(o, 0);
    }

    /// T("check requirement " + R + " chunk " + c + ": " + a + " of " + n + " item(s) admitted").
    function _description(uint256 o, uint256 ridT, uint256 chunk, uint256 a, uint256 n)
        private
        pure
        returns (uint256)
    {
        uint256 head = o;
        o += 32;
        uint256 textStart = o;
        assembly { mstore(o, "check requirement ") }
        o += 18;
        uint256 len = F.load(ridT);
        assembly { calldatacopy(o, add(ridT, 32), len) }
        o += len;
        assembly { mstore(o, " chunk ") }
        o = _decimal(o + 7, chunk);
        assembly { mstore(o, ": ") }
        o = _decimal(o + 2, a);
        assembly { mstore(o, " of ") }
        o = _decimal(o + 4, n);
        assembly { mstore(o, " item(s) admitted") }
        o += 17;
        _put(head, o - textStart);
        assembly { mstore(o, 0) }
        return textStart + ((o - textStart + 31) & ~uint256(31));
    }

    function _decimal(uint256 o, uint256 x) private pure returns (uint256) {
        uint256 d = 1;
        for (uint256 y = x / 10; y != 0; y /= 10) ++d;
        for (uint256 i = d; i > 0; --i) {
            assembly { mstore8(add(o, sub(i, 1)), add(0x30, mod(x, 10))) }
            x /= 10;
        }
        return o + d;
    }

    function _put(uint256 o, uint256 v) private pure returns (uint256) {
        assembly { mstore(o, v) }
        return o + 32;
    }

    function _copy(uint256 o, uint256 from, uint256 len) private pure returns (uint256) {
        assembly { calldatacopy(o, from, len) }
        return o + len;
    }
}
