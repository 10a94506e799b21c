/** Payment link and checkout session shapes: what callers send, and what the API returns. */
import { t, type Static } from "elysia";

const Nullable = <S extends ReturnType<typeof t.String | typeof t.Integer>>(s: S) => t.Union([s, t.Null()]);

export const PURPOSES = ["PAYMENT", "ADDON", "CREDITS"] as const;
export type Purpose = (typeof PURPOSES)[number];
export const SESSION_STATUSES = ["PENDING", "CONFIRMING", "PAID", "EXPIRED", "FAILED"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

const BaseUnits = t.String({
  pattern: "^[1-9][0-9]{0,77}$",
  description: 'Integer amount in the token\'s smallest units, as a string (e.g. "25000000" is 25 USDC)',
});

export const PaymentLinkCreate = t.Object(
  {
    amount: BaseUnits,
    network: t.String({
      minLength: 1,
      maxLength: 64,
      description:
        "A chain registry id: ethereum, base, sepolia, base-sepolia, stellar, stellar-testnet, solana, solana-devnet, or one added by CHAIN_REGISTRY_FILE",
    }),
    acceptedToken: t.String({
      minLength: 1,
      maxLength: 80,
      description: "A token of the network: its symbol (USDC), or the locator links return (contract, mint, or CODE:ISSUER on Stellar)",
    }),
    recipientWallet: t.String({
      minLength: 1,
      maxLength: 100,
      description: "Where the customer pays: an EVM address (EIP-55 checksum if mixed case), a Stellar G… account or a Solana wallet",
    }),
    companyId: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 200,
        description: "The paying company (our comp_ id or yours); required for ADDON and CREDITS, here or when the session opens",
      }),
    ),
    purpose: t.Optional(
      t.Union(
        PURPOSES.map((p) => t.Literal(p)),
        {
          default: "PAYMENT",
          description: "PAYMENT (default): nothing else happens; ADDON: activates addOnPlanId on the company; CREDITS: grants creditAmount credits",
        },
      ),
    ),
    addOnPlanId: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
    creditAmount: t.Optional(t.String({ pattern: "^[1-9][0-9]{0,17}$", description: "Credits granted when paid (CREDITS), integer as a string" })),
    ttlSeconds: t.Optional(t.Integer({ minimum: 60, maximum: 604800, description: "Time a checkout session stays open for payment; default 1800" })),
    description: t.Optional(t.String({ maxLength: 500 })),
  },
  {
    $id: "PaymentLinkCreate",
    examples: [
      {
        amount: "25000000",
        network: "base",
        acceptedToken: "USDC",
        recipientWallet: "0x52908400098527886E0F7030069857D2E4169EE7",
        companyId: "acme",
        description: "Pro plan, one month",
      },
    ],
  },
);
export type PaymentLinkCreate = Static<typeof PaymentLinkCreate>;

export const PaymentLink = t.Object(
  {
    id: t.String({ description: "plink_…" }),
    amount: t.String(),
    currency: t.String({ description: "The accepted token's symbol" }),
    acceptedToken: t.String({ description: "The token's contract (EVM), mint (Solana), CODE:ISSUER (Stellar) or its symbol when native" }),
    decimals: t.Integer(),
    network: t.String(),
    chainId: Nullable(t.Integer({ description: "EVM chain id; null on Stellar and Solana" })),
    recipientWallet: t.String(),
    companyId: Nullable(t.String()),
    purpose: t.String(),
    addOnPlanId: Nullable(t.String()),
    creditAmount: Nullable(t.String()),
    ttlSeconds: t.Integer(),
    description: Nullable(t.String()),
    active: t.Boolean(),
    createdAt: t.String({ format: "date-time" }),
  },
  {
    $id: "PaymentLink",
    examples: [
      {
        id: "plink_01JH5Q8T0M3V9X2Y4Z6A8B0C1H",
        amount: "25000000",
        currency: "USDC",
        acceptedToken: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        decimals: 6,
        network: "base",
        chainId: 8453,
        recipientWallet: "0x52908400098527886E0F7030069857D2E4169EE7",
        companyId: "comp_01JH5Q8T0M3V9X2Y4Z6A8B0C1D",
        purpose: "PAYMENT",
        addOnPlanId: null,
        creditAmount: null,
        ttlSeconds: 1800,
        description: "Pro plan, one month",
        active: true,
        createdAt: "2026-01-15T09:30:00.000Z",
      },
    ],
  },
);

