// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

/// @title REME, the community's reward token (ERC-20, 18 decimals).
/// @notice Each account's balance and the cumulative amount it has claimed from the rewards
/// distributor share one storage slot, so a member's first claim writes one new slot instead of
/// two (docs/decisions/0007). Only the distributor can record a claim.
contract RemeToken is ERC20 {
    struct Account {
        uint128 balance;
        uint128 claimed;
    }

    /// @notice The rewards distributor, the only caller of `payClaim`.
    address public immutable distributor;

    mapping(address account => Account) private _accounts;
    uint256 private _supply;

    error NotDistributor(address caller);
    error NothingToClaim(address account, uint256 cumulativeAmount, uint256 claimed);

    constructor(address treasury, uint256 supply, address distributor_) ERC20("REME Token", "REME") {
        distributor = distributor_;
        _mint(treasury, supply);
    }

    function totalSupply() public view override returns (uint256) {
        return _supply;
    }

    function balanceOf(address account) public view override returns (uint256) {
        return _accounts[account].balance;
    }

    /// @notice The cumulative amount `account` has claimed from the distributor.
    function claimedOf(address account) external view returns (uint256) {
        return _accounts[account].claimed;
    }

    /// @notice Moves `cumulativeAmount - claimedOf(account)` from the distributor to `account` and
    /// records `cumulativeAmount` as claimed. Returns the amount paid.
    function payClaim(address account, uint256 cumulativeAmount) external returns (uint256 paid) {
        if (msg.sender != distributor) revert NotDistributor(msg.sender);
        uint128 cumulative = SafeCast.toUint128(cumulativeAmount);
        Account memory to = _accounts[account];
        // The distributor holds the pool and never claims from itself.
        if (account == msg.sender || cumulative <= to.claimed) revert NothingToClaim(account, cumulativeAmount, to.claimed);
        uint128 due;
        unchecked {
            due = cumulative - to.claimed;
        }
        _debit(msg.sender, due);
        unchecked {
            // Cannot overflow: every balance is at most the total supply, which fits in uint128.
            _accounts[account] = Account(to.balance + due, cumulative);
        }
        emit Transfer(msg.sender, account, due);
        return due;
    }

    /// @notice The batch form of `payClaim` (docs/decisions/0014): for each i, moves
    /// `cumulativeAmounts[i] - claimedOf(accounts[i])` from the distributor to `accounts[i]` and
    /// records the cumulative amount, debiting the distributor once for the whole batch. An entry
    /// with nothing left to pay (cumulative amount 0 or not above what is claimed, or the
    /// distributor itself) is left alone and pays 0 instead of reverting. Returns what each paid.
    function payClaims(address[] calldata accounts, uint256[] calldata cumulativeAmounts)
        external
        returns (uint256[] memory paid)
    {
        if (msg.sender != distributor) revert NotDistributor(msg.sender);
        uint256 count = accounts.length;
        paid = new uint256[](count);
        uint256 total;
        for (uint256 i; i < count; ++i) {
            uint128 cumulative = SafeCast.toUint128(cumulativeAmounts[i]);
            if (cumulative == 0) continue;
            address account = accounts[i];
            Account memory to = _accounts[account];
            if (account == msg.sender || cumulative <= to.claimed) continue;
            uint128 due;
            unchecked {
                due = cumulative - to.claimed;
                // As in payClaim, every balance is at most the total supply, which fits in uint128;
                // the sum of uint128 dues cannot overflow uint256, and _debit checks it below.
                _accounts[account] = Account(to.balance + due, cumulative);
                total += due;
            }
            paid[i] = due;
            emit Transfer(msg.sender, account, due);
        }
        _debit(msg.sender, total);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0)) {
            _supply += value;
            SafeCast.toUint128(_supply);
        } else {
            _debit(from, value);
        }
        unchecked {
            if (to == address(0)) {
                _supply -= value;
            } else {
                _accounts[to].balance += uint128(value);
            }
        }
        emit Transfer(from, to, value);
    }

    function _debit(address from, uint256 value) private {
        uint128 balance = _accounts[from].balance;
        if (balance < value) revert ERC20InsufficientBalance(from, balance, value);
        unchecked {
            _accounts[from].balance = balance - uint128(value);
        }
    }
}
