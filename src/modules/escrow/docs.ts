/** The OpenAPI descriptions of the escrow routes (docs/escrow.md). */
export const CREATE_DESCRIPTION = `Holds a payment in the network's escrow contract under the request's nonce, from the payer's signed consent (docs/escrow.md#creating-a-reservation).

The payer signs the EIP-712 typed data \`Consent(address payer,address payee,address token,uint256 amount,string requestNonce,uint64 windowEnd,uint64 deadline)\`, domain {name "Escrow", version "1", chainId, verifyingContract: the network's escrow contract}. The payee is the team's settlement wallet on the network and the token the registry's contract for \`token\`: a consent naming anything else does not verify. The payer approved the escrow contract on the token beforehand; the contract pulls exactly \`amount\`, once: a nonce holds one reservation forever.

Checked before anything is written or sent, each a 4xx \`{error, details}\` with \`details.reason\`: 409 \`escrow_not_configured\` (unknown_network, no_escrow_contract, no_settlement_wallet), 400 \`escrow_consent_refused\` (unknown_token, consent_expired: \`deadline\` passed, window_invalid: \`windowEnd\` not ahead, bad_signature: not the payer's signature, EOA or ERC-1271, of exactly these terms), 404 for an unknown company, 409 \`escrow_nonce_used\`. The chain's refusals: 402 \`escrow_payment_refused\` (insufficient_balance, insufficient_allowance), nothing moved. 503 \`chain_outcome_unknown\`: retry with the same Idempotency-Key (the reservation is read from the chain first, never reserved twice).

Answers 201 with the reservation, \`authorized\`, its \`transactions.authorize\` the reserve transaction; the \`escrow.authorized\` webhook is sent.`;

export const LIST_DESCRIPTION =
  "The environment's escrow reservations, newest first. Filters: `status`, `companyId` (our comp_ id or your id for the company).";

export const GET_DESCRIPTION = "One escrow reservation of the environment by its esc_ id; 404 for another team's or environment's.";

export const RESOLVE_DESCRIPTION = `The operator's resolution of a disputed reservation (docs/escrow.md#resolving-a-dispute): \`refunded\` sends the held amount back to the payer, \`captured\` to the payee. Dashboard sessions with billing:write (owner and admin hold it): a person of the team decides, audited; no API key may. Sent on chain first, then recorded, with the \`escrow.refunded\` or \`escrow.captured\` webhook and an audit entry \`escrow.resolve\`. 409 \`escrow_refused\` with reason not_disputed (details.status) or operation_in_progress.`;

export const DISPUTE_DESCRIPTION = `Files the payer's dispute of a reservation within its challenge window (docs/escrow.md#disputes). Public: no server key. The caller proves to be the payer in one of two ways:

- \`signature\` with \`network\`: the payer wallet's EIP-191 (personal_sign) signature of exactly these four lines joined by "\\n": \`Dispute escrow reservation\`, \`Network: <network>\`, \`Request nonce: <requestNonce>\`, \`Reason: <failureReason>\`;
- \`Authorization: Bearer <embed token>\` of the company the reservation was created for (\`company.id\` at creation).

Refusals, \`{error, details}\` with \`details.reason\`: 400 for a malformed body (first); 403 \`escrow_not_payer\` (not_payer) when the proof is not the payer's, which is also the answer for a nonce no reservation holds; 409 \`escrow_refused\` with window_closed (the window ended), not_disputable (already disputed, captured or refunded; details.status), operation_in_progress or ambiguous_nonce. The dispute is sent on chain (the operator's \`dispute\`) before it is recorded; \`escrow.disputed\` is sent. Rate-limited per client address (500 per 60 s), as the credential's window of other routes.`;
