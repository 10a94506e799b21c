/** The escrow routes' shapes (docs/escrow.md): the consent in, the reservation out, the public dispute and its receipt. */
import { t, type Static } from "elysia";
import { NonBlankText } from "../../http/non-blank-text";
import { PageQuery } from "../../http/pagination";
import { REQUEST_NONCE_PATTERN } from "./compute";

const ADDRESS = "^0x[0-9a-fA-F]{40}$";
const ESCROW_STATUSES = ["pending", "authorized", "captured", "disputed", "refunded"] as const;
const NONCE_DESCRIPTION =
  "The request's nonce: 1 to 128 printable ASCII characters, no spaces. The consent names it as text; the contract keys the reservation by your payee and keccak256 of it. Unique per payee (your settlement wallet) on a network's escrow contract.";
/** 9999-12-31T23:59:59Z: the last second a date of the API (and of PostgreSQL's timestamptz as we show it) holds. */
export const MAX_UNIX_SECONDS = 253_402_300_799;
const Nullable = <S extends ReturnType<typeof t.String>>(s: S) => t.Union([s, t.Null()]);

export const ReservationCreate = t.Object(
  {
    network: t.String({ minLength: 1, maxLength: 64, description: "A chain registry id of an EVM network with an escrow contract (anvil, base, …)" }),
    token: t.String({ minLength: 1, maxLength: 32, description: "The token's symbol on that network (USDC); an ERC-20 of the registry" }),
    payer: t.String({ pattern: ADDRESS, description: "The payer's address (EOA or ERC-1271 smart account), as the consent names it" }),
    amount: t.String({ pattern: "^[1-9][0-9]{0,77}$", description: "Token units to hold, a positive integer string, as signed (uint256)" }),
    requestNonce: t.String({ pattern: REQUEST_NONCE_PATTERN, description: NONCE_DESCRIPTION }),
    windowEnd: t.Integer({
      minimum: 1,
      maximum: MAX_UNIX_SECONDS,
      description: "Unix seconds at which the challenge window ends, as signed (uint64); at most 253402300799 (9999-12-31T23:59:59Z)",
    }),
    deadline: t.Integer({
      minimum: 1,
      maximum: MAX_UNIX_SECONDS,
      description: "Unix seconds until which the consent may be used, as signed (uint64); at most 253402300799 (9999-12-31T23:59:59Z)",
    }),
    deliveryProvider: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 200,
        pattern: "\\S",
        description:
          "The Reclaim provider whose verified proof of delivery may capture before the window ends; the consent signs keccak256 of it as `deliveryProvider`. Absent: the consent signs zero and the reservation is captured only after its window.",
      }),
    ),
    signature: t.String({ pattern: "^0x([0-9a-fA-F]{2}){1,2048}$", description: "The payer's EIP-712 signature of the consent (docs/escrow.md)" }),
    company: t.Optional(
      t.Object(
        { id: NonBlankText("Our comp_ id or your id for the company; it must exist") },
        { description: "The company the reservation is for (optional); its embed tokens may dispute it" },
      ),
    ),
  },
  {
    examples: [
      {
        network: "base",
        token: "USDC",
        payer: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
        amount: "5000000",
        requestNonce: "req_7f3a9c",
        windowEnd: 1803992400,
        deadline: 1803989400,
        deliveryProvider: "http",
        signature: `0x${"ab".repeat(65)}`,
        company: { id: "acme" },
      },
    ],
  },
);
export type ReservationCreate = Static<typeof ReservationCreate>;

const Tx = Nullable(t.String({ description: "Transaction hash" }));
const ExplorerUrl = Nullable(t.String({ format: "uri", description: "The transaction's page on the block explorer" }));

