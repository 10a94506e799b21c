// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title Recurring pulls for the billing service, in the style of Coinbase Spend Permissions.
/// @notice A payer authorizes one payee (a team's settlement wallet) to receive at most `periodAllowance` of one
/// token per period window and `cap` in total until `end`, and approves this contract on the token. The service's
/// operator then subscribes (first pull + an ERC-721 minted to the payer, the record of the subscription) and
/// charges within those limits; the payer or the operator revokes. Because the authorization names the payee, no
/// other team can pull from a wallet that approved this contract.
/// @dev Every operator call carries a `ref`, the service's idempotency key: a ref is used once, and
/// `operationByRef` finds the operation that used it without a log scan.
contract Subscriptions is ERC721, Ownable, EIP712 {
    using SafeERC20 for IERC20;

    /// What a payer lets one payee pull in one token. The period window and the lifetime spend live here, not on a
    /// subscription, so minting more subscriptions never multiplies what a payer can be charged per period.
    /// `windowStart` and `spentInWindow` belong to the window of the last pull that moved tokens (`_window` says
    /// which window is current); `windowStart` 0: nothing pulled yet.
    struct Authorization {
        uint256 periodAllowance;
        uint256 cap;
        uint256 spent;
        uint256 spentInWindow;
        uint64 periodSeconds;
        uint64 end;
        uint64 windowStart;
    }

    /// The terms a payer signs for `authorizeWithSignature` (with its own address and the current nonce).
    struct Terms {
        address payee;
        address token;
        uint256 periodAllowance;
        uint64 periodSeconds;
        uint256 cap;
        uint64 end;
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

    bytes32 public constant AUTHORIZATION_TYPEHASH = keccak256(
        "Authorization(address payer,address payee,address token,uint256 periodAllowance,uint64 periodSeconds,uint256 cap,uint64 end,uint256 nonce)"
    );

    address public operator;
    uint256 public lastTokenId;
    mapping(address payer => mapping(address payee => mapping(address token => Authorization))) public authorizations;
    /// Bumped by every authorize, deauthorize and signed authorization: a signature is good for one install, and any
    /// later change by the payer voids signatures not yet installed. Kept apart so deleting an authorization never
    /// resets it.
    mapping(address payer => mapping(address payee => mapping(address token => uint256))) public nonces;
    mapping(uint256 tokenId => Subscription) public subscriptions;
    mapping(bytes32 ref => Operation) public operationByRef;

    event OperatorChanged(address indexed previousOperator, address indexed newOperator);
    event Authorized(
        address indexed payer,
        address indexed payee,
        address indexed token,
        uint256 periodAllowance,
        uint64 periodSeconds,
        uint256 cap,
        uint64 end,
        uint256 nonce
    );
    event Deauthorized(address indexed payer, address indexed payee, address indexed token);
    event Subscribed(
        uint256 indexed tokenId, address indexed payer, address payee, address token, uint256 amount, bytes32 indexed ref
    );
    event Charged(uint256 indexed tokenId, uint256 amount, uint64 windowStart, bytes32 indexed ref);
    event Revoked(uint256 indexed tokenId, address indexed by, bytes32 indexed ref);

    error NotOperator(address caller);
    error NotPayerOrOperator(address caller);
    error InvalidAuthorization();
    error InvalidSignature();
    error InvalidRef();
    error NoAuthorization(address payer, address payee, address token);
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

    /// @notice Installs (or overwrites) what `payee` may pull from the caller in `token`. A zero allowance removes it.
    /// A new authorization starts with nothing spent: its cap and window are its own.
    function authorize(
        address payee,
        address token,
        uint256 periodAllowance,
        uint64 periodSeconds,
        uint256 cap,
        uint64 end
    ) external {
        _authorize(msg.sender, Terms(payee, token, periodAllowance, periodSeconds, cap, end));
    }

    /// @notice Installs a payer's authorization from its EIP-712 signature (EOA or ERC-1271 smart account), so the
    /// operator can send it without the payer paying gas.
    function authorizeWithSignature(address payer, Terms calldata terms, bytes calldata signature) external {
        uint256 nonce = nonces[payer][terms.payee][terms.token];
        // A static struct ABI-encodes as its fields in place: this is the flat encoding of the type above.
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(AUTHORIZATION_TYPEHASH, payer, terms, nonce)));
        if (!SignatureChecker.isValidSignatureNow(payer, digest, signature)) revert InvalidSignature();
        _authorize(payer, terms);
    }

    function deauthorize(address payee, address token) external {
        nonces[msg.sender][payee][token]++;
        delete authorizations[msg.sender][payee][token];
        emit Deauthorized(msg.sender, payee, token);
    }

    /// @notice The first pull of a subscription (may be 0 for a trial): mints the subscription token to the payer.
    function subscribe(address payer, address payee, address token, uint256 amount, bytes32 ref)
        external
        onlyOperator
        returns (uint256 tokenId)
    {
        tokenId = ++lastTokenId;
        _record(ref, Kind.Subscribe, tokenId, amount);
        subscriptions[tokenId] = Subscription(payer, payee, token, uint64(block.timestamp), false);
        _mint(payer, tokenId); // not _safeMint: no callback into the payer's account in the middle of a pull
        _pull(payer, payee, token, amount);
        emit Subscribed(tokenId, payer, payee, token, amount, ref);
    }

    /// @notice One renewal pull, within the payer's authorization for this subscription's payee and token.
    function charge(uint256 tokenId, uint256 amount, bytes32 ref) external onlyOperator {
        Subscription storage s = _subscription(tokenId);
        if (s.revoked) revert SubscriptionRevoked(tokenId);
        _record(ref, Kind.Charge, tokenId, amount);
        uint64 windowStart = _pull(s.payer, s.payee, s.token, amount);
        emit Charged(tokenId, amount, windowStart, ref);
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

    /// @notice The current window of what `payer` authorized `payee` to pull in `token`: its start and what was
    /// pulled in it (the stored `windowStart` and `spentInWindow` are those of the window of the last pull, which
    /// may have ended). Before the first pull, or without an authorization, the window starts now with nothing
    /// pulled.
    function currentWindow(address payer, address payee, address token)
        external
        view
        returns (uint64 start, uint256 spentInWindow)
    {
        return _window(authorizations[payer][payee][token]);
    }

    function _setOperator(address newOperator) private {
        emit OperatorChanged(operator, newOperator);
        operator = newOperator;
    }

    function _authorize(address payer, Terms memory t) private {
        uint256 nonce = nonces[payer][t.payee][t.token]++;
        if (t.periodAllowance == 0) {
            delete authorizations[payer][t.payee][t.token];
            emit Deauthorized(payer, t.payee, t.token);
            return;
        }
        if (t.payee == address(0) || t.token == address(0) || t.periodSeconds == 0 || t.end <= block.timestamp) {
            revert InvalidAuthorization();
        }
        authorizations[payer][t.payee][t.token] = Authorization(t.periodAllowance, t.cap, 0, 0, t.periodSeconds, t.end, 0);
        emit Authorized(payer, t.payee, t.token, t.periodAllowance, t.periodSeconds, t.cap, t.end, nonce);
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

    /// Checks the payer's limits, spends them, then moves the tokens (state first, external call last).
    function _pull(address payer, address payee, address token, uint256 amount) private returns (uint64) {
        Authorization storage a = authorizations[payer][payee][token];
        if (a.periodAllowance == 0) revert NoAuthorization(payer, payee, token);
        if (block.timestamp >= a.end) revert AuthorizationExpired(a.end);
        (uint64 windowStart, uint256 spentInWindow) = _window(a);
        uint256 available = a.periodAllowance - spentInWindow;
        if (amount > available) revert OverPeriodAllowance(amount, available);
        uint256 remaining = a.cap > a.spent ? a.cap - a.spent : 0;
        if (amount > remaining) revert OverCap(amount, remaining);
        // A pull of nothing (a trial's subscribe) spends nothing, so it neither anchors the windows nor moves them.
        if (amount > 0) {
            a.windowStart = windowStart;
            a.spentInWindow = spentInWindow + amount;
            a.spent += amount;
            IERC20(token).safeTransferFrom(payer, payee, amount);
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
