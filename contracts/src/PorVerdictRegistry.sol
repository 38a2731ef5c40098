// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorMerkle} from "./PorMerkle.sol";
import {PorOutcomeCall} from "./PorOutcomeCall.sol";
import {PorProofCall, PorRegistryTypes} from "./PorRegistryTypes.sol";

/// @title PorVerdictRegistry: an optimistic registry of por verdicts (SPEC §8, §10, §14).
/// @notice A verdict signed with EIP-712 secp256k1 is proposed with a bond in native ETH;
/// it is final after the registry's dispute window with no challenge standing. A challenge
/// commits its challenger, its DisputeCase hash (§16.2) and a bond; a court Ruling signed by
/// the resolver settles only the challenge whose case it names. Payouts are pulled with
/// `withdraw()`. A CitationProof or a one-step proof that PorProofCheck finds won strikes a
/// proposed verdict in one call to `settleByProof` (a FormStepProof, sent by ABI, to
/// `settleByForms`), with no resolver, and pays its caller at once (credited if refused). Errors are named after por check ids
/// (SignatureHighS is signature.high_s).
contract PorVerdictRegistry is PorRegistryTypes {
    // ---- constants (SPEC §8.1-8.3) --------------------------------------------------------
    bytes32 public constant VERDICT_TYPEHASH = keccak256(
        "Verdict(bytes32 marketId,uint8 outcome,uint16 confidenceBps,bytes32 promptSpecHash,"
        "bytes32 evidenceRoot,uint64 evidenceCount,bytes32 reasoningRoot,uint64 reasoningCount,"
        "bytes32 porRoot,uint64 issuedAt,uint64 expiresAt,uint64 nonce)"
    );
    bytes32 public constant RULING_TYPEHASH = keccak256(
        "Ruling(bytes32 challengeId,bytes32 marketKey,bytes32 leafHash,bool upheld,uint8 workerPct,"
        "bytes32 caseHash,bytes32 courtRoot,uint64 issuedAt,uint64 expiresAt)"
    );
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("por");
    bytes32 private constant VERSION_HASH = keccak256("1");
    /// Seconds after a verdict's deadline the court has to rule on its challenges; then any
    /// challenge still open lapses and the market is void: INVALID (SPEC §14.4).
    uint64 public constant COURT_TIMEOUT = 30 days;

    address public immutable admin;
    /// Wei a proposer locks with each verdict, and a challenger with each challenge.
    uint256 public immutable proposerBond;
    uint256 public immutable challengerBond;
    /// Seconds a proposed verdict stays open to challenges (SPEC §14.4).
    uint64 public immutable disputeWindow;
    /// The PorProofCheck deployment `settleByProof` asks (SPEC §14.8).
    address public immutable proofCheck;
    uint256 private immutable cachedChainId;
    bytes32 private immutable cachedDomainSeparator;

    address public resolver;
    mapping(address => bool) public isSigner;
    mapping(bytes32 => Record) private records;
    mapping(bytes32 => Challenge) public challenges;
    /// keccak256(abi.encode(marketKey, porRoot)) of every struck verdict but the market's
    /// last: the last struck root stays in its Struck record and is archived here by the
    /// re-proposal that replaces it (SPEC §14.2), so a strike writes no new slot. `isStruck`.
    mapping(bytes32 => bool) private archivedRoots;
    /// Pull payments: what each account may withdraw.
    mapping(address => uint256) public withdrawable;
    /// keccak256(abi.encode(marketKey, keccak256(proof), committer)) => the block it was
    /// committed in: `settleByProof` pays only a caller who committed its proof earlier.
    mapping(bytes32 => uint256) public proofCommits;

    constructor(
        address admin_,
        address resolver_,
        address[] memory signers,
        uint256 proposerBond_,
        uint256 challengerBond_,
        uint64 disputeWindow_,
        address proofCheck_
    ) {
        if (admin_ == address(0) || resolver_ == address(0) || proofCheck_ == address(0)) revert ZeroAddress();
        if (
            proposerBond_ == 0 || proposerBond_ >> 128 != 0 || challengerBond_ == 0
                || challengerBond_ >> 128 != 0 || disputeWindow_ == 0 || disputeWindow_ >> 32 != 0
        ) revert DeploymentValue();
        admin = admin_;
        resolver = resolver_;
        proposerBond = proposerBond_;
        challengerBond = challengerBond_;
        disputeWindow = disputeWindow_;
        proofCheck = proofCheck_;
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
        if (isSigner[signer]) {
            isSigner[signer] = false;
            emit SignerRemoved(signer);
        }
    }

    /// The court's key: the only signer of Rulings.
    function setResolver(address resolver_) external {
        if (msg.sender != admin) revert NotAdmin(msg.sender);
        if (resolver_ == address(0)) revert ZeroAddress();
        emit ResolverChanged(resolver, resolver_);
        resolver = resolver_;
    }

    function _addSigner(address signer) private {
        if (signer == address(0)) revert ZeroAddress();
        if (!isSigner[signer]) {
            isSigner[signer] = true;
            emit SignerAdded(signer);
        }
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
    /// Propose a verdict signed by a registered signer, locking `proposerBond` wei: checks in
    /// SPEC §14.2 order (the signed promptSpecHash committed by porRoot as component 1 with
    /// `promptSpecPath`, the 3 hashes of PATH(1, 7) over the component leaves of SPEC §5.4),
    /// then the market key's round, then stores it open to challenges until
    /// `block.timestamp + disputeWindow`.
    function proposeVerdict(
        Verdict calldata v,
        bytes32[] calldata promptSpecPath,
        address signer,
        bytes calldata signature
    ) external payable {
        if (msg.value != proposerBond) revert BondValue(proposerBond, msg.value);
        uint8 outcome = v.outcome;
        if (outcome == 0 || outcome > 3) revert OutcomeOutOfRange(outcome);
        if (v.confidenceBps > 10_000) revert ConfidenceOutOfRange(v.confidenceBps);
        if (v.porRoot == bytes32(0)) revert PorRootZero();
        address recovered = _recover(verdictDigest(v), signature);
        if (signer == address(0)) revert SignatureZeroSigner();
        if (recovered != signer) revert SignatureInvalid(signer, recovered);
        if (!isSigner[signer]) revert UnknownSigner(signer);
        if (block.timestamp >= v.expiresAt || v.issuedAt > v.expiresAt) {
            revert Expired(v.expiresAt, block.timestamp);
        }
        if (block.timestamp < v.issuedAt) revert NotYetValid(v.issuedAt, block.timestamp);
        bytes32 promptSpecHash = v.promptSpecHash;
        bytes32 committed =
            PorMerkle.rootFromPath(PorMerkle.componentLeafHash(promptSpecHash, 1), 1, 7, promptSpecPath);
        if (committed != v.porRoot) revert PromptSpecNotCommitted(committed, v.porRoot);
        _propose(marketKeyOf(v.marketId, promptSpecHash), v, outcome, signer);
    }

    /// The market key's round and struck roots, then the record (SPEC §14.2, §14.7).
    function _propose(bytes32 marketKey, Verdict calldata v, uint8 outcome, address signer) private {
        Record storage record = records[marketKey];
        VerdictStatus status = record.status;
        if (status != VerdictStatus.None && status != VerdictStatus.Struck) revert VerdictExists(marketKey);
        uint32 round = record.round;
        if (v.nonce != round) revert NonceRound(marketKey, v.nonce, round);
        if (status == VerdictStatus.Struck) {
            // the struck roots: the archived ones and the record's own (the last struck)
            bytes32 last = record.porRoot;
            if (v.porRoot == last || archivedRoots[_rootKey(marketKey, v.porRoot)]) {
                revert RootStruck(marketKey, v.porRoot);
            }
            archivedRoots[_rootKey(marketKey, last)] = true;
        }
        uint64 deadline = uint64(block.timestamp) + disputeWindow;
        record.porRoot = v.porRoot;
        record.status = VerdictStatus.Proposed;
        record.openChallenges = 0;
        record.deadline = deadline;
        record.outcome = outcome;
        record.confidenceBps = v.confidenceBps;
        record.evidenceCount = v.evidenceCount;
        record.proposer = msg.sender;
        record.reasoningCount = v.reasoningCount;
        emit VerdictProposed(
            marketKey, signer, msg.sender, v.marketId, v.promptSpecHash, v.porRoot, outcome, v.confidenceBps,
            round, deadline
        );
    }

    /// True once the market's verdict is final: finalized, void (the court never ruled), or
    /// proposed, past its deadline, with no challenge open.
    function isFinal(bytes32 marketKey) public view returns (bool) {
        Record storage record = records[marketKey];
        VerdictStatus status = record.status;
        return status == VerdictStatus.Final || status == VerdictStatus.Void
            || (status == VerdictStatus.Proposed && record.openChallenges == 0
                && block.timestamp >= record.deadline);
    }

    /// The market's record (SPEC §14.2), in this order whatever the storage layout.
    function verdicts(bytes32 marketKey)
        external
        view
        returns (
            bytes32 porRoot,
            uint64 evidenceCount,
            uint64 reasoningCount,
            uint8 outcome,
            uint16 confidenceBps,
            uint32 openChallenges,
            uint32 round,
            VerdictStatus status,
            address proposer,
            uint64 deadline
        )
    {
        Record storage r = records[marketKey];
        return (
            r.porRoot,
            r.evidenceCount,
            r.reasoningCount,
            r.outcome,
            r.confidenceBps,
            r.openChallenges,
            r.round,
            r.status,
            r.proposer,
            r.deadline
        );
    }

    /// True iff `porRoot` was struck on `marketKey` (then it is never proposed there again).
    function isStruck(bytes32 marketKey, bytes32 porRoot) external view returns (bool) {
        Record storage r = records[marketKey];
        return archivedRoots[_rootKey(marketKey, porRoot)]
            || (r.status == VerdictStatus.Struck && r.porRoot == porRoot);
    }

    function _rootKey(bytes32 marketKey, bytes32 porRoot) private pure returns (bytes32) {
        return keccak256(abi.encode(marketKey, porRoot));
    }

    /// What a market contract reads: the final outcome (1 YES, 2 NO, 3 INVALID; 3 for a void
    /// market), or 0 when the last verdict was struck and none is proposed; reverts NotFinal
    /// otherwise.
    function finalOutcome(bytes32 marketKey) external view returns (uint8) {
        VerdictStatus status = records[marketKey].status;
        if (status == VerdictStatus.Void) return 3;
        if (isFinal(marketKey)) return records[marketKey].outcome;
        if (status == VerdictStatus.Struck) return 0;
        revert NotFinal(marketKey);
    }

    /// Anyone: close a final verdict and credit its proposer's bond.
    function finalize(bytes32 marketKey) external {
        Record storage record = records[marketKey];
        if (record.status != VerdictStatus.Proposed || !isFinal(marketKey)) revert NotFinal(marketKey);
        record.status = VerdictStatus.Final;
        withdrawable[record.proposer] += proposerBond;
        emit VerdictFinalized(marketKey, record.porRoot, record.outcome);
    }

    /// Pull payment: send the caller everything credited to it, once.
    function withdraw() external {
        uint256 amount = withdrawable[msg.sender];
        if (amount == 0) revert NothingToWithdraw(msg.sender);
        withdrawable[msg.sender] = 0;
        emit Withdrawn(msg.sender, amount);
        (bool ok,) = msg.sender.call{value: amount}("");
        if (!ok) revert WithdrawFailed(msg.sender);
    }

    // ---- challenges (SPEC §14.4) ----------------------------------------------------------
    /// SPEC §10.4.1 steps 3-4 against the stored por_root of `marketKey`; returns LH(leaf).
    function checkInclusion(bytes32 marketKey, InclusionProof calldata p) public view returns (bytes32) {
        bytes32 porRoot = records[marketKey].porRoot;
        if (porRoot == bytes32(0)) revert UnknownMarket(marketKey);
        uint8 c = p.component;
        if ((0x36 >> c) & 1 == 0) revert ProofComponent(c); // positions 1, 2, 4, 5
        uint64 size = p.treeSize;
        bytes32 leafHash = PorMerkle.leafHash(p.leaf);
        bytes32 r1 = PorMerkle.rootFromPath(leafHash, p.leafIndex, size, p.leafPath);
        bytes32 componentRoot = p.componentRoot;
        if (r1 != componentRoot) revert ProofLeafPath(r1, componentRoot);
        bytes32 r2 = PorMerkle.rootFromPath(PorMerkle.componentLeafHash(r1, size), c, 7, p.componentPath);
        if (r2 != porRoot) revert ProofComponentPath(r2, porRoot);
        return leafHash;
    }

    /// Dispute one committed leaf of a proposed verdict inside its window, with the
    /// challenger's DisputeCase hash and `challengerBond` wei.
    function openChallenge(bytes32 marketKey, bytes32 caseHash, InclusionProof calldata p)
        external
        payable
        returns (bytes32 challengeId)
    {
        if (msg.value != challengerBond) revert BondValue(challengerBond, msg.value);
        Record storage record = records[marketKey];
        VerdictStatus status = record.status;
        if (status == VerdictStatus.None) revert UnknownMarket(marketKey);
        if (status != VerdictStatus.Proposed) revert NotChallengeable(marketKey, status);
        if (block.timestamp >= record.deadline) revert WindowClosed(record.deadline, block.timestamp);
        bytes32 leafHash = checkInclusion(marketKey, p);
        bytes32 leafId = keccak256(abi.encode(marketKey, p.component, p.leafIndex));
        challengeId = challengeIdOf(leafId, leafHash, msg.sender, caseHash);
        Challenge storage ch = challenges[challengeId];
        if (ch.status != ChallengeStatus.None) revert ChallengeExists(challengeId);
        ch.challenger = msg.sender;
        ch.round = record.round;
        ch.status = ChallengeStatus.Open;
        ch.marketKey = marketKey;
        ++record.openChallenges;
        emit ChallengeOpened(challengeId, marketKey, msg.sender, caseHash, p.component, p.leafIndex, leafHash);
    }

    /// keccak256(0x1901 || domainSeparator || hashStruct(r)) of a court Ruling (SPEC §16.7).
    function rulingDigest(Ruling calldata r) public view returns (bytes32) {
        return keccak256(abi.encodePacked(hex"1901", domainSeparator(), keccak256(abi.encode(RULING_TYPEHASH, r))));
    }

    /// Anyone relays a Ruling signed by the resolver; it settles the challenge that
    /// `challenger` opened on exactly this leaf with exactly this case, and no other.
    function submitRuling(Ruling calldata r, bytes calldata signature, address challenger) external {
        if (r.workerPct > 100 || r.upheld != (r.workerPct < 50)) revert RulingValue(r.workerPct, r.upheld);
        address recovered = _recover(rulingDigest(r), signature);
        address court = resolver;
        if (recovered == address(0) || recovered != court) revert SignatureInvalid(court, recovered);
        if (block.timestamp >= r.expiresAt || r.issuedAt > r.expiresAt) revert Expired(r.expiresAt, block.timestamp);
        if (block.timestamp < r.issuedAt) revert NotYetValid(r.issuedAt, block.timestamp);
        bytes32 challengeId = challengeIdOf(r.challengeId, r.leafHash, challenger, r.caseHash);
        Challenge storage ch = challenges[challengeId];
        if (ch.status != ChallengeStatus.Open) revert ChallengeNotOpen(challengeId);
        if (ch.marketKey != r.marketKey) revert RulingMismatch(challengeId);
        _settle(challengeId, ch, r.upheld);
        emit RulingAccepted(challengeId, r.caseHash, r.courtRoot, r.workerPct);
    }

    /// Anyone, once the court has let COURT_TIMEOUT pass after the verdict's deadline without
    /// ruling on this open challenge: the challenge lapses (its bond goes back to its
    /// challenger), the verdict's bond goes back to its proposer, and the market is void:
    /// final, with outcome INVALID; its other open challenges become moot (SPEC §14.4).
    function lapse(bytes32 challengeId) external {
        Challenge storage ch = challenges[challengeId];
        if (ch.status != ChallengeStatus.Open) revert ChallengeNotOpen(challengeId);
        Record storage record = records[ch.marketKey];
        if (ch.round != record.round) revert ChallengeMoot(challengeId);
        uint256 due = uint256(record.deadline) + COURT_TIMEOUT;
        if (block.timestamp < due) revert CourtTimeoutPending(uint64(due), block.timestamp);
        ch.status = ChallengeStatus.Lapsed;
        withdrawable[ch.challenger] += challengerBond;
        withdrawable[record.proposer] += proposerBond;
        uint32 round = record.round;
        record.status = VerdictStatus.Void;
        record.round = round + 1;
        record.openChallenges = 0;
        emit ChallengeSettled(challengeId, ch.marketKey, ChallengeStatus.Lapsed);
        emit VerdictVoided(ch.marketKey, challengeId, record.porRoot, round);
    }

    /// Anyone: an open challenge on a verdict another challenge struck is moot; its bond
    /// goes back to its challenger.
    function closeMoot(bytes32 challengeId) external {
        Challenge storage ch = challenges[challengeId];
        if (ch.status != ChallengeStatus.Open) revert ChallengeNotOpen(challengeId);
        if (ch.round == records[ch.marketKey].round) revert ChallengeNotMoot(challengeId);
        _settle(challengeId, ch, false);
    }

    /// Settle an open challenge (SPEC §14.4): moot if its verdict is already struck, else
    /// upheld strikes the verdict (_strike) and rejected pays its bond to the proposer.
    function _settle(bytes32 challengeId, Challenge storage ch, bool upheld) private {
        Record storage record = records[ch.marketKey];
        ChallengeStatus result;
        if (ch.round != record.round) {
            result = ChallengeStatus.Moot;
            withdrawable[ch.challenger] += challengerBond;
        } else if (upheld) {
            result = ChallengeStatus.Upheld;
            withdrawable[ch.challenger] += challengerBond + proposerBond;
            _strike(challengeId, ch.marketKey, record);
        } else {
            result = ChallengeStatus.Rejected;
            --record.openChallenges;
            withdrawable[record.proposer] += challengerBond;
        }
        ch.status = result;
        emit ChallengeSettled(challengeId, ch.marketKey, result);
    }

    // ---- settlement by proof (SPEC §14.4, §14.8) -----------------------------------------
    /// Commit, in an earlier block than `settleByProof`, to keccak256(abi.encode(marketKey,
    /// keccak256(proof), msg.sender)): the proof stays private until it is sent, and a copy
    /// of it taken from the mempool pays its copier nothing (SPEC §14.4). Free, and the
    /// first block stays. For `settleByForms` the proof hash is keccak256(kind || args).
    function commitProof(bytes32 commitment) external {
        if (proofCommits[commitment] == 0) {
            proofCommits[commitment] = block.number;
            emit ProofCommitted(commitment, msg.sender);
        }
    }

    /// Anyone who committed the proof (`commitProof`) in an earlier block: strike a proposed,
    /// not yet final verdict with a one-step proof that PorProofCheck finds won against its
    /// stored por_root (a CitationProof, or a OneStepProof of a step kind the chain
    /// re-executes, SPEC §14.8). No bond: a proof that does not win reverts (ProofNotWon with
    /// its check id), changing nothing. The caller is paid the proposer's bond (`_pay`). The id is
    /// keccak256(abi.encode(marketKey, keccak256(proof))).
    function settleByProof(bytes32 marketKey, bytes calldata proof) external returns (bytes32) {
        Record storage record = _settleable(marketKey);
        (bool won, bytes32 checkId, bytes32 proofRoot, bytes32 proofHash) = PorProofCall.checkProof(proofCheck, proof);
        return _settleWon(marketKey, record, won, checkId, proofRoot, proofHash);
    }

    /// `settleByProof` for a por.FormStepProof/1 sent by ABI (SPEC §14.4): `kind` is
    /// keccak256("form:" || its kind), `args` abi.encode(forms, inclusion), checked by
    /// PorProofCheck's `checkForms`; the proof hash is keccak256(kind || args), committed
    /// and struck with as `settleByProof`'s; the same errors, events and payment. Kind
    /// `outcome` (keccak256("form:outcome")) is the outcome proof (`PorOutcomeCall`).
    function settleByForms(bytes32 marketKey, bytes32 kind, bytes calldata args) external returns (bytes32) {
        Record storage record = _settleable(marketKey);
        (bool won, bytes32 checkId, bytes32 proofRoot, bytes32 proofHash) = kind == PorOutcomeCall.KIND
            ? PorOutcomeCall.check(proofCheck, record, args)
            : PorProofCall.checkForms(proofCheck, kind, args);
        return _settleWon(marketKey, record, won, checkId, proofRoot, proofHash);
    }

    /// The market's record if a proof may strike it: proposed and not yet final.
    function _settleable(bytes32 marketKey) private view returns (Record storage record) {
        record = records[marketKey];
        VerdictStatus status = record.status;
        if (status == VerdictStatus.None) revert UnknownMarket(marketKey);
        if (status != VerdictStatus.Proposed) revert NotChallengeable(marketKey, status);
        // isFinal of a Proposed record, from the slot just read
        uint64 deadline = record.deadline;
        if (record.openChallenges == 0 && block.timestamp >= deadline) revert WindowClosed(deadline, block.timestamp);
    }

    /// The rest of a settle once the checker answered: won, against the stored por_root,
    /// committed by the caller in an earlier block; then strike and pay.
    function _settleWon(
        bytes32 marketKey,
        Record storage record,
        bool won,
        bytes32 checkId,
        bytes32 proofRoot,
        bytes32 proofHash
    ) private returns (bytes32 challengeId) {
        if (!won) revert ProofNotWon(checkId);
        if (proofRoot != record.porRoot) revert ProofPorRoot(proofRoot, record.porRoot);
        bytes32 commitment = keccak256(abi.encode(marketKey, proofHash, msg.sender));
        uint256 committedAt = proofCommits[commitment];
        if (committedAt == 0 || committedAt >= block.number) revert ProofNotCommitted(commitment);
        challengeId = keccak256(abi.encode(marketKey, proofHash));
        _strike(challengeId, marketKey, record);
        emit ProofSettled(challengeId, marketKey, msg.sender, checkId);
        _pay(msg.sender, proposerBond);
    }

    /// Send `amount` wei to `account` now, with only the 2 300 gas stipend (no state change
    /// can follow in a call back, and nothing is returned to copy); an account that refuses
    /// it is credited in `withdrawable` instead (SPEC §14.4). Last in its call.
    function _pay(address account, uint256 amount) private {
        bool sent;
        assembly ("memory-safe") {
            sent := call(0, account, amount, 0, 0, 0, 0)
        }
        if (!sent) withdrawable[account] += amount;
    }

    /// The one place a verdict is struck (an upheld Ruling, `settleByProof` or
    /// `settleByForms`): the market's round moves on and the open challenges of this round
    /// become moot. The struck root stays in the record (`isStruck`); the caller pays.
    function _strike(bytes32 challengeId, bytes32 marketKey, Record storage record) private {
        uint32 round = record.round;
        record.status = VerdictStatus.Struck;
        record.round = round + 1;
        record.openChallenges = 0;
        emit VerdictStruck(marketKey, challengeId, record.porRoot, round);
    }
}
