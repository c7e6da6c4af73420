// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {RemeToken} from "./RemeToken.sol";

/// @title Pays REME to members against the merkle root of the current distribution round.
/// @notice Leaves are OpenZeppelin StandardMerkleTree leaves of (address account, uint256
/// cumulativeAmount): keccak256(keccak256(abi.encode(account, cumulativeAmount))). A claim pays
/// what the account's cumulative amount adds to what it has already claimed.
contract RewardsDistributor is Ownable {
    RemeToken public immutable token;

    /// @notice Number of the current round (0 until the first is published).
    uint256 public currentIndex;
    /// @notice Sum of every cumulative amount in the current round; the distributor is funded to it.
    uint256 public totalDistributed;

    /// Only the current round's root is kept: publishing the next one deletes it, so a claim
    /// checks its round and finds its root with one storage read.
    mapping(uint256 index => bytes32 root) private _roots;

    event RootPublished(uint256 indexed index, bytes32 root, uint256 totalDistributed, uint256 funded);
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
    error InvalidProof();
    error RoundOutOfOrder(uint256 given, uint256 expected);
    error EmptyRoot();

    constructor(address operator, RemeToken token_) Ownable(operator) {
        token = token_;
    }

    /// @notice Publishes round `index` (the next one) and tops the distributor up from the operator
    /// to `total`, the round's sum of cumulative amounts, so every proof of the round can be paid.
    function publishRoot(uint256 index, bytes32 root, uint256 total) external onlyOwner {
        uint256 expected = currentIndex + 1;
        if (index != expected) revert RoundOutOfOrder(index, expected);
        if (root == bytes32(0)) revert EmptyRoot();
        uint256 previous = totalDistributed;
        uint256 funded = total > previous ? total - previous : 0;
        delete _roots[index - 1];
        _roots[index] = root;
        currentIndex = index;
        totalDistributed = total;
        if (funded > 0) token.transferFrom(msg.sender, address(this), funded);
        emit RootPublished(index, root, total, funded);
    }

    /// @notice Pays `account` its `cumulativeAmount` minus what it has claimed before. Anyone may
    /// send the claim; the tokens always go to `account`.
    function claim(address account, uint256 cumulativeAmount, bytes32[] calldata proof, uint256 index) external {
        bytes32 root = _roots[index];
        if (root == bytes32(0)) revert WrongRound(index, currentIndex);
        if (!MerkleProof.verifyCalldata(proof, root, _leaf(account, cumulativeAmount))) revert InvalidProof();
        emit Claimed(account, token.payClaim(account, cumulativeAmount));
    }

    /// @notice Pays many members of round `index` in one transaction, as `claim` would pay each of
    /// them, so a relayer can send their claims for them. A claim whose proof fails, or whose account
    /// has nothing left to claim (it claimed meanwhile, or appears twice in the batch), is skipped
    /// with `ClaimSkipped` and the others are paid (`Claimed`, and the token's `Transfer`). A wrong
    /// round reverts the batch (as would a distributor funded below the round's total, which
    /// `publishRoot` prevents). Anyone may send a batch; the tokens always go to each `account`.
    /// Returns what each claim paid, 0 for a skipped one.
    function claimMany(uint256 index, Claim[] calldata claims) external returns (uint256[] memory paid) {
        bytes32 root = _roots[index];
        if (root == bytes32(0)) revert WrongRound(index, currentIndex);
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

    /// @notice Root of the current round; claims must prove against it.
    function merkleRoot() external view returns (bytes32) {
        return _roots[currentIndex];
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