export const CheckoutSessionCreate = t.Object(
  {
    paymentLinkId: t.String({ minLength: 1, maxLength: 64 }),
    companyId: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "When the link names none; must match the link's when it does" })),
    customerWallet: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 100,
        description:
          "The wallet that must pay: a payment from any other wallet is refused (wrong_payer); 400 when it is not an address of the link's chain (EIP-55 checksum checked on EVM). Set it whenever known: on EVM and Solana nothing else binds a plain transfer to this session. Filled with the payer when left out",
      }),
    ),
  },
  {
    $id: "CheckoutSessionCreate",
    examples: [{ paymentLinkId: "plink_01JH5Q8T0M3V9X2Y4Z6A8B0C1H", customerWallet: "0x8ba1f109551bD432803012645Ac136ddd64DBA72" }],
  },
);

export const PaymentSubmit = t.Object(
  {
    txHash: t.String({ minLength: 1, maxLength: 100, description: "EVM: 0x + 64 hex; Stellar: 64 hex; Solana: the base58 signature" }),
  },
  { $id: "PaymentSubmit", examples: [{ txHash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060" }] },
);

export const CheckoutSession = t.Object(
  {
    id: t.String({ description: "cs_…" }),
    status: t.String({ description: "PENDING, CONFIRMING, PAID, EXPIRED or FAILED" }),
    purpose: t.String({ description: "PAYMENT, ADDON or CREDITS" }),
    amount: t.String({ description: "Integer smallest units of the accepted token" }),
    currency: t.String(),
    acceptedToken: t.String(),
    decimals: t.Integer(),
    chainId: Nullable(t.Integer()),
    network: t.String(),
    // The spec types customerWallet and companyId as plain strings: unset is "".
    customerWallet: t.String({ description: "The payer's wallet; empty until a payment names it" }),
    recipientWallet: t.String(),
    paymentLinkId: t.String(),
    companyId: t.String({ description: "Empty when the session is for no company" }),
    addOnPlanId: Nullable(t.String()),
    creditAmount: Nullable(t.String()),
    memo: Nullable(t.String({ description: "Stellar: the text memo the payment must carry" })),
    txHash: Nullable(t.String()),
    failureReason: Nullable(t.String()),
    failureDetail: Nullable(t.String()),
    expiresAt: t.String({ format: "date-time" }),
    paidAt: Nullable(t.String({ format: "date-time" })),
    createdAt: t.String({ format: "date-time" }),
  },
  {
    $id: "CheckoutSession",
    examples: [
      {
        id: "cs_01JH5Q8T0M3V9X2Y4Z6A8B0C1J",
        status: "PAID",
        purpose: "PAYMENT",
        amount: "25000000",
        currency: "USDC",
        acceptedToken: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        decimals: 6,
        chainId: 8453,
        network: "base",
        customerWallet: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
        recipientWallet: "0x52908400098527886E0F7030069857D2E4169EE7",
        paymentLinkId: "plink_01JH5Q8T0M3V9X2Y4Z6A8B0C1H",
        companyId: "comp_01JH5Q8T0M3V9X2Y4Z6A8B0C1D",
        addOnPlanId: null,
        creditAmount: null,
        memo: null,
        txHash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
        failureReason: null,
        failureDetail: null,
        expiresAt: "2026-01-15T10:00:00.000Z",
        paidAt: "2026-01-15T09:41:07.000Z",
        createdAt: "2026-01-15T09:30:00.000Z",
      },
    ],
  },
);
export type CheckoutSession = Static<typeof CheckoutSession>;
