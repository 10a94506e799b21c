/**
 * A tenant: one team's data in one environment. Every tenant row carries both, and every query filters
 * on both (docs/operations/database.md); this is the one declaration of the pair.
 */
export const ENVIRONMENTS = ["development", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface Tenant {
  teamId: string;
  environment: Environment;
}

/** The tenant a row belongs to, from its `team_id` and `environment` columns. */
export const tenantOf = (row: { team_id: string; environment: string }): Tenant => ({
  teamId: row.team_id,
  environment: row.environment as Environment,
});
