/** The wire shapes of auto-topup: POST /agent/dispatch, the dashboard's configurations, funding mandates and dispatches. */
import { t, type Static } from "elysia";
import { PageQuery } from "../../http/pagination";

/** The largest amount a configuration or cap takes: 38 digits, far above any token supply (Solana further: a u64). */
export const MAX_AMOUNT_DIGITS = 38;

const amount = (description: string) =>
  t.String({
    pattern: `^[1-9][0-9]{0,${MAX_AMOUNT_DIGITS - 1}}$`,
    description: `${description} Token units (the token's smallest unit) as an integer string, above 0, at most ${MAX_AMOUNT_DIGITS} digits.`,
    "x-expected": `Expected a positive integer string of at most ${MAX_AMOUNT_DIGITS} digits (token units)`,
    examples: ["20000000"],
  });

const NETWORK_ID = t.String({
  pattern: "^[a-z0-9][a-z0-9-]{0,63}$",
  description: "A chain registry id (e.g. `solana-devnet`): how Solana targets are named. EVM targets may give it instead of `chainId`.",
  "x-expected": "Expected a chain registry id",
});

export const DispatchConfigBody = t.Object(
  {
    minBalanceThreshold: amount("A tick that reads the target's balance below this sends a top-up (once per crossing)."),
    topupAmount: amount("What one top-up sends from the funding mandate to the target."),
    targetWallet: t.String({ minLength: 1, maxLength: 100, description: "The agent's wallet: an address of the network's family" }),
    chainId: t.Optional(
      t.Integer({ minimum: 1, maximum: 9_007_199_254_740_991, description: "EVM: the EIP-155 chain id of a network in the chain registry" }),
    ),
    network: t.Optional(NETWORK_ID),
    token: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 64,
        description: "A token of the network, by symbol or contract/mint; default: the network's first non-native token (USDC)",
      }),
    ),
  },
  {
    examples: [
      { minBalanceThreshold: "5000000", topupAmount: "20000000", targetWallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", chainId: 8453 },
      { minBalanceThreshold: "5000000", topupAmount: "20000000", targetWallet: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", network: "solana" },
    ],
  },
);
export type DispatchConfigBody = Static<typeof DispatchConfigBody>;

export const AgentDispatchConfig = t.Object(
  {
    id: t.String({ description: "atc_ id" }),
    minBalanceThreshold: t.String({ description: "Token units, integer string" }),
    topupAmount: t.String({ description: "Token units, integer string" }),
    targetWallet: t.String({ description: "Canonical spelling (EVM: EIP-55 checksum)" }),
    chainId: t.Optional(t.Integer({ description: "EVM networks only: the EIP-155 chain id. Absent (never null) on Solana." })),
    network: t.String({ description: "The chain registry id" }),
    token: t.String({ description: "The token's symbol" }),
    enabled: t.Boolean({ description: "false once disabled on the dashboard; POST /agent/dispatch enables it again" }),
    armed: t.Boolean({
      description:
        "Whether the next tick below the threshold sends a top-up: false from a dispatch until a tick sees the balance at or above the threshold (a refused crossing is tried again by itself: for the daily cap from the next UTC midnight, for any other reason after a backoff of 5 minutes doubling with each refusal in a row, up to 6 hours)",
    }),
    createdAt: t.String({ format: "date-time" }),
    updatedAt: t.String({ format: "date-time" }),
  },
  {
    $id: "AgentDispatchConfig",
    description: "Agent dispatch configuration: a threshold-based auto-topup of one wallet on one network",
    examples: [
      {
        id: "atc_7Hq2LmN4pR8sT1vW3xY5zA6b",
        minBalanceThreshold: "5000000",
        topupAmount: "20000000",
        targetWallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        chainId: 8453,
        network: "base",
        token: "USDC",
        enabled: true,
        armed: true,
        createdAt: "2027-03-01T12:00:00.000Z",
        updatedAt: "2027-03-01T12:00:00.000Z",
      },
    ],
  },
);
export type AgentDispatchConfig = Static<typeof AgentDispatchConfig>;

export const ConfigParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64, description: "atc_ id" }) });
export const NetworkParams = t.Object({ network: NETWORK_ID });

