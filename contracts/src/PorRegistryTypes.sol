// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// The stateless checker of SPEC §14.8 (PorProofCheck.sol), called by `settleByProof`.
interface IPorProofCheck {
    function checkProof(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot);
    function checkForms(bytes32 kind, bytes calldata args)
        external
        view
        returns (bool won, bytes32 checkId, bytes32 porRoot);
    function checkOutcome(bytes calldata args) external view returns (bytes32 checkId, bytes32 porRoot, bytes32 words);
}

/// `settleByProof`'s and `settleByForms`' calls to the checker.
library PorProofCall {
    /// `IPorProofCheck(check).checkProof(proof)`, as the compiler's call does it (its
    /// revert passed on; a short answer or a `won` that is not a bool a revert with no
    /// data), and keccak256(proof) hashed from the call's own copy of the proof in memory
    /// (no second copy: less to copy and less memory to expand). The memory past the free
    /// pointer is used and left unallocated (the caller reads none of it after).
    function checkProof(address check, bytes calldata proof)
        internal
        view
        returns (bool won, bytes32 checkId, bytes32 proofRoot, bytes32 proofHash)
    {
        bytes4 sel = IPorProofCheck.checkProof.selector;
        uint256 m;
        uint256 size;
        assembly ("memory-safe") {
            m := mload(0x40)
            let body := add(m, 68)
            mstore(m, sel)
            mstore(add(m, 4), 0x20)
            mstore(add(m, 36), proof.length)
            mstore(add(body, and(proof.length, not(31))), 0) // the last word's padding
            calldatacopy(body, proof.offset, proof.length)
            proofHash := keccak256(body, proof.length)
            size := add(68, and(add(proof.length, 31), not(31)))
        }
        (won, checkId, proofRoot) = answer(check, m, size);
    }

    /// `IPorProofCheck(check).checkForms(kind, args)` as `checkProof` calls `checkProof`,
    /// and the proof hash keccak256(kind || args) (SPEC §14.4) hashed from the call's own
    /// copy: `kind` is written first where the length of `args` goes, right before them.
    function checkForms(address check, bytes32 kind, bytes calldata args)
        internal
        view
        returns (bool won, bytes32 checkId, bytes32 proofRoot, bytes32 proofHash)
    {
        bytes4 sel = IPorProofCheck.checkForms.selector;
        uint256 m;
        uint256 size;
        assembly ("memory-safe") {
            m := mload(0x40)
            let body := add(m, 100)
            mstore(m, sel)
            mstore(add(m, 4), kind)
            mstore(add(m, 36), 0x40)
            mstore(add(m, 68), kind)
            mstore(add(body, and(args.length, not(31))), 0) // the last word's padding
            calldatacopy(body, args.offset, args.length)
            proofHash := keccak256(add(m, 68), add(32, args.length))
            mstore(add(m, 68), args.length)
            size := add(100, and(add(args.length, 31), not(31)))
        }
        (won, checkId, proofRoot) = answer(check, m, size);
    }

    /// The checker's answer to the call of `size` bytes at memory `m`, written over its
    /// input (not read again): its revert passed on; a short answer or a `won` that is
    /// not a bool a revert with no data, as the compiler's decoder.
    function answer(address check, uint256 m, uint256 size)
        private
        view
        returns (bool won, bytes32 checkId, bytes32 proofRoot)
    {
        assembly ("memory-safe") {
            if iszero(staticcall(gas(), check, m, size, m, 0x60)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
            if lt(returndatasize(), 0x60) { revert(0, 0) }
            won := mload(m)
            if gt(won, 1) { revert(0, 0) }
            checkId := mload(add(m, 0x20))
            proofRoot := mload(add(m, 0x40))
        }
    }
}

/// @title PorRegistryTypes: the types, errors and events of PorVerdictRegistry (SPEC §14.2,
/// §14.3), apart from its logic. Errors are named after por check ids.
abstract contract PorRegistryTypes {
    // ---- SPEC §8.1: the Verdict struct, members in EIP-712 order ----------------------
    struct Verdict {
        bytes32 marketId;
        uint8 outcome;
        uint16 confidenceBps;
        bytes32 promptSpecHash;
        bytes32 evidenceRoot;
        uint64 evidenceCount;
        bytes32 reasoningRoot;
        uint64 reasoningCount;
        bytes32 porRoot;
        uint64 issuedAt;
        uint64 expiresAt;
        uint64 nonce;
    }

    /// The fields of a por.InclusionProof/1 a contract needs (SPEC §10.2.1); `component`
    /// is the position of SPEC §5.4: 1 prompt_spec, 2 evidence, 4 reasoning, 5 verdict.
    struct InclusionProof {
        uint8 component;
        uint64 leafIndex;
        uint64 treeSize;
        bytes leaf;
        bytes32[] leafPath;
        bytes32 componentRoot;
        bytes32[] componentPath;
    }

    enum VerdictStatus {
        None,
        Proposed,
        Struck,
        Final,
        Void
    }

    /// What is stored per market: three slots (SPEC §14.2). The second holds everything a
    /// challenge, a settle and finality read (status, round, open challenges, deadline), so
    /// they cost one storage read; the third only what `finalize` and a rejection need.
    struct Record {
        bytes32 porRoot;
        VerdictStatus status;
        uint32 round;
        uint32 openChallenges;
        uint64 deadline;
        uint8 outcome;
        uint16 confidenceBps;
        uint64 evidenceCount;
        address proposer;
        uint64 reasoningCount;
    }

    /// SPEC §16.7: the dispute court's ruling on one case, signed by the resolver's key
    /// (EIP-712, this contract's domain); anyone may relay it. `challengeId` is the case's
    /// leaf id keccak256(abi.encode(marketKey, component, leafIndex)) (§16.2).
    struct Ruling {
        bytes32 challengeId;
        bytes32 marketKey;
        bytes32 leafHash;
        bool upheld;
        uint8 workerPct;
        bytes32 caseHash;
        bytes32 courtRoot;
        uint64 issuedAt;
        uint64 expiresAt;
    }

    enum ChallengeStatus {
        None,
        Open,
        Upheld,
        Rejected,
        Moot,
        Lapsed
    }

    /// Two slots; the challenge id commits the market, leaf, challenger and case (§14.4).
    struct Challenge {
        address challenger;
        uint32 round;
        ChallengeStatus status;
        bytes32 marketKey;
    }

    // ---- errors (SPEC §14.3) --------------------------------------------------------------
    error SignatureMalformed(); // signature.malformed
    error SignatureBadV(uint8 v); // signature.bad_v
    error SignatureHighS(bytes32 s); // signature.high_s
    error SignatureZeroSigner(); // signature.zero_signer
    error SignatureInvalid(address signer, address recovered); // signature.invalid
    error UnknownSigner(address signer); // signature.untrusted_key
    error Expired(uint64 expiresAt, uint256 blockTime); // signature.expired
    error NotYetValid(uint64 issuedAt, uint256 blockTime); // signature.not_yet_valid
    error NonceRound(bytes32 marketKey, uint64 nonce, uint32 round); // chain.nonce
    error OutcomeOutOfRange(uint8 outcome); // schema.value (outcome 1..3)
    error ConfidenceOutOfRange(uint16 confidenceBps); // schema.value (0..10000)
    error PorRootZero(); // schema.value (a por_root is a SHA-256 output)
    error VerdictExists(bytes32 marketKey); // chain.verdict_exists
    error RootStruck(bytes32 marketKey, bytes32 porRoot); // chain.root_struck
    /// The signed promptSpecHash is not component 1 of the signed porRoot with the path sent.
    error PromptSpecNotCommitted(bytes32 computed, bytes32 porRoot); // chain.prompt_spec_not_committed
    error UnknownMarket(bytes32 marketKey); // chain.unknown_market (no por_root to check against)
    error NotChallengeable(bytes32 marketKey, VerdictStatus status); // chain.not_proposed
    error WindowClosed(uint64 deadline, uint256 blockTime); // chain.window_closed
    error NotFinal(bytes32 marketKey); // chain.not_final
    error BondValue(uint256 expected, uint256 sent); // chain.bond_value
    error NothingToWithdraw(address account); // chain.nothing_to_withdraw
    error WithdrawFailed(address account); // chain.withdraw_failed
    error ProofComponent(uint8 component); // proof.component
    error ProofLeafPath(bytes32 computed, bytes32 componentRoot); // proof.leaf_path
    error ProofComponentPath(bytes32 computed, bytes32 porRoot); // proof.component_path
    error ChallengeExists(bytes32 challengeId); // chain.challenge_exists
    error ChallengeNotOpen(bytes32 challengeId); // chain.challenge_not_open
    error ChallengeNotMoot(bytes32 challengeId); // chain.challenge_not_moot
    error ChallengeMoot(bytes32 challengeId); // chain.challenge_moot (closeMoot it instead)
    error CourtTimeoutPending(uint64 due, uint256 blockTime); // chain.court_pending
    error ProofNotCommitted(bytes32 commitment); // chain.proof_not_committed
    error NotAdmin(address caller); // chain.not_admin
    error ZeroAddress(); // chain.zero_address
    error DeploymentValue(); // chain.deployment_value (a bond or window out of range)
    error RulingValue(uint8 workerPct, bool upheld); // court.ruling_value
    error RulingMismatch(bytes32 challengeId); // court.ruling_mismatch
    error ProofNotWon(bytes32 checkId); // chain.proof_not_won (checkId: keccak256 of the id)
    error ProofPorRoot(bytes32 proofRoot, bytes32 porRoot); // proof.por_root
    /// Raised by PorProofCheck (and passed on by settleByProof) for a one-step proof of a
    /// step kind the chain does not re-execute (keccak256 of its inputs.kind): the court path.
    error CourtPath(bytes32 kind); // chain.court_path

    // ---- ids (SPEC §14.2, §14.4) ---------------------------------------------------------
    /// The market key (SPEC §14.2, ADR 0018): keccak256(abi.encode(marketId, promptSpecHash)),
    /// both from the signed Verdict. A market is its question: every record, round, struck
    /// root, challenge and proof is kept per key.
    function marketKeyOf(bytes32 marketId, bytes32 promptSpecHash) public pure returns (bytes32 key) {
        assembly ("memory-safe") {
            mstore(0x00, marketId)
            mstore(0x20, promptSpecHash)
            key := keccak256(0x00, 0x40)
        }
    }

    /// keccak256(abi.encode(leafId, leafHash, challenger, caseHash)), leafId =
    /// keccak256(abi.encode(marketKey, component, leafIndex)): the one challenge id (§14.4).
    function challengeIdOf(bytes32 leafId, bytes32 leafHash, address challenger, bytes32 caseHash)
        public
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(leafId, leafHash, challenger, caseHash));
    }

    // ---- signatures (SPEC §8.5) ------------------------------------------------------
    /// secp256k1 n / 2 (EIP-2 low-s bound) and n.
    uint256 private constant HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;
    uint256 private constant N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141;

    /// SPEC §8.5 steps 1-3 on the 65 bytes r || s || v, then ecrecover (0 if it fails).
    function _recover(bytes32 digest, bytes calldata signature) internal pure returns (address) {
        if (signature.length != 65) revert SignatureMalformed();
        bytes32 r;
        bytes32 s;
        uint8 sv;
        assembly ("memory-safe") {
            r := calldataload(signature.offset)
            s := calldataload(add(signature.offset, 0x20))
            sv := byte(0, calldataload(add(signature.offset, 0x40)))
        }
        if (uint256(r) == 0 || uint256(r) >= N || uint256(s) == 0 || uint256(s) >= N) {
            revert SignatureMalformed();
        }
        if (sv != 27 && sv != 28) revert SignatureBadV(sv);
        if (uint256(s) > HALF_N) revert SignatureHighS(s);
        return ecrecover(digest, sv, r, s);
    }

    // ---- events ---------------------------------------------------------------------------
    event SignerAdded(address indexed signer);
    event SignerRemoved(address indexed signer);
    event ResolverChanged(address indexed previous, address indexed resolver);
    /// `marketId` and `promptSpecHash` as signed, so an indexer lists a market id's PromptSpecs.
    event VerdictProposed(
        bytes32 indexed marketKey,
        address indexed signer,
        address indexed proposer,
        bytes32 marketId,
        bytes32 promptSpecHash,
        bytes32 porRoot,
        uint8 outcome,
        uint16 confidenceBps,
        uint32 round,
        uint64 deadline
    );
    event VerdictStruck(bytes32 indexed marketKey, bytes32 indexed challengeId, bytes32 porRoot, uint32 round);
    event VerdictVoided(bytes32 indexed marketKey, bytes32 indexed challengeId, bytes32 porRoot, uint32 round);
    event ProofCommitted(bytes32 indexed commitment, address indexed committer);
    event VerdictFinalized(bytes32 indexed marketKey, bytes32 porRoot, uint8 outcome);
    event ChallengeOpened(
        bytes32 indexed challengeId,
        bytes32 indexed marketKey,
        address indexed challenger,
        bytes32 caseHash,
        uint8 component,
        uint64 leafIndex,
        bytes32 leafHash
    );
    event ChallengeSettled(bytes32 indexed challengeId, bytes32 indexed marketKey, ChallengeStatus status);
    event RulingAccepted(bytes32 indexed challengeId, bytes32 caseHash, bytes32 courtRoot, uint8 workerPct);
    event Withdrawn(address indexed account, uint256 amount);
    event ProofSettled(bytes32 indexed challengeId, bytes32 indexed marketKey, address indexed caller, bytes32 checkId);
}
