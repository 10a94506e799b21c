/**
 * Credit pack shapes: a pack sells `credits` for a price per accepted network and token (an EIP-3009 token of an
 * EVM network: x402's `exact` scheme pays with its transferWithAuthorization). docs/x402.md#credit-packs.
 */
import { t, type Static } from "elysia";
import { NonBlankText } from "../../../http/non-blank-text";

export const PACK_KEY = /^[A-Za-z0-9_-]{1,64}$/;
/** A token amount: a positive integer of at most 78 digits (edit.ts also bounds it to a uint256, 2^256 - 1). */
export const TOKEN_AMOUNT = /^[1-9][0-9]{0,77}$/;
/** Credits: a positive integer that fits the credit grants' bigint. */
export const CREDITS = /^[1-9][0-9]{0,17}$/;

const PriceInput = t.Object({
  network: t.String({ minLength: 1, maxLength: 64, description: "A network of the chain registry this environment settles on (EVM)" }),
  token: t.String({
    minLength: 1,
    maxLength: 64,
    description: "The token's symbol or contract address; it must take EIP-3009 authorizations (its EIP-712 domain is in the registry)",
  }),
  amount: t.String({
    pattern: TOKEN_AMOUNT.source,
    description: "The price in the token's smallest units (integer string, at most 2^256 - 1)",
    examples: ["1000000"],
  }),
});

export const CreditPackCreate = t.Object(
  {
    key: t.String({ pattern: PACK_KEY.source, description: "Unique per team and environment in any case; A-Z a-z 0-9 _ - (1-64)" }),
    name: t.Optional(NonBlankText("Default: the key")),
    credits: t.String({ pattern: CREDITS.source, description: "Credits the pack grants (integer string)", examples: ["1000"] }),
    prices: t.Array(PriceInput, { minItems: 1, maxItems: 20, description: "One price per accepted network and token; each pair once" }),
    offerOnPaymentRequired: t.Optional(
      t.Boolean({ description: "The pack an insufficient-credit 402 offers as x402 terms; at most one live pack per environment (409 otherwise)" }),
    ),
    enabled: t.Optional(t.Boolean({ description: "Default true; a disabled pack is never offered" })),
  },
  {
    $id: "CreditPackCreate",
    examples: [
      { key: "starter", credits: "1000", prices: [{ network: "base-sepolia", token: "USDC", amount: "1000000" }], offerOnPaymentRequired: true },
    ],
  },
);
export type CreditPackCreate = Static<typeof CreditPackCreate>;

export const CreditPack = t.Object(
  {
    id: t.String({ description: "cpk_…" }),
    key: t.String(),
    name: t.String(),
    credits: t.String({ description: "Integer string" }),
    prices: t.Array(
      t.Object({
        network: t.String(),
        token: t.String({ description: "The token's symbol" }),
        asset: t.String({ description: "The token's contract address (x402 `asset`)" }),
        amount: t.String({ description: "Token units (integer string)" }),
      }),
    ),
    offerOnPaymentRequired: t.Boolean(),
    enabled: t.Boolean(),
    archived: t.Boolean(),
    archivedAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
    createdAt: t.String({ format: "date-time" }),
  },
  { $id: "CreditPack" },
);