export const FundingMandatePut = t.Object(
  {
    fundingWallet: t.String({
      minLength: 1,
      maxLength: 100,
      description: "The wallet top-ups are drawn from; it must have approved the service's operator",
    }),
    dailyCap: amount("The most this network's top-ups may send per UTC day, pending and confirmed dispatches counted."),
    total: amount(
      "The most all top-ups drawn through this mandate may ever send, as the signed consent names it. The mandate authorizes the lesser of this and the operator's allowance on chain (which every team and, on Solana, subscriptions share).",
    ),
    token: t.Optional(t.String({ minLength: 1, maxLength: 64, description: "Default: the network's first non-native token (USDC)" })),
    consent: t.Object(
      {
        issuedAt: t.String({
          format: "date-time",
          description: "When the text was signed, as written in it (ISO 8601, UTC); within the last 10 minutes",
        }),
        nonce: t.String({
          pattern: "^[A-Za-z0-9_-]{16,64}$",
          description: "A new value, as written in the text",
          "x-expected": "Expected 16 to 64 characters A-Z a-z 0-9 _ -",
        }),
        signature: t.String({
          minLength: 1,
          maxLength: 200,
          description: "EVM: the EIP-191 personal_sign signature (0x hex); Solana: base64 of the ed25519 signMessage signature",
        }),
      },
      {
        description:
          "The funding wallet's signature of the consent text naming this team, environment, network, token and daily cap (docs/agents.md#funding-mandate)",
      },
    ),
  },
  {
    examples: [
      {
        fundingWallet: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
        total: "1000000000",
        dailyCap: "100000000",
        consent: { issuedAt: "2027-03-01T12:00:00.000Z", nonce: "kU2x9bQmZr4TfW7yHc1pLs", signature: `0x${"1b".repeat(65)}` },
      },
    ],
  },
);
export type FundingMandatePut = Static<typeof FundingMandatePut>;

export const AgentFundingMandate = t.Object(
  {
    id: t.String({ description: "fmd_ id" }),
    network: t.String(),
    chainId: t.Optional(t.Integer({ description: "EVM networks only" })),
    token: t.String(),
    fundingWallet: t.String(),
    operator: t.String({ description: "The service's operator address the funding wallet approved (EVM spender, Solana SPL delegate)" }),
    authorizedAmount: t.String({
      description: "The lesser of the signed consent's total and what the approval on chain allowed when registered, token units",
    }),
    remainingAmount: t.String({ description: "What is left of it: every dispatch lowers it when claimed, a failed one gives it back" }),
    dailyCap: t.String({ description: "Token units per UTC day" }),
    signedTotal: t.Union([t.String(), t.Null()], {
      description: "The lifetime total the funding wallet's consent signed for (`total` of the registration), token units",
    }),
    status: t.Union([t.Literal("ACTIVE"), t.Literal("REVOKED")]),
    createdAt: t.String({ format: "date-time" }),
    updatedAt: t.String({ format: "date-time" }),
  },
  { $id: "AgentFundingMandate", description: "A team's funding source for auto-topups on one network" },
);
export type AgentFundingMandate = Static<typeof AgentFundingMandate>;

export const AgentTopupDispatch = t.Object(
  {
    id: t.String({ description: "atd_ id" }),
    configId: t.String({ description: "The atc_ configuration (it may since have been deleted)" }),
    network: t.String(),
    chainId: t.Optional(t.Integer({ description: "EVM networks only" })),
    token: t.String(),
    targetWallet: t.String(),
    fundingWallet: t.Union([t.String(), t.Null()], { description: "null when no funding mandate was registered" }),
    amount: t.String({ description: "Token units" }),
    balanceSeen: t.String({ description: "The target's balance the tick read below the threshold" }),
    status: t.Union([t.Literal("pending"), t.Literal("confirmed"), t.Literal("failed")]),
    reason: t.Union([t.String(), t.Null()], {
      description:
        "failed: mandate_missing, mandate_revoked, mandate_exhausted, daily_cap_exceeded, token_mismatch, insufficient_allowance, insufficient_balance, autopay_not_installed, not_configured, reverted, not_sent",
    }),
    detail: t.Union([t.String(), t.Null()]),
    txHash: t.Union([t.String(), t.Null()], {
      description:
        "The transaction once confirmed; on EVM also while pending, once signed (the hash is fixed before the broadcast). Null when failed",
    }),
    explorerUrl: t.Union([t.String({ format: "uri" }), t.Null()], {
      description: "`txHash` on the network's block explorer (the chain registry's `explorerTxUrl`); null without a hash or an explorer",
    }),
    createdAt: t.String({ format: "date-time" }),
    updatedAt: t.String({ format: "date-time" }),
  },
  { $id: "AgentTopupDispatch", description: "One auto-topup: sent (pending, confirmed) or refused (failed)" },
);
export type AgentTopupDispatch = Static<typeof AgentTopupDispatch>;

export const DispatchListQuery = t.Object({
  ...PageQuery,
  configId: t.Optional(t.String({ minLength: 1, maxLength: 64, description: "Only this configuration's dispatches" })),
});
export const ConfigListQuery = t.Object({ ...PageQuery });
