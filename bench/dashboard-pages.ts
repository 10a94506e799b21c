/**
 * What a dashboard page costs next to the API answer it prints, in process (the pages call the API's own handler,
 * src/ui/api.ts): GET /dashboard/api-keys and /dashboard/invoices (the page: the session read, the list call,
 * the JSX rendered) against GET /api/v1/dashboard/api-keys and /api/v1/dashboard/invoices with the same session.
 * The ratio says what the page adds to the API it wraps. Figures, no asserts.
 *
 *   bun bench/dashboard-pages.ts     BENCH_RUNS (2000 per scenario), BENCH_ROWS (50 keys and invoices listed),
 *                                    BENCH_DATABASE_URL (else a fresh embedded PostgreSQL)
 *
 * One JSON line per scenario on stdout ({scenario, runs, p50Us, p99Us}), then `{"summary": …}`; progress on stderr.
 */
import { rm } from "node:fs/promises";
import { createApp, serverFetch } from "../src/app";
import { startAppDeps } from "../src/app-deps";
import { loadConfig } from "../src/config";
import { createSql } from "../src/db/client";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { migrate } from "../src/db/migrate";
import { systemClock } from "../src/lib/clock";
import { Logger } from "../src/lib/logger";
import { createDashboardSession } from "../src/modules/teams/automation-session";
import { createKey } from "../src/modules/teams/keys";
import { createTeam } from "../src/modules/teams/team";
import { seedInvoices } from "./invoice-seed";
import { freePort, log } from "./procs";

const env = process.env;
const runs = Number(env.BENCH_RUNS ?? 2000);
const rows = Number(env.BENCH_ROWS ?? 50);
const root = new URL("..", import.meta.url).pathname;
const dir = `${root}.data/bench-dashboard-${Date.now()}`;
const cleanups: (() => Promise<unknown>)[] = [() => rm(dir, { recursive: true, force: true })];

async function main() {
  let url = env.BENCH_DATABASE_URL;
  if (!url) {
    const db = await startEmbeddedPostgres(dir, freePort(54480), () => {});
    cleanups.push(() => db.stop());
    url = db.url;
  }
  const sql = createSql(url, { max: 4 });
  cleanups.push(() => sql.end({ timeout: 5 }));
  await migrate(sql);
  const team = await createTeam(sql, "Bench dashboard");
  for (let i = 0; i < rows; i++) await createKey(sql, { teamId: team.id, environment: "development", type: "SECRET", name: `key ${i}` }, Date.now());
  await seedInvoices(sql, team.id, rows, new Date());
  const { session } = await createDashboardSession(
    sql,
    { teamId: team.id, environment: "development", userEmail: "bench@example.test", roles: ["owner"] },
    Date.now(),
  );
  const config = await loadConfig({
    DATA_DIR: dir,
    DATABASE_URL: url,
    LOG_LEVEL: "error",
    DASHBOARD_COOKIE_SECURE: "false",
    TOKEN_SIGNING_SECRET: "bench-token-signing-secret-0123456789abcdef",
    LINK_SIGNING_SECRET: "bench-link-signing-secret-0123456789abcdef",
  });
  const deps = await startAppDeps(sql, config, systemClock, new Logger("error", () => {}));
  cleanups.unshift(() => deps.stop());
  const handle = serverFetch(deps, createApp(deps));
  const get = async (path: string) => {
    const response = await handle(new Request(`http://127.0.0.1${path}`, { headers: { cookie: `be_session=${session}`, accept: "text/html" } }));
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    await response.text();
  };

  const scenarios = {
    api_keys_api: "/api/v1/dashboard/api-keys",
    api_keys_page: "/dashboard/api-keys",
    invoices_api: `/api/v1/dashboard/invoices?limit=${rows}`,
    invoices_page: "/dashboard/invoices",
  };
  const p50: Record<string, number> = {};
  for (const [scenario, path] of Object.entries(scenarios)) {
    for (let i = 0; i < Math.min(200, runs); i++) await get(path); // warm the caches and the JIT
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await get(path);
      times.push((performance.now() - t0) * 1000);
    }
    times.sort((a, b) => a - b);
    p50[scenario] = times[Math.floor(runs / 2)]!;
    console.log(JSON.stringify({ scenario, runs, p50Us: Math.round(p50[scenario]!), p99Us: Math.round(times[Math.floor(runs * 0.99)]!) }));
  }
  const ratio = (page: string, api: string) => Number((p50[page]! / p50[api]!).toFixed(2));
  console.log(
    JSON.stringify({
      summary: { apiKeysPageOverApi: ratio("api_keys_page", "api_keys_api"), invoicesPageOverApi: ratio("invoices_page", "invoices_api") },
    }),
  );
  log("done");
}

try {
  await main();
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => {});
}
