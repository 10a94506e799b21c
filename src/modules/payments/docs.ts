/** OpenAPI descriptions of the payment routes: the decisions the spec leaves "not shown". */
export const DESCRIPTIONS = {
  createLink: `The terms of a payment. \`amount\` is an integer in the accepted token's smallest units, as a string (USDC has 6 decimals: "25000000" is 25 USDC).
\`network\` is a chain registry id; test credentials (\`_test_\`, development) may only use test networks and live ones only main networks (400 otherwise).
\`recipientWallet\` is checked for the network's family, checksum included.
\`purpose\`: PAYMENT (default; nothing else happens when paid), ADDON (needs \`addOnPlanId\`; the paid session adds that plan to the company's add-ons), CREDITS (needs \`creditAmount\`; the paid session grants that many credits).
ADDON and CREDITS need a company, named here or when a session opens. \`ttlSeconds\` (60 to 604800, default 1800) is how long each session stays open for payment.
Needs \`payments.write\` (or a legacy key, or a dashboard session with billing:write).`,
  openSession: `Opens a session with a copy of the link's terms and its own deadline (\`expiresAt\` = now + the link's ttlSeconds).
On Stellar networks the session id is the \`memo\` the payment must carry (text memo).`,
  submitPayment: `The customer pays on-chain (the session's amount of its token to its recipientWallet on its network), then the hash is submitted here.
Verification runs in the chain worker pool:
- 200 \`{checkoutSession}\` PAID: proven and final. The payment is recorded, what it buys is granted (ADDON: add-on activated; CREDITS: credits granted) and its PAID invoice is issued (source \`checkout_session\`: one line, the session's amount rounded down to the micro-unit for tokens finer than that; the payer's wallet as customer; \`invoice.issued\` and \`invoice.paid\` sent), all in the same transaction. Submitting the same hash again answers the same.
- 202 \`{checkoutSession, verification: {reason, detail}}\` CONFIRMING: not provable yet (\`not_final\`, \`not_found\`, \`rpc_unavailable\`, \`timeout\`, \`worker_crashed\`). The service checks again every few seconds; poll GET /checkout-sessions/{id}. A payment submitted before the deadline is honoured when it becomes final after it; one still unproven an hour after the deadline expires the session.
- 422 \`{error, code}\`: the transaction does not prove the payment and the session is FAILED with the reason: \`transaction_failed\` (reverted), \`wrong_token\` (e.g. another contract emitting a Transfer event), \`wrong_recipient\`, \`amount_too_low\`, \`memo_mismatch\`, \`invalid_transaction\`, \`wrong_payer\` (the session names a customerWallet and the payment came from another).
- 409 \`{error, code: "payment_replayed"}\`: the transaction already paid for a checkout session or an invoice (one transaction proves one payment, across every team); a session that was waiting on it is PENDING again.
- 409 \`{error, code: "checkout_session_closed"}\`: the session is PAID (with another transaction), EXPIRED or FAILED.
- 400 \`{error, details}\`: the hash is not shaped as the network's hashes are.`,
  sessionStates: `Statuses: PENDING (open, nothing submitted) -> CONFIRMING (a transaction submitted, not yet proven final) -> PAID; PENDING -> EXPIRED when expiresAt passes; CONFIRMING -> FAILED (the transaction does not prove the payment; failureReason says why) or EXPIRED (still unproven an hour after expiresAt).
Purposes: PAYMENT, ADDON, CREDITS. \`amount\` is in the token's smallest units (\`decimals\`); \`acceptedToken\` is the token contract (EVM), mint (Solana), CODE:ISSUER (Stellar) or the symbol of a native coin; \`chainId\` is null off EVM.
Needs a legacy \`api_\` key or a dashboard session (billing:read), as the spec's rule 7 says.`,
};
