// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorForms as F} from "./PorForms.sol";

/// @title PorCheckFormItems: the cited items of a check chunk read from their EXTRACT
/// forms (draft §2.3) and admitted by SPEC §12.5.3 (reasons in §12.2's order, the window
/// with slack, observed_at/observed_from, the gate's blank source id through EXTRACT's
/// derived word).
library PorCheckFormItems {
    /// One cited item as read from its EXTRACT form at `e`.
    struct Item {
        uint256 e; // the form
        uint256 claims; // the first claim
        uint256 nClaims;
        uint256 tail; // H(requirement_id), then status, retrieved_at, confidence, blank
        uint256 leaf; // its evidence leaf (its forms index - 1 - r)
        uint256 reasons; // bit c set: reason code c (1..7)
        uint256 observed;
        bool fromClaim;
    }

    /// What the admission reads of COMMON and REQUIREMENT.
    struct Rules {
        uint256 start; // the window with slack
        uint256 end;
        bytes32 metric; // H(ps.metric) when the predicate is timestamp_threshold, else 0
        bool skipMetric;
        uint256 allowed; // L[H] of allowed_sources: its count word
        uint256 targets; // L[H] of R's targets: its count word
        uint256 codes; // L[W] of accepted_status_codes: its count word, 0 when absent
        uint256 minTier;
    }

    /// The EXTRACT form at `e` (end `end`), walked whole (`proof.form` on any fault or a
    /// byte after its last word); `bad` when a timestamp claim's value is above 2^63-1
    /// (Python's `step.bad_prior_output`: `W` admits it, the claim reader does not).
    function read(uint256 e, uint256 end) internal pure returns (Item memory it, bool bad) {
        it.e = e;
        F.codeAt(e + 96, end, 3); // provenance_tier
        uint256 q = F.tEnd(e + 160, end);
        it.nClaims = F.countAt(q, end, 4);
        it.claims = q + 32;
        q += 32;
        for (uint256 k; k < it.nClaims; ++k) {
            uint256 kind = F.codeAt(q + 32, end, 3);
            F.wordAt(q + 64, end); // H(claim_id)
            q += 96;
            if (kind == 2 && F.intAt(q, end) > F.MAX_UINT63) bad = true;
            if (kind == F.TEXT) {
                F.wordAt(q, end); // H(value)
                q += 32;
            } else {
                q = F.vEnd(kind, q, end);
            }
        }
        it.tail = q;
        uint256 status = F.wordAt(q + 32, end);
        if (status < 100 || status > 599 || F.wordAt(q + 64, end) > F.MAX_UINT63) revert F.ProofForm();
        F.codeAt(q + 96, end, 10_000);
        F.codeAt(q + 128, end, 1);
        if (q + 160 != end) revert F.ProofForm();
    }

    /// The offset of the claim after the one at `q` (`H(key) E(kind) H(claim_id) V`: its
    /// value at `q + 96`, one word but a numeric's `D`).
    function nextClaim(uint256 q) internal pure returns (uint256) {
        uint256 v = q + 96;
        return v + (F.load(q + 32) == F.NUMERIC ? F.vSize(F.NUMERIC, v) : 32);
    }

    /// Admit `it` by `rules`: its reasons (bits), observed_at and its source.
    function admit(Item memory it, Rules memory rules) internal pure {
        uint256 e = it.e;
        it.observed = F.load(it.tail + 64);
        uint256 q = it.claims;
        for (uint256 k; k < it.nClaims; ++k) {
            if (F.load(q + 32) == 2 && !(rules.skipMetric && bytes32(F.load(q)) == rules.metric)) {
                it.observed = F.load(q + 96);
                it.fromClaim = true;
                break;
            }
            q = nextClaim(q);
        }
        uint256 source = F.load(e + 64);
        uint256 bits;
        if (!_listed(rules.allowed, source)) bits |= 1 << 1;
        if (!_listed(rules.targets, source)) bits |= 1 << 2;
        if (it.observed < rules.start || it.observed > rules.end) bits |= 1 << 3;
        if (F.load(e + 96) < rules.minTier) bits |= 1 << 4;
        if (F.load(it.tail + 96) > 10_000) bits |= 1 << 5;
        uint256 status = F.load(it.tail + 32);
        if (rules.codes == 0 ? status < 200 || status > 299 : !_listed(rules.codes, status)) bits |= 1 << 6;
        if (bits == 0 && F.load(it.tail + 128) == 1) bits = 1 << 7;
        it.reasons = bits;
    }

    /// Whether the list whose count word is at `p` holds the word `x`.
    function _listed(uint256 p, uint256 x) private pure returns (bool found) {
        assembly {
            let n := calldataload(p)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                if eq(calldataload(add(p, shl(5, add(i, 1)))), x) {
                    found := 1
                    break
                }
            }
        }
    }
}
