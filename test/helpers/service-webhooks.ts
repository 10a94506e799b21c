/**
 * Webhooks against a running service (test/helpers/service.ts): a seeded team with an endpoint made by the
 * CLI, companies created over HTTP (each a `company.created` message), and the database read directly for
 * what the outbox wrote.
 */
import { createSql, type Sql } from "../../src/db/client";
import { embeddedUrl } from "../../src/db/embedded";
import { contractChecked } from "./contract";
import { cliData, SERVICE_PG_PORT } from "./service";

/** What a local receiver over http needs from the service (and the CLI, which checks the endpoint's URL). */
export const LOCAL_WEBHOOKS = { WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true", RATE_LIMIT_ENABLED: "false" };

export interface WebhookTeam {
  teamId: string;
  legacyKey: string;
  endpointId: string;
  secret: string;
}

/** `seed`, then `webhook create` for company.created to `url`. */
export function seedWebhookTeam(dataDir: string, env: Record<string, string>, url: string): WebhookTeam {
  const seeded = cliData(dataDir, env, "seed");
  const teamId: string = seeded.team.id;
  const created = cliData(dataDir, env, "webhook", "create", "--team", teamId, "--url", url, "--events", "company.created");
  return { teamId, legacyKey: seeded.keys.legacy.key, endpointId: created.id, secret: created.secret };
}

// Over the network, held to the served OpenAPI document as the in-process helper is (./contract.ts).
const checkedFetch = contractChecked((request) => fetch(request));

/** Creates company `id` through the API of the service at `base` (an identify event): one company.created. */
export async function createCompany(base: string, key: string, id: string) {
  const response = await checkedFetch(
    new Request(`${base}/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ event_type: "identify", company: { id, name: `Company ${id}` } }),
    }),
  );
  if (response.status !== 200) throw new Error(`identify ${id}: ${response.status} ${await response.text()}`);
}

/** A connection to the service's embedded database (end it before the service stops). */
export const serviceDb = (): Sql => createSql(embeddedUrl(SERVICE_PG_PORT), { max: 1 });

/** The ids of the team's messages, as the outbox wrote them. */
export async function messageIds(sql: Sql, teamId: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id from webhook_messages where team_id = ${teamId} and environment = 'development' order by id`;
  return rows.map((r) => r.id);
}

/** Per delivery of the team: its message, status, and the attempt rows recorded for it. */
export async function deliveryAttempts(sql: Sql, teamId: string) {
  return sql<{ message_id: string; status: string; attempts: number; rows: number; numbers: number[] }[]>`
    select d.message_id, d.status, d.attempts, count(a.attempt)::int as rows, coalesce(array_agg(a.attempt order by a.attempt)
      filter (where a.attempt is not null), '{}') as numbers
    from webhook_deliveries d left join webhook_attempts a on a.delivery_id = d.id
    where d.team_id = ${teamId} and d.environment = 'development'
    group by d.id, d.message_id, d.status, d.attempts order by d.message_id`;
}
