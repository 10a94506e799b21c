/** The request and response models of POST /invoices/{id}/refunds (its OpenAPI description: docs.ts). */
import { t } from "elysia";
import { Refund } from "../schemas";
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