export const EscrowReservation = t.Object(
  {
    id: t.String({ description: "esc_ id" }),
    requestNonce: t.String(),
    status: t.UnionEnum(ESCROW_STATUSES, {
      description:
        "pending: being sent to the chain; authorized: funds held; captured: paid to the payee; disputed: held for resolution; refunded: back to the payer",
    }),
    pendingAction: t.Union([t.UnionEnum(["reserve", "capture", "capture_early", "dispute", "resolve_refund", "resolve_capture"]), t.Null()], {
      description: "An operator call sent and not recorded yet (completed from the chain); null when none",
    }),
    network: t.String(),
    contract: t.String({ description: "The escrow contract (lowercase)" }),
    companyId: Nullable(t.String({ description: "Our comp_ id" })),
    payer: t.String({ description: "lowercase" }),
    payee: t.String({ description: "The team's settlement wallet on the network (lowercase)" }),
    token: t.Object({ symbol: t.String(), contract: t.String({ description: "lowercase" }) }),
    amount: t.String({ description: "Token units, an integer string" }),
    windowEndsAt: t.String({ format: "date-time" }),
    consentDeadline: t.String({ format: "date-time" }),
    deliveryProvider: Nullable(t.String({ description: "The Reclaim provider whose proof may capture early; null: only the window ends it" })),
    capturedEarly: t.Boolean({ description: "Captured within the window on a verified zkTLS proof" }),
    captureProofId: Nullable(t.String({ description: "The zkp_ id of that proof" })),
    disputeReason: Nullable(t.String()),
    disputedVia: t.Union([t.UnionEnum(["signature", "embed_token", "chain"]), t.Null()], {
      description: "How the payer proved itself: its wallet's signature, its embed token, or on the contract itself",
    }),
    transactions: t.Object({ authorize: Tx, capture: Tx, dispute: Tx, refund: Tx }),
    explorerUrls: t.Object(
      { authorize: ExplorerUrl, capture: ExplorerUrl, dispute: ExplorerUrl, refund: ExplorerUrl },
      {
        description:
          "Each of `transactions` on the network's block explorer (the chain registry's `explorerTxUrl`); null without a hash or an explorer",
      },
    ),
    createdAt: t.String({ format: "date-time" }),
    updatedAt: t.String({ format: "date-time" }),
    authorizedAt: Nullable(t.String({ format: "date-time" })),
    capturedAt: Nullable(t.String({ format: "date-time" })),
    disputedAt: Nullable(t.String({ format: "date-time" })),
    refundedAt: Nullable(t.String({ format: "date-time" })),
  },
  { $id: "EscrowReservation", description: "A payment held in the escrow contract under a request nonce" },
);
export type EscrowReservation = Static<typeof EscrowReservation>;

export const ReservationEnvelope = t.Object({ reservation: EscrowReservation });

export const ReservationListQuery = t.Object({
  ...PageQuery,
  // A union of literals, not UnionEnum: Elysia fills an absent optional UnionEnum query field with its first value.
  status: t.Optional(
    t.Union(
      ESCROW_STATUSES.map((s) => t.Literal(s)),
      { description: "Only this status", "x-expected": `Expected one of: ${ESCROW_STATUSES.join(", ")}` },
    ),
  ),
  companyId: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "Our comp_ id or your id for the company" })),
});

export const ReservationParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64, description: "esc_ id" }) });

export const Resolution = t.Object(
  { outcome: t.UnionEnum(["refunded", "captured"], { description: "refunded: back to the payer; captured: to the payee" }) },
  { examples: [{ outcome: "refunded" }] },
);

export const DisputeRequest = t.Object(
  {
    requestNonce: t.String({ pattern: REQUEST_NONCE_PATTERN, description: NONCE_DESCRIPTION }),
    failureReason: t.String({
      minLength: 1,
      maxLength: 1000,
      pattern: "\\S",
      "x-expected": "Expected a string of 1 to 1000 characters, not all whitespace",
      description: "Why the deliverable failed (kept with the reservation)",
    }),
    network: t.Optional(
      t.String({ minLength: 1, maxLength: 64, description: "The reservation's network: required with `signature` (the signed text names it)" }),
    ),
    payee: t.Optional(t.String({ pattern: ADDRESS, description: "The reservation's payee: required with `signature` (the signed text names it)" })),
    signature: t.Optional(
      t.String({
        pattern: "^0x[0-9a-fA-F]{130}$",
        description: "The payer wallet's EIP-191 signature of the dispute text (docs/escrow.md); or send the company's embed token instead",
      }),
    ),
  },
  {
    examples: [
      {
        requestNonce: "req_7f3a9c",
        failureReason: "The report was empty",
        network: "base",
        payee: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
        signature: `0x${"ab".repeat(65)}`,
      },
    ],
  },
);
export type DisputeRequest = Static<typeof DisputeRequest>;

export const DisputeReceipt = t.Object({
  ok: t.Literal(true),
  receipt: t.Object({ requestNonce: t.String(), status: t.Literal("disputed") }),
});
