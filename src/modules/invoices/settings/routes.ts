/**
 * Dashboard routes for the team's settlement wallets and invoice settings (billing:read / billing:write),
 * per environment of the session. The CLI's `settlement-wallet …` and `invoice-settings …` commands call the
 * same service functions (settings/manage.ts).
 */
import { Elysia } from "elysia";
import type { Sql } from "../../../db/client";
import type { Clock } from "../../../lib/clock";
import type { ChainRegistry } from "../../../lib/networks";
import { authPlugin, type AuthDeps } from "../../../http/auth";
import { data } from "../../../http/envelope";
import { ErrorBody, errorResponses, ValidationErrorBody } from "../../../http/error-schemas";
import { Page } from "../../../http/pagination";
import { requestState } from "../../../http/request-context";
import { actorOf } from "../../audit/repo";
import { InvoiceSettings, InvoiceSettingsPut, NetworkParams, SettlementWallet, SettlementWalletPut } from "./schemas";
import { presentSettlementWallet } from "./present";
import { getInvoiceSettings, listSettlementWallets, removeSettlementWallet, setSettlementWallet, updateInvoiceSettings } from "./manage";

export type SettingsDeps = AuthDeps & { sql: Sql; clock: Clock; config: { chains: ChainRegistry } };

const TAGS = ["Dashboard: billing"];

const WALLETS = `Money arrives at a settlement wallet, one per network and environment: invoice payments are proven against it (POST /dashboard/invoices/{id}/payments), refunds are sent from it, subscriptions charge into it. Payment links keep naming their own recipient. \`tokens\` restricts which currencies the wallet takes (empty: every token of the network); an invoice whose currency a network's wallet does not take cannot be paid there (409 settlement_wallet_missing).`;

export function settingsRoutes(deps: SettingsDeps) {
  const now = () => new Date(deps.clock.now());
  const actor = (principal: Parameters<typeof actorOf>[0], request: Request) => actorOf(principal, requestState(request).requestId);
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/dashboard/settlement-wallets",
      async ({ principal }) => {
        const rows = (await listSettlementWallets(deps.sql, principal)).map(presentSettlementWallet);
        return { data: rows, count: rows.length, nextCursor: null };
      },
      {
        access: true,
        response: Page(SettlementWallet),
        detail: {
          tags: TAGS,
          summary: "The environment's settlement wallets, by network",
          description: `${WALLETS} One per network, so the whole list is one page (\`nextCursor\` is always null).`,
        },
      },
    )
    .put(
      "/dashboard/settlement-wallets/:network",
      async ({ principal, params, body, request }) => {
        const row = await setSettlementWallet(
          { sql: deps.sql, registry: deps.config.chains },
          { tenant: principal, actor: actor(principal, request), now: now() },
          params.network,
          body,
        );
        return { data: presentSettlementWallet(row) };
      },
      {
        access: true,
        params: NetworkParams,
        body: SettlementWalletPut,
        response: { 200: data(SettlementWallet), ...errorResponses("validation_failed", "conflict") },
        detail: {
          tags: TAGS,
          summary: "Set the settlement wallet of a network",
          description: `${WALLETS} The network must be in the chain registry and settle this environment (test networks for development, main ones for production), else 400 naming \`path.network\`; the wallet must be an address of the network's family, not a burn address, and on EVM in its EIP-55 checksum form (an all-lowercase address carries no checksum to catch a typo; payment links, set from code, accept one), and each token a symbol of the network, given once. Creates the wallet or replaces it whole.`,
        },
      },
    )
    .delete(
      "/dashboard/settlement-wallets/:network",
      async ({ principal, params, request }) => ({
        data: presentSettlementWallet(await removeSettlementWallet(deps.sql, principal, actor(principal, request), params.network)),
      }),
      {
        access: true,
        params: NetworkParams,
        response: { 200: data(SettlementWallet), 404: ErrorBody },
        detail: {
          tags: TAGS,
          summary: "Remove the settlement wallet of a network",
          description:
            "Answers the removed wallet; 404 when the network has none. Payments already recorded keep the wallet they were proven against; new proofs on that network are refused until a wallet is set again.",
        },
      },
    )
    .get("/dashboard/invoice-settings", async ({ principal }) => ({ data: await getInvoiceSettings(deps.sql, principal) }), {
      access: true,
      response: data(InvoiceSettings),
      detail: {
        tags: TAGS,
        summary: "The environment's invoice settings",
        description: "What invoices say about the seller, and their payment terms. Never set: null texts, 30 days, emailOnIssue true.",
      },
    })
    .put(
      "/dashboard/invoice-settings",
      async ({ principal, body, request }) => ({
        data: await updateInvoiceSettings(deps.sql, { tenant: principal, actor: actor(principal, request), now: now() }, body),
      }),
      {
        access: true,
        body: InvoiceSettingsPut,
        response: { 200: data(InvoiceSettings), 400: ValidationErrorBody },
        detail: {
          tags: TAGS,
          summary: "Change the invoice settings",
          description:
            "A partial update, as PUT /features/{id}: omitted fields keep their value, null clears a text. paymentTermsDays (0 to 365) applies to invoices created from now on; an invoice keeps the terms it was created with.",
        },
      },
    );
}
