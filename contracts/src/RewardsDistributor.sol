// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {RemeToken} from "./RemeToken.sol";

/// @title Pays REME to members against the merkle root of the active distribution round.
/// @notice Leaves are OpenZeppelin StandardMerkleTree leaves of (address account, uint256
/// cumulativeAmount): keccak256(keccak256(abi.encode(account, cumulativeAmount))). A claim pays
/// what the account's cumulative amount adds to what it has already claimed.
///
/// Three roles, each with the least it needs (docs/security.md#the-keys):
/// - the treasury (`treasury`, the admin role) holds the supply and is never on the server; it funds
///   rounds by its allowance to this contract, grants and revokes the other roles, and resumes
///   paused claims;
/// - a publisher (the server's key) may only propose the next root, drawing its funding from the
///   treasury's allowance: a round cannot take more than the treasury approved;
/// - a guardian may cancel a proposed root during its review (its funding goes back to the
///   treasury) and pause claims.
/// A proposed root becomes claimable `reviewPeriod` seconds after it was proposed, on its own (no
/// transaction); until then the round before it stays the one members claim from.
contract RewardsDistributor is AccessControl {
    bytes32 public constant PUBLISHER_ROLE = keccak256("PUBLISHER_ROLE");
    bytes32 public constant GUARDIAN_ROLE = keccak256("GUARDIAN_ROLE");

    RemeToken public immutable token;
    /// @notice Where the funding comes from (its allowance) and where a cancelled round's goes back.
    address public immutable treasury;
    /// @notice Seconds from a root's proposal until members can claim against it.
    uint256 public immutable reviewPeriod;

    /// What a claim reads besides its root, in one storage slot: the last round that became active
    /// by a proposal's settling, the newest round proposed, and whether that one is still pending
    /// (awaiting `activeAt`, or past it and so active without a transaction).
    struct State {
        uint64 active;
        uint64 latest;
        uint40 activeAt;
        bool pending;
        bool paused;
    }

    /// One round as proposed: its total, what it drew from the treasury, when it is claimable.
    struct Round {
        uint128 total;
        uint128 funded;
        uint40 activeAt;
        bool cancelled;
    }

    State private _state;
    mapping(uint256 index => bytes32 root) private _roots;
    mapping(uint256 index => Round round) private _rounds;

    event RootProposed(uint256 indexed index, bytes32 root, uint256 totalDistributed, uint256 funded, uint256 activeAt);
    event RootCancelled(uint256 indexed index, address indexed guardian, uint256 refunded);
    event ClaimsPaused(address indexed guardian);
    event ClaimsResumed(address indexed treasury);
    event Claimed(address indexed account, uint256 amount);
    /// @notice A claim of a `claimMany` batch that paid nothing; the rest of the batch went on.
    event ClaimSkipped(address indexed account, SkipReason reason);

    /// Why a batched claim was skipped (the event's uint8): 0, its proof is not one of the current
    /// round's leaves; 1, the account has already claimed up to that cumulative amount.
    enum SkipReason {
        InvalidProof,
        NothingToClaim
    }

    /// One member's claim in a `claimMany` batch: the same three things `claim` takes.
    struct Claim {
        address account;
        uint256 cumulativeAmount;
        bytes32[] proof;
    }

    error WrongRound(uint256 given, uint256 current);
    error InReview(uint256 index, uint256 activeAt);
    error ClaimsArePaused();
    error InvalidProof();
    error RoundOutOfOrder(uint256 given, uint256 expected);
    error RoundPending(uint256 index, uint256 activeAt);
    error NotInReview(uint256 index);
    error EmptyRoot();

    constructor(
        address treasury_,
        address publisher,
        address[] memory guardians,
        RemeToken token_,
        uint256 reviewPeriod_
    ) {
        token = token_;
        treasury = treasury_;
        reviewPeriod = reviewPeriod_;
        _grantRole(DEFAULT_ADMIN_ROLE, treasury_);
        _grantRole(PUBLISHER_ROLE, publisher);
        for (uint256 i; i < guardians.length; ++i) _grantRole(GUARDIAN_ROLE, guardians[i]);
    }

    /// @notice Proposes round `index` (the next one) and draws from the treasury's allowance what
    /// `total`, the round's sum of cumulative amounts, adds to the active round's, so every proof
    /// of the round can be paid. It becomes claimable `reviewPeriod` seconds from now; one round at
    /// a time is in review.
    function proposeRoot(uint256 index, bytes32 root, uint256 total) external onlyRole(PUBLISHER_ROLE) {
        State memory state = _settled();
        if (state.pending) revert RoundPending(state.latest, state.activeAt);
        uint256 expected = uint256(state.latest) + 1;
        if (index != expected) revert RoundOutOfOrder(index, expected);
        if (root == bytes32(0)) revert EmptyRoot();
        uint256 previous = _rounds[state.active].total;
        uint256 funded = total > previous ? total - previous : 0;
        uint40 activeAt = SafeCast.toUint40(block.timestamp + reviewPeriod);
        _roots[index] = root;
        _rounds[index] = Round(SafeCast.toUint128(total), uint128(funded), activeAt, false);
        state.latest = uint64(index);
        if (reviewPeriod == 0) {
            state.active = uint64(index);
        } else {
            state.pending = true;
            state.activeAt = activeAt;
        }
        _state = state;
        if (funded > 0) token.transferFrom(treasury, address(this), funded);
        emit RootProposed(index, root, total, funded, activeAt);
    }

    /// @notice Cancels round `index` while it is in review: it never becomes claimable, and what it
    /// drew goes back to the treasury. The round before it stays the active one.
    function cancelRoot(uint256 index) external onlyRole(GUARDIAN_ROLE) {
        State memory state = _state;
        if (!state.pending || index != state.latest || block.timestamp >= state.activeAt)
            revert NotInReview(index);
        state.pending = false;
        _state = state;
        Round storage round = _rounds[index];
        round.cancelled = true;
        uint256 refunded = round.funded;
        if (refunded > 0) token.transfer(treasury, refunded);
        emit RootCancelled(index, msg.sender, refunded);
    }

    /// @notice Stops every claim until the treasury resumes them.
    function pause() external onlyRole(GUARDIAN_ROLE) {
        _state.paused = true;
        emit ClaimsPaused(msg.sender);
    }

    /// @notice Lets claims be paid again after a guardian's pause.
    function resume() external onlyRole(DEFAULT_ADMIN_ROLE) {
        _state.paused = false;
        emit ClaimsResumed(msg.sender);
    }

    /// @notice Pays `account` its `cumulativeAmount` minus what it has claimed before. Anyone may
    /// send the claim; the tokens always go to `account`.
    function claim(address account, uint256 cumulativeAmount, bytes32[] calldata proof, uint256 index) external {
        bytes32 root = _claimableRoot(index);
        if (!MerkleProof.verifyCalldata(proof, root, _leaf(account, cumulativeAmount))) revert InvalidProof();
        emit Claimed(account, token.payClaim(account, cumulativeAmount));
    }

    /// @notice Pays many members of round `index` in one transaction, as `claim` would pay each of
    /// them, so a relayer can send their claims for them. A claim whose proof fails, or whose account
    /// has nothing left to claim (it claimed meanwhile, or appears twice in the batch), is skipped
    /// with `ClaimSkipped` and the others are paid (`Claimed`, and the token's `Transfer`). A wrong
    /// round, a round in review or paused claims revert the batch (as would a distributor funded
    /// below the round's total, which `proposeRoot` prevents). Anyone may send a batch; the tokens always go to each `account`.
    /// Returns what each claim paid, 0 for a skipped one.
    function claimMany(uint256 index, Claim[] calldata claims) external returns (uint256[] memory paid) {
        bytes32 root = _claimableRoot(index);
        uint256 count = claims.length;
        address[] memory accounts = new address[](count);
        // A claim whose proof fails (or that claims 0) keeps a cumulative amount of 0 here, which
        // the token pays nothing.
        uint256[] memory amounts = new uint256[](count);
        for (uint256 i; i < count; ++i) {
            Claim calldata one = claims[i];
            address account = one.account;
            uint256 cumulativeAmount = one.cumulativeAmount;
            accounts[i] = account;
            if (!MerkleProof.verifyCalldata(one.proof, root, _leaf(account, cumulativeAmount))) {
                emit ClaimSkipped(account, SkipReason.InvalidProof);
            } else if (cumulativeAmount == 0) {
                emit ClaimSkipped(account, SkipReason.NothingToClaim);
            } else {
                amounts[i] = cumulativeAmount;
            }
        }
        paid = token.payClaims(accounts, amounts);
        for (uint256 i; i < count; ++i) {
            uint256 amount = paid[i];
            if (amount != 0) emit Claimed(accounts[i], amount);
            else if (amounts[i] != 0) emit ClaimSkipped(accounts[i], SkipReason.NothingToClaim);
        }
    }

    /// @notice Number of the active round, the one claims prove against (0 until the first is
    /// claimable).
    function currentIndex() public view returns (uint256) {
        return _settled().active;
    }

    /// @notice Root of the active round; claims must prove against it.
    function merkleRoot() external view returns (bytes32) {
        return _roots[currentIndex()];
    }

    /// @notice Sum of every cumulative amount in the active round.
    function totalDistributed() external view returns (uint256) {
        return _rounds[currentIndex()].total;
    }

    /// @notice Number of the newest round proposed, active, in review or cancelled.
    function latestIndex() external view returns (uint256) {
        return _state.latest;
    }

    /// @notice Whether claims are paused.
    function paused() external view returns (bool) {
        return _state.paused;
    }

    /// @notice Round `index` as proposed: its root, total, what it drew from the treasury, when it
    /// is (or was) claimable from, and whether a guardian cancelled it. Zeros for a round never
    /// proposed.
    function roundOf(uint256 index)
        external
        view
        returns (bytes32 root, uint256 total, uint256 funded, uint256 activeAt, bool cancelled)
    {
        Round memory round = _rounds[index];
        return (_roots[index], round.total, round.funded, round.activeAt, round.cancelled);
    }

    /// @notice What a chain follower reads in one call: the active round and its root, the newest
    /// round proposed, when it is (or was) claimable from, whether a guardian cancelled it, and
    /// whether claims are paused. The newest round is in review while `latest > active` and it is
    /// not cancelled.
    function status()
        external
        view
        returns (
            uint256 active,
            bytes32 activeRoot,
            uint256 latest,
            uint256 latestActiveAt,
            bool latestCancelled,
            bool claimsPaused
        )
    {
        State memory state = _settled();
        Round memory newest = _rounds[state.latest];
        return (
            state.active,
            _roots[state.active],
            state.latest,
            newest.activeAt,
            newest.cancelled,
            state.paused
        );
    }

    /// The state with a pending round whose review is over counted as active.
    function _settled() private view returns (State memory state) {
        state = _state;
        if (state.pending && block.timestamp >= state.activeAt) {
            state.active = state.latest;
            state.pending = false;
        }
    }

    /// The root a claim of round `index` proves against: reverts unless `index` is the active
    /// round and claims are not paused.
    function _claimableRoot(uint256 index) private view returns (bytes32 root) {
        // The claim's hot path reads the state's one slot once (gas): `State`'s fields from the
        // lowest bits up, active (64), latest (64), activeAt (40), pending (8), paused (8).
        uint256 word;
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            word := sload(_state.slot)
        }
        if ((word >> 176) & 0xff != 0) revert ClaimsArePaused();
        uint256 active = uint64(word);
        if ((word >> 168) & 0xff != 0) {
            uint256 latest = uint64(word >> 64);
            uint256 activeAt = uint40(word >> 128);
            if (block.timestamp >= activeAt) active = latest;
            else if (index == latest) revert InReview(index, activeAt);
        }
        root = _roots[index];
        if (index != active || root == bytes32(0)) revert WrongRound(index, active);
    }

    /// keccak256(keccak256(abi.encode(account, cumulativeAmount))), hashed in scratch space.
    function _leaf(address account, uint256 cumulativeAmount) private pure returns (bytes32 leaf) {
        // The claim's hot path: two hashes in scratch space instead of abi.encode's memory (gas).
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            mstore(0x00, account)
            mstore(0x20, cumulativeAmount)
            mstore(0x00, keccak256(0x00, 0x40))
            leaf := keccak256(0x00, 0x20)
        }
    }

    /// @notice The cumulative amount `account` has claimed.
    function claimed(address account) external view returns (uint256) {
        return token.claimedOf(account);
    }
}
