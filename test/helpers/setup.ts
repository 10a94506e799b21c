/**
 * Preloaded once per `bun test` run (bunfig.toml). Starts the embedded PostgreSQL in `.data/test/pg`
 * (or uses TEST_DATABASE_URL), migrates a template database once, and leaves each test file to clone
 * it (see db.ts). Nothing here mocks the database: every test talks to a real PostgreSQL.
 * The server it started is stopped when the run ends, or is interrupted (docs/operations/processes.md).
 * Under test/run.ts (`npm test`) the runner has done that once for all its `bun test` processes and names the
 * server in TEST_RUN_SERVER_URL: this process then only clones from the template and leaves the server to it. Only
 * the runner's own children do (TEST_RUN_PID is their parent): a `bun test` a test starts prepares its own.
 */
import { afterAll } from "bun:test";
import { prepareTestServer, setupFailure, type TestServer } from "./test-server";

export { TEMPLATE_DB, TEST_PG_PORT, withDatabase } from "./test-server";

let server: TestServer | undefined;

async function stopDatabase() {
  const s = server;
  server = undefined;
  await s?.stop();
}

/** A failed start ends the run at once with the reason (a rejected preload would leave `bun test` spinning). */
async function prepareOrExit(): Promise<string> {
  const prepared = process.env.TEST_RUN_SERVER_URL;
  if (prepared && process.env.TEST_RUN_PID === String(process.ppid)) return prepared;
  try {
    server = await prepareTestServer();
    return server.url;
  } catch (error) {
    process.stderr.write(setupFailure(error));
    process.exit(1);
  }
}

const atRunEnd: (() => Promise<unknown>)[] = [];
/** Work the run must finish before the server stops (db.ts's drops still in progress). */
export function beforeServerStops(work: () => Promise<unknown>) {
  atRunEnd.push(work);
}

// A top-level afterAll in a preload runs once, after every file.
afterAll(async () => {
  try {
    for (const work of atRunEnd) await work();
  } finally {
    await stopDatabase();
  }
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => void stopDatabase().finally(() => process.exit(130)));
}

const g = globalThis as { __testServerUrl?: string };
g.__testServerUrl ??= await prepareOrExit();
export const TEST_SERVER_URL = g.__testServerUrl;
