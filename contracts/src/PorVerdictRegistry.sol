// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorMerkle} from "./PorMerkle.sol";

/// @title PorVerdictRegistry: por verdicts signed with EIP-712 secp256k1, and challenges
/// backed by por InclusionProofs (SPEC §8, §10, §14).
/// @notice Errors are named after por check ids, so a revert reads like a `por verify`
/// failure: SignatureHighS is signature.high_s, ProofLeafPath is proof.leaf_path, and so on.
contract PorVerdictRegistry {
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

    /// What is stored per market: two slots.
    struct Record {
        bytes32 porRoot;
        uint64 evidenceCount;
        uint64 reasoningCount;
        uint8 outcome;
        uint16 confidenceBps;
        uint32 openChallenges;
        bool overturned;
    }

    /// SPEC §16.7: the dispute court's ruling on one open challenge, signed by the
    /// resolver's key (EIP-712, this contract's domain); anyone may relay it.
    struct Ruling {
        bytes32 challengeId;
        bytes32 marketId;
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
        Rejected
    }

    struct Challenge {
        bytes32 marketId;
        bytes32 leafHash;
        address challenger;
        uint64 leafIndex;
        uint8 component;
        ChallengeStatus status;
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
    error NonceReplayed(address signer, uint64 nonce, uint256 nextNonce); // chain.nonce
    error OutcomeOutOfRange(uint8 outcome); // schema.value (outcome 1..3)
    error ConfidenceOutOfRange(uint16 confidenceBps); // schema.value (0..10000)
    error PorRootZero(); // schema.value (a por_root is a SHA-256 output)
    error VerdictExists(bytes32 marketId); // chain.verdict_exists
    error UnknownMarket(bytes32 marketId); // chain.unknown_market (no por_root to check against)
    error ProofComponent(uint8 component); // proof.component
    error ProofLeafPath(bytes32 computed, bytes32 componentRoot); // proof.leaf_path
    error ProofComponentPath(bytes32 computed, bytes32 porRoot); // proof.component_path
    error ChallengeExists(bytes32 challengeId); // chain.challenge_exists
    error ChallengeNotOpen(bytes32 challengeId); // chain.challenge_not_open
    error NotAdmin(address caller); // chain.not_admin
    error NotResolver(address caller); // chain.not_resolver
    error ZeroAddress(); // chain.zero_address
    error RulingValue(uint8 workerPct, bool upheld); // court.ruling_value
    error RulingMismatch(bytes32 challengeId); // court.ruling_mismatch

    // ---- events ---------------------------------------------------------------------------
    event SignerAdded(address indexed signer);
    event SignerRemoved(address indexed signer);
    event ResolverChanged(address indexed previous, address indexed resolver);
    event VerdictSubmitted(
        bytes32 indexed marketId,
        address indexed signer,
        bytes32 porRoot,
        uint64 evidenceCount,
        uint64 reasoningCount,
        uint8 outcome,
        uint16 confidenceBps,
        uint64 nonce
    );
    event ChallengeOpened(
        bytes32 indexed challengeId,
        bytes32 indexed marketId,
        address indexed challenger,
        uint8 component,
        uint64 leafIndex,
        bytes32 leafHash
    );
    event ChallengeResolved(bytes32 indexed challengeId, bytes32 indexed marketId, bool upheld);
    event RulingAccepted(bytes32 indexed challengeId, bytes32 caseHash, bytes32 courtRoot, uint8 workerPct);

    // ---- constants (SPEC §8.1-8.3) --------------------------------------------------------
    bytes32 public constant VERDICT_TYPEHASH = keccak256(
        "Verdict(bytes32 marketId,uint8 outcome,uint16 confidenceBps,bytes32 promptSpecHash,"
        "bytes32 evidenceRoot,uint64 evidenceCount,bytes32 reasoningRoot,uint64 reasoningCount,"
        "bytes32 porRoot,uint64 issuedAt,uint64 expiresAt,uint64 nonce)"
    );
    bytes32 public constant RULING_TYPEHASH = keccak256(
        "Ruling(bytes32 challengeId,bytes32 marketId,bytes32 leafHash,bool upheld,uint8 workerPct,"
        "bytes32 caseHash,bytes32 courtRoot,uint64 issuedAt,uint64 expiresAt)"
    );
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("por");
    bytes32 private constant VERSION_HASH = keccak256("1");
    /// secp256k1 n / 2 (EIP-2 low-s bound) and n.
    uint256 private constant HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;
    uint256 private constant N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141;

    address public immutable admin;
    uint256 private immutable cachedChainId;
    bytes32 private immutable cachedDomainSeparator;

    address public resolver;
    /// bit 0: the address is a signer; bits 1..: the next nonce it may use.
    mapping(address => uint256) private signerState;
    mapping(bytes32 => Record) public verdicts;
    mapping(bytes32 => Challenge) public challenges;

    constructor(address admin_, address resolver_, address[] memory signers) {
        if (admin_ == address(0)) revert ZeroAddress();
        admin = admin_;
        resolver = resolver_;
        emit ResolverChanged(address(0), resolver_);
        cachedChainId = block.chainid;
        cachedDomainSeparator = _domainSeparator();
        for (uint256 i; i < signers.length; ++i) {
            _addSigner(signers[i]);
        }
    }

    // ---- administration -----------------------------------------------------------------
    function addSigner(address signer) external {
        if (msg.sender != admin) revert NotAdmin(msg.sender);
        _addSigner(signer);
    }

    function removeSigner(address signer) external {
        if (msg.sender != admin) revert NotAdmin(msg.sender);
        uint256 state = signerState[signer];
        if (state & 1 == 1) {
            signerState[signer] = state & ~uint256(1); // the nonce survives removal
            emit SignerRemoved(signer);
        }
    }

    /// The extension point for a dispute court: the resolver alone rules on challenges.
    function setResolver(address resolver_) external {
        if (msg.sender != admin) revert NotAdmin(msg.sender);
        emit ResolverChanged(resolver, resolver_);
        resolver = resolver_;
    }

    function _addSigner(address signer) private {
        if (signer == address(0)) revert ZeroAddress();
        uint256 state = signerState[signer];
        if (state & 1 == 0) {
            signerState[signer] = state | 1;
            emit SignerAdded(signer);
        }
    }

    function isSigner(address signer) external view returns (bool) {
        return signerState[signer] & 1 == 1;
    }

    /// The smallest nonce `signer` may still sign with.
    function nextNonce(address signer) external view returns (uint256) {
        return signerState[signer] >> 1;
    }

    // ---- EIP-712 (SPEC §8.2-8.3) ----------------------------------------------------------
    function domainSeparator() public view returns (bytes32) {
        return block.chainid == cachedChainId ? cachedDomainSeparator : _domainSeparator();
    }

    function _domainSeparator() private view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    /// keccak256(0x1901 || domainSeparator || hashStruct(v)): what `por sign` signs.
    function verdictDigest(Verdict calldata v) public view returns (bytes32 digest) {
        bytes32 separator = domainSeparator();
        bytes32 typeHash = VERDICT_TYPEHASH;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, typeHash)
            calldatacopy(add(p, 0x20), v, 0x180) // the twelve words, already ABI-checked
            let structHash := keccak256(p, 0x1a0)
            mstore(p, hex"1901")
            mstore(add(p, 0x02), separator)
            mstore(add(p, 0x22), structHash)
            digest := keccak256(p, 0x42)
        }
    }

    // ---- verdicts (SPEC §14.2) ------------------------------------------------------------
    /// Accept a verdict signed by a registered signer: checks in SPEC §8.5 order, then the
    /// nonce, then stores (porRoot, evidenceCount, reasoningCount, outcome, confidenceBps).
    function submitVerdict(Verdict calldata v, address signer, bytes calldata signature) external {
        uint8 outcome = v.outcome;
        if (outcome == 0 || outcome > 3) revert OutcomeOutOfRange(outcome);
        if (v.confidenceBps > 10_000) revert ConfidenceOutOfRange(v.confidenceBps);
        if (v.porRoot == bytes32(0)) revert PorRootZero();
        address recovered = _recover(verdictDigest(v), signature);
        if (signer == address(0)) revert SignatureZeroSigner();
        if (recovered != signer) revert SignatureInvalid(signer, recovered);
        uint256 state = signerState[signer];
        if (state & 1 == 0) revert UnknownSigner(signer);
        if (block.timestamp >= v.expiresAt || v.issuedAt > v.expiresAt) {
            revert Expired(v.expiresAt, block.timestamp);
        }
        if (block.timestamp < v.issuedAt) revert NotYetValid(v.issuedAt, block.timestamp);
        uint64 nonce = v.nonce;
        if (nonce < state >> 1) revert NonceReplayed(signer, nonce, state >> 1);
        signerState[signer] = ((uint256(nonce) + 1) << 1) | 1;
        _store(v, signer);
    }

    /// SPEC §8.5 steps 1-3 on the 65 bytes r || s || v, then ecrecover (0 if it fails).
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
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

    function _store(Verdict calldata v, address signer) private {
        Record storage record = verdicts[v.marketId];
        if (record.porRoot != bytes32(0)) revert VerdictExists(v.marketId);
        record.porRoot = v.porRoot;
        record.evidenceCount = v.evidenceCount;
        record.reasoningCount = v.reasoningCount;
        record.outcome = v.outcome;
        record.confidenceBps = v.confidenceBps;
        emit VerdictSubmitted(
            v.marketId, signer, v.porRoot, v.evidenceCount, v.reasoningCount, v.outcome,
            v.confidenceBps, v.nonce
        );
    }

    // ---- challenges (SPEC §14.4) ----------------------------------------------------------
    /// SPEC §10.4.1 steps 3-4 against the stored por_root of `marketId`; returns LH(leaf).
    function checkInclusion(bytes32 marketId, InclusionProof calldata p) public view returns (bytes32) {
        bytes32 porRoot = verdicts[marketId].porRoot;
        if (porRoot == bytes32(0)) revert UnknownMarket(marketId);
        uint8 c = p.component;
        if ((0x36 >> c) & 1 == 0) revert ProofComponent(c); // positions 1, 2, 4, 5
        uint64 size = p.treeSize;
        bytes32 leafHash = PorMerkle.leafHash(p.leaf);
        bytes32 r1 = PorMerkle.rootFromPath(leafHash, p.leafIndex, size, p.leafPath);
        bytes32 componentRoot = p.componentRoot;
        if (r1 != componentRoot) revert ProofLeafPath(r1, componentRoot);
        bytes32 r2 = PorMerkle.rootFromPath(PorMerkle.componentLeafHash(r1, size), c, 6, p.componentPath);
        if (r2 != porRoot) revert ProofComponentPath(r2, porRoot);
        return leafHash;
    }

    /// Dispute one committed leaf: the proof must show it is in the market's por_root.
    /// Marks the verdict disputed until the resolver rules (SPEC §14.4).
    function openChallenge(bytes32 marketId, InclusionProof calldata p) external returns (bytes32 challengeId) {
        bytes32 leafHash = checkInclusion(marketId, p);
        challengeId = keccak256(abi.encode(marketId, p.component, p.leafIndex));
        Challenge storage ch = challenges[challengeId];
        if (ch.status != ChallengeStatus.None) revert ChallengeExists(challengeId);
        ch.marketId = marketId;
        ch.leafHash = leafHash;
        ch.challenger = msg.sender;
        ch.leafIndex = p.leafIndex;
        ch.component = p.component;
        ch.status = ChallengeStatus.Open;
        ++verdicts[marketId].openChallenges;
        emit ChallengeOpened(challengeId, marketId, msg.sender, p.component, p.leafIndex, leafHash);
    }

    /// The resolver's ruling: upheld strikes the verdict (overturned), rejected clears it.
    function resolveChallenge(bytes32 challengeId, bool upheld) external {
        if (msg.sender != resolver) revert NotResolver(msg.sender);
        Challenge storage ch = challenges[challengeId];
        if (ch.status != ChallengeStatus.Open) revert ChallengeNotOpen(challengeId);
        _resolve(challengeId, ch, upheld);
    }

    /// keccak256(0x1901 || domainSeparator || hashStruct(r)) of a court Ruling (SPEC §16.7).
    function rulingDigest(Ruling calldata r) public view returns (bytes32) {
        return keccak256(abi.encodePacked(hex"1901", domainSeparator(), keccak256(abi.encode(RULING_TYPEHASH, r))));
    }

    /// The court's path to resolveChallenge: a Ruling signed by the resolver's key, for an
    /// open challenge on exactly this market and leaf, inside its validity window.
    function submitRuling(Ruling calldata r, bytes calldata signature) external {
        if (r.workerPct > 100 || r.upheld != (r.workerPct < 50)) revert RulingValue(r.workerPct, r.upheld);
        address recovered = _recover(rulingDigest(r), signature);
        address court = resolver;
        if (recovered == address(0) || recovered != court) revert SignatureInvalid(court, recovered);
        if (block.timestamp >= r.expiresAt || r.issuedAt > r.expiresAt) revert Expired(r.expiresAt, block.timestamp);
        if (block.timestamp < r.issuedAt) revert NotYetValid(r.issuedAt, block.timestamp);
        Challenge storage ch = challenges[r.challengeId];
        if (ch.status != ChallengeStatus.Open) revert ChallengeNotOpen(r.challengeId);
        if (ch.marketId != r.marketId || ch.leafHash != r.leafHash) revert RulingMismatch(r.challengeId);
        _resolve(r.challengeId, ch, r.upheld);
        emit RulingAccepted(r.challengeId, r.caseHash, r.courtRoot, r.workerPct);
    }

    function _resolve(bytes32 challengeId, Challenge storage ch, bool upheld) private {
        ch.status = upheld ? ChallengeStatus.Upheld : ChallengeStatus.Rejected;
        Record storage record = verdicts[ch.marketId];
        --record.openChallenges;
        if (upheld) record.overturned = true;
        emit ChallengeResolved(challengeId, ch.marketId, upheld);
    }
}
