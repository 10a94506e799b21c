/** `invoice backfill-checkouts`: the PAID invoice of every paid checkout session that has none. */
import { ENVIRONMENTS, type Tenant } from "../lib/tenant";
import { OPERATOR } from "../modules/teams/service";
import { backfillCheckoutInvoices, tenantsToBackfill, type BackfillResult } from "../modules/invoices/backfill";
import { oneOf } from "./args";
import { command } from "./command";
import { EXIT } from "./output";

interface BackfillSummary {
  created: number;
  skipped: number;
  tenants: BackfillResult[];
}

export const invoicePaymentCommands = [
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
      const deps = { sql: ctx.sql, chains: ctx.config.chains, actor: OPERATOR, now: () => new Date() };
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
