/**
 * The team's settlement wallets and invoice settings as the dashboard routes and the CLI show and take them
 * (BILLING.md "Invoices": money arrives at a settlement wallet per network; the invoice says who the seller
 * is and how long the customer has to pay).
 */
import { t, type Static } from "elysia";

import { DEFAULT_PAYMENT_TERMS_DAYS } from "../lifecycle/prepare";

const WALLET_EXAMPLE = {
  network: "base",
  wallet: "0x52908400098527886E0F7030069857D2E4169EE7",
  tokens: ["USDC"],
  createdAt: "2026-01-15T09:30:00.000Z",
  updatedAt: "2026-01-15T09:30:00.000Z",
};

export const SettlementWallet = t.Object(
  {
    network: t.String({ description: "A chain registry id this environment settles on" }),
    wallet: t.String({ description: "Where invoice payments arrive and refunds are sent from on that network" }),
    tokens: t.Array(t.String(), { description: "Symbols accepted there, as the registry spells them; empty: every token of the network" }),
    createdAt: t.String({ format: "date-time" }),
    updatedAt: t.String({ format: "date-time" }),
  },
  { $id: "SettlementWallet", examples: [WALLET_EXAMPLE] },
);

export const SettlementWalletPut = t.Object(
  {
    wallet: t.String({
      minLength: 1,
      maxLength: 128,
      description:
        "An address of the network's family, never a burn address: EVM in its EIP-55 checksum form (mixed case; all-lowercase is refused), Stellar G… account, Solana wallet",
    }),
    tokens: t.Optional(
      t.Array(t.String({ minLength: 1, maxLength: 32 }), {
        maxItems: 50,
        description: "Token symbols of the network accepted there, each once (any case; stored as the registry spells them). Omitted or empty: all",
      }),
    ),
  },
  { $id: "SettlementWalletPut", examples: [{ wallet: WALLET_EXAMPLE.wallet, tokens: ["USDC"] }] },
);
export type SettlementWalletPut = Static<typeof SettlementWalletPut>;

export const NetworkParams = t.Object({ network: t.String({ minLength: 1, maxLength: 64, description: "A chain registry id (base, solana, …)" }) });

const SETTINGS_EXAMPLE = {
  sellerName: "Acme Analytics Ltd",
  sellerAddress: "1 Market Street\nSan Francisco, CA 94105\nUnited States",
  sellerTaxId: "US12-3456789",
  sellerEmail: "billing@acme.example",
  paymentTermsDays: 30,
  footer: "Thank you for your business.",
  emailOnIssue: true,
};

export const InvoiceSettings = t.Object(
  {
    sellerName: t.Union([t.String(), t.Null()], { description: "Who issues the invoices; null: unset" }),
    sellerAddress: t.Union([t.String(), t.Null()]),
    sellerTaxId: t.Union([t.String(), t.Null()], { description: "VAT number, EIN, …" }),
    sellerEmail: t.Union([t.String(), t.Null()]),
    paymentTermsDays: t.Integer({ description: `dueAt = issuedAt + paymentTermsDays for new invoices (default ${DEFAULT_PAYMENT_TERMS_DAYS})` }),
    footer: t.Union([t.String(), t.Null()], { description: "Printed at the foot of each invoice document" }),
    emailOnIssue: t.Boolean({ description: "Email an invoice to its customer when it is issued (default true)" }),
  },
  { $id: "InvoiceSettings", examples: [SETTINGS_EXAMPLE] },
);
export type InvoiceSettingsView = Static<typeof InvoiceSettings>;

const clearable = (maxLength: number, description: string) =>
  t.Optional(
    t.Union([t.String({ minLength: 1, maxLength, pattern: "\\S" }), t.Null()], {
      description: `${description}; null clears it`,
      "x-expected": `Expected a string of 1 to ${maxLength} characters, not all whitespace, or null`,
    }),
  );

export const InvoiceSettingsPut = t.Object(
  {
    sellerName: clearable(200, "Up to 200 characters"),
    sellerAddress: clearable(1000, "Up to 1000 characters, lines separated by \\n"),
    sellerTaxId: clearable(64, "Up to 64 characters"),
    sellerEmail: t.Optional(t.Union([t.String({ format: "email", maxLength: 320 }), t.Null()], { description: "null clears it" })),
    paymentTermsDays: t.Optional(t.Integer({ minimum: 0, maximum: 365, description: "0 to 365 days" })),
    footer: clearable(2000, "Up to 2000 characters"),
    emailOnIssue: t.Optional(t.Boolean()),
  },
  { $id: "InvoiceSettingsPut", examples: [{ sellerName: "Acme Analytics Ltd", paymentTermsDays: 14 }] },
);
export type InvoiceSettingsPut = Static<typeof InvoiceSettingsPut>;
