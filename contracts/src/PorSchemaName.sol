// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorSchemaName: which id a proof whose record does not parse gets (SPEC §10.8,
/// §14.8): `proof.unsupported` when its top-level `schema` names another version of a
/// proof record (`proof_from_cbor`'s rule: this implementation cannot decide it), else
/// `proof.schema`.
library PorSchemaName {
    /// The id of a reader-checked proof `d` whose fields are not its record's:
    /// `proof.unsupported` or `proof.schema`, as `proof_from_cbor` answers it.
    function faultOf(bytes calldata d) internal pure returns (bytes32) {
        uint256 at = PorCbor.get(d, 0, "schema");
        return at != 0 && otherVersion(d, at) ? PorIds.UNSUPPORTED : PorIds.SCHEMA;
    }

    /// The text at `pos` is `por.<proof record>/<1-9 ASCII digits>` with a version other
    /// than the record's current one (2 for CitationProof and OmissionProof, else 1); the
    /// records are §10.2's nine.
    function otherVersion(bytes calldata d, uint256 pos) internal pure returns (bool) {
        (bool text, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        if (!text || len < 6 || bytes4(d[off:off + 4]) != "por.") return false;
        uint256 slash = off + 4;
        while (slash < off + len && d[slash] != "/") slash++;
        if (slash == off + len) return false; // no slash (computed before: an underflow)
        uint256 digits = off + len - slash - 1;
        if (digits == 0 || digits > 9) return false;
        for (uint256 i = slash + 1; i < off + len; i++) {
            if (d[i] < "0" || d[i] > "9") return false;
        }
        bytes32 name = keccak256(d[off + 4:slash]);
        bytes1 current = name == keccak256("CitationProof") || name == keccak256("OmissionProof") ? bytes1("2") : bytes1("1");
        if (digits == 1 && d[slash + 1] == current) return false;
        return name == keccak256("InclusionProof") || name == keccak256("BundleProof")
            || name == keccak256("OneStepProof") || name == keccak256("OmissionProof")
            || name == keccak256("JudgeProof") || name == keccak256("HeaderProof")
            || name == keccak256("CitationProof") || name == keccak256("FormProof")
            || name == keccak256("FormStepProof");
    }
}
