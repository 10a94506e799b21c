/**
 * PostgreSQL restarting under a write load: the real service (`npm start`, embedded PostgreSQL) takes
 * identify events from concurrent clients, each with a company id of its own, while the embedded server is
 * stopped (`pg_ctl stop -m fast`: every backend ends, mid-transaction ones included), kept down a moment,
 * and started again. The process stays up, every answer meanwhile is a 2xx or a 503
 * `database_unavailable` with Retry-After, the service answers 2xx again on its own within a bound, and
 * every company whose event was acknowledged is in the database.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { pgPrograms, postgresRunner } from "../../src/db/pg-native";
import { randomToken } from "../../src/lib/ids";
import { cliData, leftBehind, processesUsing, SERVICE_PG_PORT, SERVICE_PORT, serviceBun, startService } from "../helpers/service";
import { serviceDb } from "../helpers/service-webhooks";

const dataDir = mkdtempSync(`${tmpdir()}/billing-db-restart-`);
const env = { RATE_LIMIT_ENABLED: "false" };
const base = `http://127.0.0.1:${SERVICE_PORT}/api/v1`;
const CLIENTS = 8;
/** How long the database stays down between stop and start: long enough for requests to meet it away. */
const DOWN_MS = 1_500;
/** The bound on answering 2xx again once the database is back. */
const RECOVERY_MS = 10_000;

afterAll(async () => {
  for (const p of processesUsing(dataDir)) process.kill(p.pid, "SIGKILL");
  await leftBehind(dataDir, 5_000);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  id: string;
  status: number;
  at: number;
  code?: string;
  retryAfter?: string | null;
}

async function identify(key: string, id: string): Promise<Answer> {
  try {
    const res = await fetch(`${base}/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ event_type: "identify", company: { id, name: id } }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json().catch(() => ({}))) as { code?: string };
    return { id, status: res.status, at: Date.now(), code: body.code, retryAfter: res.headers.get("retry-after") };
  } catch (error) {
    // no answer at all: a timeout or a dropped connection
    return { id, status: 0, at: Date.now(), code: error instanceof Error ? error.name : String(error) };
  }
}

async function pgCtl(...args: string[]) {
  const { run } = await postgresRunner();
  const { pgCtl: program } = await pgPrograms(run);
  const pgDir = `${dataDir}/pg`;
  const result = await run([program, ...args, "-D", pgDir]);
  if (result.code !== 0) throw new Error(`pg_ctl ${args.join(" ")}: ${result.output}`);
}

test("a PostgreSQL restart under load: the service stays up, answers 2xx or 503, recovers, keeps every acknowledged write", async () => {
  const service = await startService(dataDir, env);
  const key: string = cliData(dataDir, env, "seed").keys.legacy.key;
  const run = randomToken(6).toLowerCase();
  const answers: Answer[] = [];
  let stopLoad = false;
  let n = 0;
  const client = async () => {
    while (!stopLoad) answers.push(await identify(key, `restart-${run}-${n++}`));
  };
  const clients = Array.from({ length: CLIENTS }, client);

  await Bun.sleep(1_000); // load before the restart
  const stoppedAt = Date.now();
  await pgCtl("stop", "-m", "fast", "-w");
  await Bun.sleep(DOWN_MS);
  await pgCtl("start", "-w", "-t", "60", "-l", `${dataDir}/pg/server.log`, "-o", `-p ${SERVICE_PG_PORT} -c listen_addresses=127.0.0.1`);
  const startedAt = Date.now();
  await Bun.sleep(3_000); // load after the restart
  stopLoad = true;
  await Promise.all(clients);

  // The process stayed up, and said nothing of a crash.
  expect(serviceBun(dataDir)).toBeDefined();
  expect(service.output()).not.toContain('"msg":"uncaught error"');

  // Only 2xx and 503 database_unavailable (with Retry-After), never a 500 or no answer.
  const refused = answers.filter((a) => a.status < 200 || a.status >= 300);
  const unexpected = refused.filter((a) => a.status !== 503);
  if (unexpected.length)
    console.log(
      { stoppedAt, startedAt, unexpected },
      service
        .output()
        .split("\n")
        .filter((l) => /"durationMs":\d{4,}|"level":"error"/.test(l))
        .slice(0, 20),
    );
  expect(unexpected).toEqual([]);
  for (const a of refused) expect(a).toMatchObject({ code: "database_unavailable", retryAfter: expect.stringMatching(/^[1-9]\d*$/) });
  expect(refused.length).toBeGreaterThan(0); // the load did meet the database away
  expect(answers.filter((a) => a.at < stoppedAt && a.status === 200).length).toBeGreaterThan(0);

  // 2xx again within the bound once the database is back, and from then on.
  const firstAfter = answers.find((a) => a.at > startedAt && a.status === 200);
  expect(firstAfter).toBeDefined();
  expect(firstAfter!.at - startedAt).toBeLessThan(RECOVERY_MS);
  const lastSecond = answers.filter((a) => a.at > Date.now() - 1_000);
  expect(lastSecond.length).toBeGreaterThan(0);
  expect(lastSecond.every((a) => a.status === 200)).toBe(true);

  // Every acknowledged write is in the database.
  const acknowledged = answers.filter((a) => a.status === 200).map((a) => a.id);
  const sql = serviceDb();
  try {
    const rows = await sql<{ external_id: string }[]>`select external_id from companies where external_id like ${`restart-${run}-%`}`;
    const stored = new Set(rows.map((r) => r.external_id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  } finally {
    await sql.end({ timeout: 1 });
  }
  console.log(
    `database restart: ${answers.length} answers, ${acknowledged.length} acknowledged, ${refused.length} 503; 2xx again ${firstAfter!.at - startedAt} ms after the start`,
  );
}, 120_000);
