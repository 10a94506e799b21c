/**
 * A full app over a cloned database, with a clock the test controls, and a request helper over
 * the server's handler (no port, no network). Call from a test file's top level (`const t = await createTestApp()`),
 * so its afterAll hook belongs to the file.
 */
import { afterAll } from "bun:test";
import { createApp, serverFetch } from "../../src/app";
import { startAppDeps, type AppDeps } from "../../src/app-deps";
import type { CredentialStore } from "../../src/auth/credential-store";
import { loadConfig, type Config } from "../../src/config";
import { ManualClock } from "../../src/lib/clock";
import { newTestClock } from "./clock";
import { Logger } from "../../src/lib/logger";
import { cloneTestDatabase, type TestDatabase } from "./db";
import { createSql } from "../../src/db/client";
import { contractChecked } from "./contract";

export const TEST_SECRETS = {
  TOKEN_SIGNING_SECRET: "test-token-signing-secret-0123456789abcdef",
  LINK_SIGNING_SECRET: "test-link-signing-secret-0123456789abcdef",
};

export interface TestApp {
  db: TestDatabase;
  app: ReturnType<typeof createApp>;
  clock: ManualClock;
  config: Config;
  deps: AppDeps;
  /** run at the end of the file, before the database is dropped */
  closers: (() => Promise<void>)[];
  credentials: CredentialStore;
  logs: string[];
  logger: Logger;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
}

export interface CallOptions {
  token?: string;
  cookie?: string;
  body?: unknown;
  /** sent as is: text, or bytes (for bodies that are not valid UTF-8) */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  body: any;
  headers: Headers;
}

export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const db = await cloneTestDatabase();
  const config = await loadConfig({
    DATA_DIR: `${process.cwd()}/.data/test`,
    DATABASE_URL: db.url,
    LOG_LEVEL: "info",
    CHECKOUT_SWEEP_INTERVAL_MS: "0",
    // Argon2id at 1 MiB instead of 64: the dashboard files sign in hundreds of times (~2 ms each instead of 100-400 ms).
    PASSWORD_HASH_MEMORY_KIB: "1024",
    ...TEST_SECRETS,
    ...overrides,
  });
  const clock = newTestClock();
  const logs: string[] = [];
  const logger = new Logger("info", (text) => logs.push(...text.trimEnd().split("\n")));
  const deps = await startAppDeps(db.sql, config, clock, logger);
  // One hook, in order: settle and flush pending writes while the pool is still open, then drop the database.
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
    await deps.stop();
    await db.drop();
  });
  const app = createApp(deps);

  const call = caller(app, deps, logger);

  return { db, app, clock, config, deps, credentials: deps.credentials, logs, logger, call, closers };
}

/**
 * A request helper over what the server serves (`serverFetch`, as src/index.ts), without a port or network.
 * Every response is held to the served OpenAPI document (./contract.ts): one it does not describe fails the test.
 */
function caller(app: ReturnType<typeof createApp>, deps: AppDeps, logger: Logger) {
  const handle = contractChecked(serverFetch(deps, app));
  return async function call(method: string, path: string, o: CallOptions = {}): Promise<CallResult> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.cookie) headers.cookie = o.cookie;
    let body: string | Uint8Array<ArrayBuffer> | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers["content-type"] = "application/json";
    }
    const response = await handle(new Request(`http://localhost/api/v1${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    logger.flush();
    return { status: response.status, body: parsed, headers: response.headers };
  };
}

/**
 * A second server instance on the same database (its own pool, caches, meter and listener), as a
 * second process would be, optionally configured differently (another signing secret). It is closed at
 * the end of the file, before the database is dropped.
 */
export async function createPeerInstance(t: TestApp, config: Partial<Config> = {}) {
  const sql = createSql(t.db.url, { max: 10 });
  const deps = await startAppDeps(sql, { ...t.config, ...config }, t.clock, t.logger);
  const app = createApp(deps);
  t.closers.push(async () => {
    await deps.stop();
    await sql.end({ timeout: 5 });
  });
  return { deps, call: caller(app, deps, t.logger) };
}
