/** The request and response models of POST /invoices/{id}/refunds, and its OpenAPI description (the spec's "not shown" decided). */
import { t } from "elysia";
import { Refund } from "../schemas";
import { NOT_FINAL_RETRY_AFTER_SECONDS } from "./refund";
import { REASON_EXPECTED, REASON_MAX } from "./terms";

export const RefundCreate = t.Object(
  {
    amount: t.Union([t.String({ minLength: 1, maxLength: 64 }), t.Number()], {
      "x-expected": 'Expected a decimal string with at most 6 fractional digits ("12.50"), or a JSON number a double holds exactly',
      description:
        'Decimal amount of the invoice currency, e.g. 12.5 = 12.500000 USDC: a JSON number written exactly (at most 15 significant digits) or a decimal string ("12.5", "12.500000"); at most 6 fractional digits, greater than 0, never rounded',
    }),
    reason: t.String({
      minLength: 1,
      maxLength: REASON_MAX,
      pattern: "\\S",
      "x-expected": REASON_EXPECTED,
      description: "Why the money was sent back; becomes the refund's credit note reason",
    }),
    refundProof: t.Object(
      {
        txHash: t.String({
          minLength: 1,
          maxLength: 128,
          description: "The refund transaction on the invoice's network (EVM 0x + 64 hex, Stellar 64 hex, Solana base58 signature)",
        }),
        recipientWallet: t.String({
          minLength: 1,
          maxLength: 128,
          description: "The customer's wallet the refund was sent to, an address of the invoice network's family",
        }),
      },
      { description: "The on-chain transaction that sent the refund; verified before anything is recorded" },
    ),
  },
  {
    $id: "RefundCreate",
    examples: [
      {
        amount: "12.5",
        reason: "Duplicate charge",
        refundProof: {
          txHash: "0x9f3c2a1b5d7e4f608192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8",
          recipientWallet: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
        },
      },
    ],
  },
);

export const RefundCreated = t.Object(
  { refund: Refund },
  {
    examples: [
      {
        refund: {
          id: "re_01JH5Q8T0M3V9X2Y4Z6A8B0C1R",
          invoiceId: "in_01JH5Q8T0M3V9X2Y4Z6A8B0C1D",
          creditNoteId: "cn_01JH5Q8T0M3V9X2Y4Z6A8B0C1E",
          amount: "12.500000",
          currency: "USDC",
          tokenAmount: "12500000",
          reason: "Duplicate charge",
          network: "base",
          txHash: "0x9f3c2a1b5d7e4f608192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8",
          senderWallet: "0x52908400098527886E0F7030069857D2E4169EE7",
          recipientWallet: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
          createdAt: "2026-01-15T09:30:00.000Z",
        },
      },
    ],
  },
);

export const REFUND_DESCRIPTION = `Records a refund of a paid invoice, once the refund's own on-chain transaction is proven. Send the money first (from the team's settlement wallet on the invoice's network to the customer), then this.
\`amount\` is a decimal amount of the invoice currency: 12.5 = 12.500000 USDC (a JSON number written exactly, or a decimal string; at most 6 fractional digits; > 0; exponents, signs and extra digits are refused, never rounded).
Verified through the chain workers before anything is recorded, on the invoice's network: a confirmed transfer of the invoice currency's token (its contract, mint or asset) to \`refundProof.recipientWallet\` of at least \`amount\` (a native EVM coin such as ETH: exactly \`amount\`, as for payments, since a transaction's value cannot tell an overpayment from value sent for something else; more is \`amount_too_low\` too), paid out of the own balance of the team's settlement wallet on that network (on Solana a transfer the wallet only signed, as an SPL delegate of someone else's tokens or with the tokens handed back within the transaction, does not count), in a transaction that never proved a payment or another refund (for any team).
Then the refund and its credit note (refundAmount = amount, its own CN- number) are recorded in one transaction with the \`refund.created\` and \`credit_note.created\` webhooks; the invoice's amountRefunded grows. Concurrent refunds of one invoice queue on its lock: together they never exceed amountPaid (less what is already refunded, and never past total - amountCredited).
Credentials: a secret or restricted key with \`invoices.write\`, or a dashboard session with billing:write; publishable keys, embed tokens and legacy keys are refused (403).
Answers:
- 201 \`{refund}\`. Retrying with the same \`Idempotency-Key\` and body replays it (one refund recorded); the same key with another body is 422 \`idempotency_key_reused\`.
- 400 \`{error, details}\`: \`body.amount\`, \`body.reason\`, \`body.refundProof.txHash\` (not shaped as the network's hashes), \`body.refundProof.recipientWallet\` (not an address of the network's family, or the settlement wallet itself).
- 404 \`{error}\`: no such invoice for the team and environment.
- 409 \`{error, code}\`: \`invoice_not_refundable\` (draft, void or nothing paid; no settlement wallet on its network), \`refund_exceeds_paid\`, \`refund_replayed\` (the hash already proved a payment or a refund), \`refund_not_final\` (not final yet, not seen yet, or the chain endpoint did not answer: nothing recorded; retry after \`Retry-After\` = ${NOT_FINAL_RETRY_AFTER_SECONDS} s, with the same Idempotency-Key if you like: this answer is not kept).
- 422 \`{error, code}\`: the transaction does not prove the refund: \`transaction_failed\` (reverted), \`wrong_token\`, \`wrong_recipient\`, \`amount_too_low\` (less, or for a native EVM coin not exactly the amount), \`wrong_sender\` (not paid out of the team's settlement wallet's own balance), \`invalid_transaction\`.`;
