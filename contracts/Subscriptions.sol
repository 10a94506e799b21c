// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title Recurring pulls for the billing service, in the style of Coinbase Spend Permissions.
/// @notice A payer approves this contract on the token once, and consents to each subscription by signing an EIP-712
/// `Consent` (EOA or ERC-1271 smart account) that names the payee (a team's settlement wallet), the token, what may be
/// pulled per period and in total until `end`, the company the subscription pays for, and a salt. The service's
/// operator subscribes with that consent (first pull + an ERC-721 minted to the payer, the record of the
/// subscription) and later charges that subscription within the limits the consent set for it alone; the payer or the
/// operator revokes. A consent is used once (per payer and salt), so a signature given for one subscription never
/// opens another, and one subscription's authorization never pays for another's.
/// @dev Every operator call carries a `ref`, the service's idempotency key: a ref is used once, and
/// `operationByRef` finds the operation that used it without a log scan.
contract Subscriptions is ERC721, Ownable, EIP712 {
    using SafeERC20 for IERC20;

    /// What one subscription may pull. `windowStart` and `spentInWindow` belong to the window of the last pull that
    /// moved tokens (`_window` says which window is current); `windowStart` 0: nothing pulled yet.
    struct Authorization {
        uint256 periodAllowance;
        uint256 cap;
        uint256 spent;
        uint256 spentInWindow;
        uint64 periodSeconds;
        uint64 end;
        uint64 windowStart;
    }

    /// What the payer signs for one subscription. `company` is the service's name for the company paid for (the
    /// integrator's company id); `salt` makes each consent unique and is spent when the consent is used or cancelled.
    struct Consent {
        address payer;
        address payee;
        address token;
        uint256 periodAllowance;
        uint64 periodSeconds;
        uint256 cap;
        uint64 end;
        string company;
        bytes32 salt;
    }

    struct Subscription {
        address payer;
        address payee;
        address token;
        uint64 createdAt;
        bool revoked;
    }

    enum Kind {
        None,
        Subscribe,
        Charge,
        Revoke
    }

    struct Operation {
        Kind kind;
        uint256 tokenId;
        uint256 amount;
        uint64 blockNumber;
    }

    bytes32 public constant CONSENT_TYPEHASH = keccak256(
        "Consent(address payer,address payee,address token,uint256 periodAllowance,uint64 periodSeconds,uint256 cap,uint64 end,string company,bytes32 salt)"
    );

    address public operator;
    uint256 public lastTokenId;
    mapping(uint256 tokenId => Subscription) public subscriptions;
    mapping(uint256 tokenId => Authorization) public authorizations;
    mapping(address payer => mapping(bytes32 salt => bool)) public consentUsed;
    mapping(bytes32 ref => Operation) public operationByRef;

    event OperatorChanged(address indexed previousOperator, address indexed newOperator);
    event Authorized(uint256 indexed tokenId, uint256 periodAllowance, uint64 periodSeconds, uint256 cap, uint64 end);
    event ConsentSpent(address indexed payer, bytes32 indexed salt, uint256 indexed tokenId);
    event Subscribed(
        uint256 indexed tokenId, address indexed payer, address payee, address token, uint256 amount, bytes32 indexed ref
    );
    event Charged(uint256 indexed tokenId, uint256 amount, uint64 windowStart, bytes32 indexed ref);
    event Revoked(uint256 indexed tokenId, address indexed by, bytes32 indexed ref);

    error NotOperator(address caller);
    error NotPayer(address caller);
    error NotPayerOrOperator(address caller);
    error InvalidAuthorization();
    error InvalidSignature();
    error ConsentUsed(address payer, bytes32 salt);
    error InvalidRef();
    error AuthorizationExpired(uint64 end);
    error OverPeriodAllowance(uint256 amount, uint256 available);
    error OverCap(uint256 amount, uint256 remaining);
    error SubscriptionRevoked(uint256 tokenId);
    error UnknownSubscription(uint256 tokenId);
    error RefUsed(bytes32 ref);
    error NonTransferable();

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator(msg.sender);
        _;
    }

    constructor(address initialOwner, address initialOperator)
        ERC721("Billing Subscription", "SUB")
        Ownable(initialOwner)
        EIP712("Subscriptions", "1")
    {
        _setOperator(initialOperator);
    }

    function setOperator(address newOperator) external onlyOwner {
        _setOperator(newOperator);
    }

    /// @notice The EIP-712 digest a payer signs for `consent`.
    function consentDigest(Consent calldata consent) public view returns (bytes32) {
        // Split in two words' groups: one abi.encode of all ten values would not fit the stack.
        bytes memory head = abi.encode(CONSENT_TYPEHASH, consent.payer, consent.payee, consent.token, consent.periodAllowance);
        bytes memory tail =
            abi.encode(consent.periodSeconds, consent.cap, consent.end, keccak256(bytes(consent.company)), consent.salt);
        return _hashTypedDataV4(keccak256(bytes.concat(head, tail)));
    }

    /// @notice The first pull of a subscription (may be 0 for a trial), from the payer's signed consent to it: the
    /// consent is spent, the subscription token minted to the payer, and the consent's limits become this
    /// subscription's authorization.
    function subscribe(Consent calldata consent, bytes calldata signature, uint256 amount, bytes32 ref)
        external
        onlyOperator
        returns (uint256 tokenId)
    {
        tokenId = ++lastTokenId;
        _record(ref, Kind.Subscribe, tokenId, amount);
        address payer = consent.payer;
        if (consentUsed[payer][consent.salt]) revert ConsentUsed(payer, consent.salt);
        if (!SignatureChecker.isValidSignatureNow(payer, consentDigest(consent), signature)) revert InvalidSignature();
        consentUsed[payer][consent.salt] = true;
        emit ConsentSpent(payer, consent.salt, tokenId);
        _authorize(tokenId, consent.periodAllowance, consent.periodSeconds, consent.cap, consent.end);
        if (consent.payee == address(0) || consent.token == address(0)) revert InvalidAuthorization();
        subscriptions[tokenId] = Subscription(payer, consent.payee, consent.token, uint64(block.timestamp), false);
        _mint(payer, tokenId); // not _safeMint: no callback into the payer's account in the middle of a pull
        _pull(tokenId, amount);
        emit Subscribed(tokenId, payer, consent.payee, consent.token, amount, ref);
    }

    /// @notice One renewal pull, within this subscription's own authorization.
    function charge(uint256 tokenId, uint256 amount, bytes32 ref) external onlyOperator {
        Subscription storage s = _subscription(tokenId);
        if (s.revoked) revert SubscriptionRevoked(tokenId);
        _record(ref, Kind.Charge, tokenId, amount);
        uint64 windowStart = _pull(tokenId, amount);
        emit Charged(tokenId, amount, windowStart, ref);
    }

    /// @notice The payer renews or raises its own subscription's authorization (after it ran out or ended, or for a
    /// larger plan). What was spent starts again from nothing under the new cap; the window grid stays anchored at the
    /// first paid pull, so renewing never opens a second full pull inside the current window. A revoked subscription
    /// stays revoked.
    function reauthorize(uint256 tokenId, uint256 periodAllowance, uint64 periodSeconds, uint256 cap, uint64 end) external {
        Subscription storage s = _subscription(tokenId);
        if (msg.sender != s.payer) revert NotPayer(msg.sender);
        if (s.revoked) revert SubscriptionRevoked(tokenId);
        _authorize(tokenId, periodAllowance, periodSeconds, cap, end);
    }

    /// @notice Spends one of the caller's salts, so a consent signed with it and not used yet can never be.
    function cancelConsent(bytes32 salt) external {
        consentUsed[msg.sender][salt] = true;
        emit ConsentSpent(msg.sender, salt, 0);
    }

    /// @notice Stops pulls for one subscription; by the operator or the payer (the token's owner). The token stays as
    /// the record. Only the operator's refs are recorded: a payer could otherwise spend a ref the service is about to
    /// use. Revoking a revoked subscription is allowed, so the service's own revoke always lands.
    function revoke(uint256 tokenId, bytes32 ref) external {
        Subscription storage s = _subscription(tokenId);
        if (msg.sender == operator) _record(ref, Kind.Revoke, tokenId, 0);
        else if (msg.sender != s.payer) revert NotPayerOrOperator(msg.sender);
        s.revoked = true;
        emit Revoked(tokenId, msg.sender, ref);
    }

    /// @notice The current window of a subscription's authorization: its start and what was pulled in it (the stored
    /// `windowStart` and `spentInWindow` are those of the window of the last pull, which may have ended). Before the
    /// first paid pull the window starts now with nothing pulled.
    function currentWindow(uint256 tokenId) external view returns (uint64 start, uint256 spentInWindow) {
        return _window(authorizations[tokenId]);
    }

    function _setOperator(address newOperator) private {
        emit OperatorChanged(operator, newOperator);
        operator = newOperator;
    }

    /// Sets the limits of one subscription; the window anchor and what was pulled in the current window are kept.
    function _authorize(uint256 tokenId, uint256 periodAllowance, uint64 periodSeconds, uint256 cap, uint64 end) private {
        if (periodAllowance == 0 || periodSeconds == 0 || end <= block.timestamp) revert InvalidAuthorization();
        Authorization storage a = authorizations[tokenId];
        a.periodAllowance = periodAllowance;
        a.periodSeconds = periodSeconds;
        a.cap = cap;
        a.spent = 0;
        a.end = end;
        emit Authorized(tokenId, periodAllowance, periodSeconds, cap, end);
    }

    function _subscription(uint256 tokenId) private view returns (Subscription storage s) {
        s = subscriptions[tokenId];
        if (s.payer == address(0)) revert UnknownSubscription(tokenId);
    }

    function _record(bytes32 ref, Kind kind, uint256 tokenId, uint256 amount) private {
        if (ref == bytes32(0)) revert InvalidRef();
        if (operationByRef[ref].kind != Kind.None) revert RefUsed(ref);
        operationByRef[ref] = Operation(kind, tokenId, amount, uint64(block.number));
    }

    /// Checks the subscription's limits, spends them, then moves the tokens (state first, external call last).
    function _pull(uint256 tokenId, uint256 amount) private returns (uint64) {
        Authorization storage a = authorizations[tokenId];
        if (block.timestamp >= a.end) revert AuthorizationExpired(a.end);
        (uint64 windowStart, uint256 spentInWindow) = _window(a);
        uint256 available = a.periodAllowance > spentInWindow ? a.periodAllowance - spentInWindow : 0;
        if (amount > available) revert OverPeriodAllowance(amount, available);
        uint256 remaining = a.cap > a.spent ? a.cap - a.spent : 0;
        if (amount > remaining) revert OverCap(amount, remaining);
        // A pull of nothing (a trial's subscribe) spends nothing, so it neither anchors the windows nor moves them.
        if (amount > 0) {
            a.windowStart = windowStart;
            a.spentInWindow = spentInWindow + amount;
            a.spent += amount;
            Subscription storage s = subscriptions[tokenId];
            IERC20(s.token).safeTransferFrom(s.payer, s.payee, amount);
        }
        return windowStart;
    }

    /// The window `block.timestamp` falls in and what was pulled in it. Windows lie on a fixed grid: the first pull
    /// that moves tokens anchors it (the subscription's first paid period), and every later window starts a whole
    /// number of `periodSeconds` after that, whenever pulls happen. A grid that restarted at each late pull (a
    /// dunning retry days after the renewal date) would push every later window later, until a renewal on its
    /// calendar date fell inside the window the late pull opened and was refused.
    function _window(Authorization storage a) private view returns (uint64 start, uint256 spentInWindow) {
        if (a.windowStart == 0) return (uint64(block.timestamp), 0); // not anchored yet: the first pull anchors it
        uint256 elapsed = block.timestamp - a.windowStart;
        if (elapsed < a.periodSeconds) return (a.windowStart, a.spentInWindow);
        return (uint64(block.timestamp - (elapsed % a.periodSeconds)), 0);
    }

    /// Mint only: the owner of a subscription token is always its payer, so "revoke by the token's owner" means
    /// "revoke by the payer" and the token is never a tradeable claim on someone else's wallet.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address) {
        if (_ownerOf(tokenId) != address(0) && to != address(0)) revert NonTransferable();
        return super._update(to, tokenId, auth);
    }
}
