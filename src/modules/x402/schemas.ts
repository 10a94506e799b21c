/**
 * The x402 headers' decoded shapes (docs/x402.md#headers): what a PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1)
 * header must decode to before anything else is looked at.
 */
import { t, type Static } from "elysia";
import { PageQuery } from "../../http/pagination";

const Address = t.String({ pattern: "^0x[0-9a-fA-F]{40}$" });
/** A uint256 as a decimal string: up to 78 digits here, and at most 2^256 - 1 (compute.ts checks the bound). */
const UInt = t.String({ pattern: "^[0-9]{1,78}$" });

export const ExactEvmPayload = t.Object({
  // Whole bytes, at least r, s and v (65): an EOA's signature, or a longer one a contract wallet (ERC-1271) accepts.
  signature: t.String({ pattern: "^0x(?:[0-9a-fA-F]{2}){65,2048}$" }),
  authorization: t.Object({
    from: Address,
    to: Address,
    value: UInt,
    validAfter: UInt,
    validBefore: UInt,
    nonce: t.String({ pattern: "^0x[0-9a-fA-F]{64}$" }),
  }),
});

export const PaymentPayloadV2 = t.Object({
  x402Version: t.Literal(2),
  resource: t.Optional(t.Object({ url: t.String() }, { additionalProperties: true })),
  accepted: t.Object(
    {
      scheme: t.String({ maxLength: 64 }),
      network: t.String({ maxLength: 128 }),
      asset: t.String({ maxLength: 128 }),
      amount: UInt,
      payTo: t.String({ maxLength: 128 }),
      maxTimeoutSeconds: t.Integer(),
      extra: t.Optional(t.Record(t.String(), t.Unknown())),
    },
    { additionalProperties: true },
  ),
  payload: ExactEvmPayload,
  extensions: t.Optional(t.Record(t.String(), t.Unknown())),
});

export const PaymentPayloadV1 = t.Object({
  x402Version: t.Literal(1),
  scheme: t.String({ maxLength: 64 }),
  network: t.String({ maxLength: 128 }),
  payload: ExactEvmPayload,
});

const Status = (description?: string) =>
  t.Union([t.Literal("claimed"), t.Literal("settled"), t.Literal("failed")], description ? { description } : {});

/** An x402 payment as the dashboard lists it and `payment.confirmed` sends it. */
export const X402Payment = t.Object(
  {
    id: t.String({ description: "x4p_…" }),
    status: Status("claimed: being settled, or its outcome not known yet (docs/x402.md#idempotency); settled; failed"),
    companyId: t.String({ description: "The company the pack's credits went to" }),
    creditPackId: t.String(),
    credits: t.String({ description: "Credits granted (integer string)" }),
    network: t.String({ description: "The registry's network id" }),
    asset: t.String({ description: "The token contract (lowercase)" }),
    payer: t.String({ description: "The authorization's `from` (lowercase)" }),
    payTo: t.String({ description: "The team's settlement wallet it paid" }),
    amount: t.String({ description: "Token units (integer string)" }),
    txHash: t.Union([t.String(), t.Null()], { description: "The transaction holding the Transfer that paid it" }),
    creditGrantId: t.Union([t.String(), t.Null()]),
    failureReason: t.Union([t.String(), t.Null()], { description: "The x402 error code a failed payment ended with" }),
    x402Version: t.Integer(),
    claimedAt: t.String({ format: "date-time" }),
    settledAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
  },
  { $id: "X402Payment" },
);

export const X402PaymentListQuery = t.Object({
  ...PageQuery,
  status: t.Optional(Status("Only payments in this status")),
});
export type X402Payment = Static<typeof X402Payment>;
