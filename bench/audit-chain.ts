/**
 * The cost of the tamper-evident audit chain (migration 00013): its linking trigger holds a per-tenant
 * advisory lock from the audit insert to commit, so one tenant's audited writes commit one at a time while
 * other tenants' do not wait for them.
 *
 *   bun bench/audit-chain.ts     BENCH_WRITES (200), BENCH_CLIENTS (64), BENCH_ROUNDS (5)
 *
 * Each round fires BENCH_WRITES transactions at once over BENCH_CLIENTS connections; each is an audited
 * change as the services make them (a row updated, a different row for each write, then recordAudit, then
 * commit). Scenarios, one JSON line
 * each, the median round: `one_tenant` (every write in one team's chain), `spread` (each write in its own
 * team), then the same two with the trigger disabled in this throwaway database (`*_unchained`: the floor
 * without the chain).
 */
import { rm } from "node:fs/promises";
import { createSql, type Sql } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { recordAudit } from "../src/modules/audit/repo";
import { createTeam } from "../src/modules/teams/team";
import { freePort, log } from "./procs";

const env = process.env;
const writes = Number(env.BENCH_WRITES ?? 200);
const clients = Number(env.BENCH_CLIENTS ?? 64);
const rounds = Number(env.BENCH_ROUNDS ?? 5);
const ACTOR = { kind: "operator", id: "bench", requestId: null };

async function round(sql: Sql, rows: string[], teams: string[]): Promise<{ ms: number; p99TxMs: number }> {
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: writes }, async (_, i) => {
      const teamId = teams[i % teams.length]!;
      const start = performance.now();
      await sql.begin(async (tx) => {
        // A row of its own per write, so only the chain can make these writes wait for each other.
        await tx`update teams set name = name where id = ${rows[i % rows.length]!}`;
        await recordAudit(tx, {
          teamId,
          environment: "development",
          actor: ACTOR,
          action: "bench.change",
          resourceType: "team",
          resourceId: teamId,
          details: { i },
        });
      });
      latencies.push(performance.now() - start);
    }),
  );
  latencies.sort((a, b) => a - b);
  return { ms: performance.now() - t0, p99TxMs: latencies[Math.floor(latencies.length * 0.99)]! };
}

const dir = `${new URL("..", import.meta.url).pathname}.data/bench-audit-${Date.now()}`;
const db = await startEmbeddedPostgres(dir, freePort(54370), () => {});
const sql = createSql(db.url, { max: clients });
try {
  await migrate(sql);
  const teams: string[] = [];
  for (let i = 0; i < writes; i++) teams.push((await createTeam(sql, `Bench ${i}`)).id);
  const scenarios: [string, string[], string?][] = [
    ["one_tenant", [teams[0]!]],
    ["spread", teams],
    [
      "one_tenant_unchained",
      [teams[1]!],
      // Only in this throwaway database: the columns the trigger fills stay null.
      `alter table audit_log disable trigger audit_log_link, drop constraint audit_log_chain,
        alter column chain_seq drop not null, alter column prev_hash drop not null, alter column hash drop not null`,
    ],
    ["spread_unchained", teams],
  ];
  for (const [scenario, tenants, setup] of scenarios) {
    if (setup) await sql.unsafe(setup);
    log(`audit chain: ${scenario}, ${rounds} rounds of ${writes} concurrent audited writes over ${clients} connections`);
    await round(sql, teams, tenants); // warm-up
    const results = [];
    for (let r = 0; r < rounds; r++) results.push(await round(sql, teams, tenants));
    results.sort((a, b) => a.ms - b.ms);
    const median = results[Math.floor(results.length / 2)]!;
    console.log(
      JSON.stringify({
        scenario,
        writes,
        clients,
        roundMs: Math.round(median.ms),
        writesPerS: Math.round((writes * 1000) / median.ms),
        p99TxMs: Math.round(median.p99TxMs * 10) / 10,
      }),
    );
  }
} finally {
  await sql.end();
  await db.stop();
  await rm(dir, { recursive: true, force: true });
}
