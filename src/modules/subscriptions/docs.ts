/** Route descriptions: the decisions the spec leaves open, as the OpenAPI document shows them. */
export const ACTIVATE_DESCRIPTION = `Activates a subscription in one operation. \`planId\` is the plan's on-chain id (set per network in the dashboard's plans: \`onchainPlanIds\`); when it names plans on several networks, the \`paymentAccount\`'s address family and the credential's environment pick the one. The plan's monthly price applies (its yearly one when it has no monthly price).

**Payer consent (every network).** \`payerConsent\` is the payer's signature of its consent to this one subscription: the team's settlement wallet (payee), the plan's terms and the company paid for, named by your id for it (the \`company.id\` sent here, e.g. \`acme\`, so the payer can sign before the company exists; a company without one by our \`comp_\` id; a new company needs an id). The service writes the terms from what the request resolves to, so a consent for another company, payee, plan, network or payer does not verify. Each consent is used once: its salt or nonce is spent by the activation, across every team; a replay is 409 \`consent_used\`.

EVM: EIP-712 typed data, domain \`{name: "Subscriptions", version: "1", chainId, verifyingContract: <the network's subscription contract>}\`, type \`Consent(address payer,address payee,address token,uint256 periodAllowance,uint64 periodSeconds,uint256 cap,uint64 end,string company,bytes32 salt)\` (payer = \`paymentAccount\`, payee = the team's settlement wallet, token = the plan's token contract); the body sends \`{salt, periodAllowance, periodSeconds, cap, end, signature}\` (amounts as integer strings of token units, \`periodSeconds\` at most 2419200 for a monthly plan, \`end\` unix seconds ahead). Smart accounts sign through ERC-1271 (the account is asked on chain). The contract checks the consent again, spends its salt and gives the subscription its own authorization (\`cap\` is the mandate's \`authorizedAmount\`, \`end\` its \`expiresAt\`). \`paymentAccount\` must have approved the contract on the token.

Solana and Stellar: \`{issuedAt, nonce, signature}\`, base64 of the payer's 64-byte ed25519 signature of this text (UTF-8, lines joined by \`\\n\`, no trailing newline; the price in the plan's currency without trailing zeros, \`month\` or \`year\`; the company as a JSON string):

\`\`\`
Subscription payment authorization
Payer: <paymentAccount>
Payee: <the team's settlement wallet on the network>
Network: <network id>
Token: <token symbol>
Plan: <planId>
Price: 10 USDC per month, before tax and discounts
Company: "acme"
Nonce: <16 to 64 characters A-Z a-z 0-9 _ ->
Issued At: <issuedAt, exactly as sent>
\`\`\`

Solana: signed as wallets' \`signMessage\` signs (the text's bytes). Stellar: SEP-53 (ed25519 over SHA-256 of \`Stellar Signed Message:\\n\` followed by the text). \`issuedAt\` is ISO 8601 in UTC within the last 10 minutes of the service's clock (at most 1 minute ahead). An SPL delegate or Stellar allowance is one per payer account, shared with the service's operator by every team: one account pays one live subscription (409 \`payment_account_in_use\`).

Missing, expired, malformed or not verifying: 400 \`{error, details}\` naming \`body.payerConsent\` (or its field), whose message shows what to sign; checked before the chain is asked or anything written.

Before anything is written, the payer's autopay is read from the chain: none for the team's settlement wallet on that network is 402 \`autopay_not_installed\`. Then, in one transaction, the company is upserted, the coupon redeemed, the subscription reserved (a company with a live subscription: 409 \`subscription_exists\`; an unknown on-chain id 404 \`plan_not_found\`; an archived or unpriced plan 409 \`plan_not_subscribable\`) and the first invoice drafted (price, coupon discount, tax at the team's subscription tax rate). One chain operation pulls the first period, mints the subscription token to the payer and records the period allowance; then the invoice is issued and PAID, the mandate ACTIVE (its id is the answer's \`mandateId\`), the subscription ACTIVE (TRIALING with a trial: nothing is charged until the trial ends) and the company on the plan, with its billing anchor at the subscription's.

The payer's side failing (402 \`insufficient_allowance\`, \`insufficient_balance\`, \`autopay_expired\`, \`charge_failed\`): nothing is active, nothing charged, the coupon released. The chain not answering in time: 503 \`chain_outcome_unknown\` with Retry-After; the operation is completed from the chain by its reference (a retry with the same Idempotency-Key, or the reconciliation job within minutes), never charged twice.

Credentials (spec rule 7): a legacy \`api_\` key, an embed token (its own company only: \`company\` may name it by id and describe nothing, 403 \`wrong_company\` / \`wrong_credential_kind\` otherwise) or a dashboard session with billing:write.`;

export const CANCEL_DESCRIPTION = `Cancels the embed token's own company's subscription: at the current period's end by default (\`atPeriodEnd\`: false cancels now). Canceled now, the company falls back to the team's fallback plan (none: no plan), the mandate is revoked and nothing is refunded for the unused time. No live subscription: 404; canceled already: 409 \`subscription_not_live\`; canceling now while a renewal's pull is in flight: 409 \`operation_in_progress\` with Retry-After (at period end is taken at any time).`;

export const REVOKE_DESCRIPTION = `Revokes a mandate: every pull stops at once (the renewal job refuses a mandate that is not ACTIVE before asking the chain), and on EVM networks the subscription token is revoked on the contract too (a job queued in the same transaction). On Solana and Stellar only the payer can withdraw the delegate or allowance; the service stops pulling. The subscription then goes to dunning at its next renewal. Unknown (or another team's) mandate: 404 \`{error, details}\`; revoked or expired already: 409 \`{error, details}\` with \`details.status\`.

Credentials (the spec does not show them): secret and restricted keys with subscriptions.write, a legacy \`api_\` key, a dashboard session with billing:write, or an embed token for its own company's mandates.`;

export const STATUS_DESCRIPTION = `A mandate: the spec's fields (amounts as integer token-unit strings: \`authorizedAmount\` the lifetime cap, \`remainingAmount\` what is left after every pull recorded) and its subscription, network, token and how it ended. EXPIRED when \`expiresAt\` passed (a job each minute) or when the remaining amount could not cover the next charge.

Credentials (the spec does not show them): secret and restricted keys with subscriptions.read or subscriptions.write (a key that may revoke a mandate may read it), a legacy \`api_\` key, a dashboard session with billing:read, or an embed token for its own company's mandates.`;
