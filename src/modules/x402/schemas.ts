/**
 * The x402 headers' decoded shapes (docs/x402.md#headers): what a PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1)
 * header must decode to before anything else is looked at.
 */
import { t } from "elysia";

const Address = t.String({ pattern: "^0x[0-9a-fA-F]{40}$" });
const UInt = t.String({ pattern: "^[0-9]{1,78}$" });

export const ExactEvmPayload = t.Object({
  signature: t.String({ pattern: "^0x[0-9a-fA-F]{2,4096}$" }),
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
