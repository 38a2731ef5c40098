// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorFormProofCheck} from "./PorFormProofCheck.sol";

/// @title PorFormProof: the FormProof (SPEC §10.2.8, §10.4.3) on chain, the envelope: the
/// record part, the form leaf's and the forms component's paths, the proof's id, then `F`
/// of the record from the family contract of its form tag (`IPorFormFamily`), `LH(F)`
/// (ADR 0017: s41 spike, s42 split and route `fpsplit`). A forms executor of
/// PorProofCheck (SPEC §14.8): `KIND()` is keccak256("form:form"), `execute` takes the
/// por.FormProof/1 file's exact bytes (`settleByForms(marketId, KIND, file)`).
contract PorFormProof {
    /// keccak256("form:" || "form"): the FormProof's kind in `settleByForms` (SPEC §14.4).
    bytes32 public constant KIND = keccak256("form:form");

    /// The constructor's family list is longer than 10 (tags 0..9) or names tag 0.
    error FamilyCount(uint256 count);

    address private immutable f1;
    address private immutable f2;
    address private immutable f3;
    address private immutable f4;
    address private immutable f5;
    address private immutable f6;
    address private immutable f7;
    address private immutable f8;
    address private immutable f9;

    /// `families[tag]`: the family contract of form tag `tag` (SPEC §5.6: 1 COMMON, 2
    /// REQUIREMENT, 3 EXTRACT, 4 CHUNK, 5 AGGREGATE, 6 CONTRADICTIONS, 7 DEDUCE, 8 MAP,
    /// 9 VERDICT), address(0) for a family not on chain (and at 0); a shorter list leaves
    /// the tags past its end off chain.
    constructor(address[] memory families) {
        uint256 n = families.length;
        if (n > 10 || (n > 0 && families[0] != address(0))) revert FamilyCount(n);
        address[10] memory a;
        for (uint256 i = 1; i < n; i++) {
            a[i] = families[i];
        }
        (f1, f2, f3, f4, f5) = (a[1], a[2], a[3], a[4], a[5]);
        (f6, f7, f8, f9) = (a[6], a[7], a[8], a[9]);
    }

    /// The family contract of form tag `tag`, 0 if none on chain.
    function family(uint256 tag) external view returns (address) {
        return tag < 10 ? families()[tag] : address(0);
    }

    /// `verify_form_proof` (SPEC §10.4.3) of a por.FormProof/1 file (`PorFormProofCheck`):
    /// (won, keccak256 of the check id). Reverts `NoFamily(tag)` when the answer needs a
    /// family that is not on chain.
    function check(bytes calldata proof) external view returns (bool won, bytes32 id) {
        (won, id,) = PorFormProofCheck.check(proof, families());
    }

    /// `check` with the proof's `por_root` (0 when the file does not parse that far), as
    /// PorProofCheck's forms executors answer (SPEC §14.8).
    function execute(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        return PorFormProofCheck.check(proof, families());
    }

    function families() private view returns (address[10] memory a) {
        (a[1], a[2], a[3], a[4], a[5]) = (f1, f2, f3, f4, f5);
        (a[6], a[7], a[8], a[9]) = (f6, f7, f8, f9);
    }
}
