/** What the dashboard catalog routes share: their dependencies, the catalog deps they build, and small schemas. */
import { t } from "elysia";
import type { AuthDeps } from "../../http/auth";
import type { Sql } from "../../db/client";
import type { ChainRegistry } from "../../chains/registry";
import type { Clock } from "../../lib/clock";
import type { Tenant } from "../../lib/tenant";
import type { CatalogDeps } from "./write";

/** The service's wiring (src/app-deps.ts) provides these (entitlements: this instance's caches). */
export type DashboardDeps = AuthDeps & {
  sql: Sql;
  clock: Clock;
  config: { tokenSigningSecret: string; chains: ChainRegistry };
  entitlements: { catalogChanged(tenant: Tenant): void };
};

export const catalogDeps = (deps: DashboardDeps): CatalogDeps => ({
  sql: deps.sql,
  chains: deps.config.chains,
  now: () => new Date(deps.clock.now()),
});

export const IncludeArchived = {
  includeArchived: t.Optional(t.BooleanString({ description: "true also lists archived ones (default false)" })),
};

export const Removed = t.Object(
  {
    id: t.String(),
    outcome: t.Union([t.Literal("deleted"), t.Literal("archived")], { description: "archived when history or other records still refer to it" }),
  },
  { $id: "Removed" },
);
