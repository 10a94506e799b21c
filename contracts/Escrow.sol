// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title Escrow of one payment per request, with a challenge window.
/// @notice A payer approves this contract on the token and signs, for each request, an EIP-712 `Consent` (EOA or
/// ERC-1271 smart account) naming the payee, the token, the amount, the request's nonce, when the challenge window
/// ends and until when the consent may be used. The service's operator reserves with that consent: the amount moves
/// from the payer into this contract, held under the nonce. Then:
///  - after the window anyone may `capture` (the payee is paid); within it the operator may `captureEarly` on a
///    proof of delivery it verified off chain, only when the payer's consent named what counts as delivery
///    (`deliveryProvider`, keccak256 of the zkTLS provider's name; zero: no early capture, only the window);
///  - within the window the operator (after checking that the payer asks) or the payer itself may `dispute`;
///  - a disputed reservation is `resolve`d by the operator: refunded to the payer or captured for the payee.
/// A reservation is keyed by its payee and nonce (`keyOf`): each payee (one tenant's settlement wallet) has its own nonce
/// namespace, so no one can take a nonce another payee's payer signed. A key holds one reservation forever, so a
/// consent (which names its payee and nonce) moves money at most once.
contract Escrow is Ownable, EIP712, ReentrancyGuard {
    using SafeERC20 for IERC20;

    enum Status {
        None,
        Authorized,
        Captured,
        Disputed,
        Refunded
    }

    /// `changedAt`: the block of the last change of status, so the service finds that transition's event (and its
    /// transaction) in one block instead of scanning the logs. Ordered to fill five storage slots, not six (payer,
    /// window end and status share one; payee and changedAt another): a reserve writes one slot less.
    struct Reservation {
        address payer;
        uint64 windowEnd;
        Status status;
        address payee;
        uint64 changedAt;
        address token;
        uint256 amount;
        bytes32 deliveryProvider;
    }

    /// What the payer signs for one reservation. `requestNonce` is the service's (and the payer's) name of the request,
    /// shown as text by wallets; the reservation is keyed by its keccak256. `windowEnd`: unix seconds at which the
    /// challenge window ends; `deadline`: the last second at which the consent may be used; `deliveryProvider`:
    /// keccak256 of the zkTLS provider whose proof may capture early (zero: none may).
    struct Consent {
        address payer;
        address payee;
        address token;
        uint256 amount;
        string requestNonce;
        uint64 windowEnd;
        uint64 deadline;
        bytes32 deliveryProvider;
    }

    bytes32 public constant CONSENT_TYPEHASH = keccak256(
        "Consent(address payer,address payee,address token,uint256 amount,string requestNonce,uint64 windowEnd,uint64 deadline,bytes32 deliveryProvider)"
    );

    address public operator;
    mapping(bytes32 key => Reservation) public reservations;

    event OperatorChanged(address indexed previousOperator, address indexed newOperator);
    event Reserved(
        bytes32 indexed key, address indexed payer, address indexed payee, address token, uint256 amount, uint64 windowEnd
    );
    /// `early`: captured within the window on a proof of delivery (`proof` names it); false after the window or on resolution.
    event Captured(bytes32 indexed key, address indexed payee, uint256 amount, bool early, bytes32 proof);
    event Disputed(bytes32 indexed key, address indexed by, bytes32 reasonHash);
    event Refunded(bytes32 indexed key, address indexed payer, uint256 amount);

    error NotOperator(address caller);
    error NotPayerOrOperator(address caller);
    error InvalidConsent();
    error InvalidSignature();
    error ConsentExpired(uint64 deadline);
    error ReservationExists(bytes32 key);
    error NotAuthorized(bytes32 key, Status status);
    error NotDisputed(bytes32 key, Status status);
    error WindowOpen(uint64 windowEnd);
    error WindowClosed(uint64 windowEnd);
    error NoEarlyCapture(bytes32 key);

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator(msg.sender);
        _;
    }

    constructor(address initialOwner, address initialOperator) Ownable(initialOwner) EIP712("Escrow", "1") {
        _setOperator(initialOperator);
    }

    function setOperator(address newOperator) external onlyOwner {
        _setOperator(newOperator);
    }

    /// @notice The key the reservation of a payee's request nonce is stored under.
    function keyOf(address payee, string calldata requestNonce) public pure returns (bytes32) {
        return keccak256(abi.encode(payee, keccak256(bytes(requestNonce))));
    }

    /// @notice The EIP-712 digest a payer signs for `consent`.
    function consentDigest(Consent calldata consent) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    CONSENT_TYPEHASH,
                    consent.payer,
                    consent.payee,
                    consent.token,
                    consent.amount,
                    keccak256(bytes(consent.requestNonce)),
                    consent.windowEnd,
                    consent.deadline,
                    consent.deliveryProvider
                )
            )
        );
    }

    /// @notice Locks `consent.amount` of the payer's tokens under the consent's nonce, from the payer's signature of
    /// this very consent. The consent is spent with it: its nonce never holds another reservation.
    function reserve(Consent calldata consent, bytes calldata signature) external onlyOperator nonReentrant returns (bytes32 key) {
        key = keyOf(consent.payee, consent.requestNonce);
        if (reservations[key].status != Status.None) revert ReservationExists(key);
        if (block.timestamp > consent.deadline) revert ConsentExpired(consent.deadline);
        if (
            consent.amount == 0 || consent.payee == address(0) || consent.token == address(0)
                || consent.windowEnd <= block.timestamp
        ) revert InvalidConsent();
        if (!SignatureChecker.isValidSignatureNow(consent.payer, consentDigest(consent), signature)) revert InvalidSignature();
        reservations[key] = Reservation(
            consent.payer,
            consent.windowEnd,
            Status.Authorized,
            consent.payee,
            uint64(block.number),
            consent.token,
            consent.amount,
            consent.deliveryProvider
        );
        emit Reserved(key, consent.payer, consent.payee, consent.token, consent.amount, consent.windowEnd);
        IERC20(consent.token).safeTransferFrom(consent.payer, address(this), consent.amount);
    }

    /// @notice Pays the payee once the window has ended, by anyone: the payer's protection was the window.
    function capture(bytes32 key) external nonReentrant {
        Reservation storage r = _authorized(key);
        if (block.timestamp < r.windowEnd) revert WindowOpen(r.windowEnd);
        _capture(key, r, false, bytes32(0));
    }

    /// @notice Pays the payee within the window, by the operator, on a proof of delivery it verified (`proof` names it),
    /// from the provider the payer's consent named; a consent that named none is captured only after its window.
    function captureEarly(bytes32 key, bytes32 proof) external onlyOperator nonReentrant {
        Reservation storage r = _authorized(key);
        if (r.deliveryProvider == bytes32(0)) revert NoEarlyCapture(key);
        _capture(key, r, true, proof);
    }

    /// @notice Holds the funds for the operator's resolution; within the window, by the operator or the payer.
    function dispute(bytes32 key, bytes32 reasonHash) external {
        Reservation storage r = _authorized(key);
        if (msg.sender != operator && msg.sender != r.payer) revert NotPayerOrOperator(msg.sender);
        if (block.timestamp >= r.windowEnd) revert WindowClosed(r.windowEnd);
        _move(r, Status.Disputed);
        emit Disputed(key, msg.sender, reasonHash);
    }

    /// @notice The operator's resolution of a dispute: back to the payer (`refund`) or to the payee.
    function resolve(bytes32 key, bool refund) external onlyOperator nonReentrant {
        Reservation storage r = reservations[key];
        if (r.status != Status.Disputed) revert NotDisputed(key, r.status);
        if (!refund) return _capture(key, r, false, bytes32(0));
        _move(r, Status.Refunded);
        emit Refunded(key, r.payer, r.amount);
        IERC20(r.token).safeTransfer(r.payer, r.amount);
    }

    function _authorized(bytes32 key) private view returns (Reservation storage r) {
        r = reservations[key];
        if (r.status != Status.Authorized) revert NotAuthorized(key, r.status);
    }

    function _capture(bytes32 key, Reservation storage r, bool early, bytes32 proof) private {
        _move(r, Status.Captured);
        emit Captured(key, r.payee, r.amount, early, proof);
        IERC20(r.token).safeTransfer(r.payee, r.amount);
    }

    function _move(Reservation storage r, Status status) private {
        r.status = status;
        r.changedAt = uint64(block.number);
    }

    function _setOperator(address newOperator) private {
        if (newOperator == address(0)) revert NotOperator(address(0));
        emit OperatorChanged(operator, newOperator);
        operator = newOperator;
    }
}
