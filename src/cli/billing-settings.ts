/**
 * `settlement-wallet list | set | remove` and `invoice-settings show | set`: the dashboard's billing settings
 * routes for an operator, over the same service functions (src/modules/invoices/settings/manage.ts).
 */
import { OPERATOR } from "../modules/teams/roles";
import { presentSettlementWallet } from "../modules/invoices/settings/present";
import {
  getInvoiceSettings,
  listSettlementWallets,
  removeSettlementWallet,
  setSettlementWallet,
  updateInvoiceSettings,
} from "../modules/invoices/settings/manage";
import { ENVIRONMENT_OPTION, TEAM_OPTION, list, oneOf, tenant, wholeNumber } from "./args";
import { command } from "./command";

const NETWORK_OPTION = { network: { value: "<network>", help: "A chain registry id (base, solana, …)", required: true } };

/** '' clears a text setting (null), as null does in the API. */
const text = (value: string | undefined) => (value === undefined ? undefined : value === "" ? null : value);

export const billingSettingsCommands = [
  command({
    name: "settlement-wallet list",
    summary: "The settlement wallets of a team's environment, by network",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION },
    parse: (a) => tenant(a),
    run: async (ctx, t) => (await listSettlementWallets(ctx.sql, t)).map(presentSettlementWallet),
  }),
  command({
    name: "settlement-wallet set",
    summary: "Set where payments arrive on a network (invoices, refunds, subscriptions)",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      ...NETWORK_OPTION,
      wallet: { value: "<address>", help: "An address of the network's family (EVM: in its EIP-55 checksum form)", required: true },
      tokens: { value: "USDC,…", help: "Token symbols accepted there (default: all of the network's)" },
    },
    parse: (a) => ({ tenant: tenant(a), network: a.network!, put: { wallet: a.wallet!, tokens: list(a.tokens) } }),
    run: async (ctx, i) =>
      presentSettlementWallet(
        await setSettlementWallet(
          { sql: ctx.sql, registry: ctx.config.chains },
          { tenant: i.tenant, actor: OPERATOR, now: new Date(ctx.now) },
          i.network,
          i.put,
        ),
      ),
  }),
  command({
    name: "settlement-wallet remove",
    summary: "Remove the settlement wallet of a network",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...NETWORK_OPTION },
    parse: (a) => ({ tenant: tenant(a), network: a.network! }),
    run: async (ctx, i) => presentSettlementWallet(await removeSettlementWallet(ctx.sql, i.tenant, OPERATOR, i.network)),
  }),
  command({
    name: "invoice-settings show",
    summary: "The invoice settings of a team's environment (seller, payment terms, email on issue)",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION },
    parse: (a) => tenant(a),
    run: (ctx, t) => getInvoiceSettings(ctx.sql, t),
  }),
  command({
    name: "invoice-settings set",
    summary: "Change invoice settings; options left out keep their value, '' clears a text",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      "seller-name": { value: "<text>", help: "Up to 200 characters" },
      "seller-address": { value: "<text>", help: "Up to 1000 characters" },
      "seller-tax-id": { value: "<text>", help: "Up to 64 characters" },
      "seller-email": { value: "<email>", help: "" },
      "payment-terms-days": { value: "<days>", help: "0 to 365; applies to invoices created from now on" },
      footer: { value: "<text>", help: "Up to 2000 characters" },
      "email-on-issue": { value: "true|false", help: "Email each invoice to its customer when issued" },
    },
    parse: (a) => ({
      tenant: tenant(a),
      patch: {
        sellerName: text(a["seller-name"]),
        sellerAddress: text(a["seller-address"]),
        sellerTaxId: text(a["seller-tax-id"]),
        sellerEmail: text(a["seller-email"]),
        paymentTermsDays: a["payment-terms-days"] === undefined ? undefined : Number(wholeNumber("payment-terms-days", a["payment-terms-days"])),
        footer: text(a.footer),
        emailOnIssue: a["email-on-issue"] === undefined ? undefined : oneOf("email-on-issue", a["email-on-issue"], ["true", "false"]) === "true",
      },
    }),
    run: (ctx, i) => updateInvoiceSettings(ctx.sql, { tenant: i.tenant, actor: OPERATOR, now: new Date(ctx.now) }, i.patch),
  }),
];
