/**
 * `invoice pay` (POST /dashboard/invoices/{id}/payments for an operator) and `invoice backfill-checkouts`
 * (the PAID invoice of every paid checkout session that has none). `invoice pay` verifies through a chain
 * worker pool of its own, closed when the command ends; a proof not provable yet is left to the job queue
 * (a running service or `npm run worker` verifies it again), as the route leaves it.
 */
import { ChainPool } from "../chains/pool";
import { ENVIRONMENTS, type Tenant } from "../lib/tenant";
import { OPERATOR } from "../modules/teams/roles";
import { submitProof } from "../modules/invoices/payments/submit";
import { backfillCheckoutInvoices, tenantsToBackfill, type BackfillResult } from "../modules/invoices/payments/backfill";
import { ENVIRONMENT_OPTION, TEAM_OPTION, oneOf, tenant } from "./args";
import { command } from "./command";
import { EXIT } from "./output";

interface BackfillSummary {
  created: number;
  skipped: number;
  tenants: BackfillResult[];
}

export const invoicePaymentCommands = [
  command({
    name: "invoice pay",
    summary: "Pay an issued or overdue invoice with an on-chain transfer (verified as POST /dashboard/invoices/{id}/payments does)",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      invoice: { value: "<invoice id>", help: "in_…", required: true },
      "tx-hash": { value: "<hash>", help: "The transfer's transaction hash (Solana: its signature)", required: true },
      network: { value: "<network>", help: "Default: the invoice's; required for an invoice that has none" },
    },
    parse: (a) => ({ tenant: tenant(a), invoiceId: a.invoice!, proof: { txHash: a["tx-hash"]!, network: a.network } }),
    run: async (ctx, i) => {
      const pool = new ChainPool({ size: 1, jobTimeoutMs: ctx.config.chainJobTimeoutMs });
      try {
        const deps = { sql: ctx.sql, registry: ctx.config.chains, pool };
        return (await submitProof(deps, { tenant: i.tenant, actor: OPERATOR, now: new Date(ctx.now) }, i.invoiceId, i.proof)).body;
      } finally {
        await pool.close();
      }
    },
  }),
  command({
    name: "invoice backfill-checkouts",
    summary: "Create the PAID invoice of every paid checkout session that has none, in batches (running it again makes nothing twice)",
    options: {
      team: { value: "<team id>", help: "Default: every team with such sessions" },
      environment: { value: ENVIRONMENTS.join("|"), help: "Default: both" },
    },
    parse: (a) => ({ teamId: a.team, environment: oneOf("environment", a.environment, ENVIRONMENTS) }),
    run: async (ctx, i): Promise<BackfillSummary> => {
      const environments = i.environment ? [i.environment] : ENVIRONMENTS;
      const tenants: Tenant[] = i.teamId
        ? environments.map((environment) => ({ teamId: i.teamId!, environment }))
        : (await tenantsToBackfill(ctx.sql)).filter((t) => environments.includes(t.environment));
      const deps = { sql: ctx.sql, chains: ctx.config.chains, actor: OPERATOR, now: () => new Date(ctx.now) };
      const results: BackfillResult[] = [];
      for (const t of tenants) results.push(await backfillCheckoutInvoices(deps, t));
      return {
        created: results.reduce((n, r) => n + r.created, 0),
        skipped: results.reduce((n, r) => n + r.skipped.length, 0),
        tenants: results,
      };
    },
    // Sessions left without an invoice are a failure to look at (each is listed with its reason).
    exitCode: (result) => ((result as BackfillSummary).skipped > 0 ? EXIT.failure : EXIT.ok),
  }),
];
