/**
 * A full app over a cloned database, with a clock the test controls, and a request helper over
 * `app.handle` (no port, no network). Call from a test file's top level (`const t = await createTestApp()`),
 * so its afterAll hook belongs to the file.
 */
import { afterAll } from "bun:test";
import { createApp } from "../../src/app";
import { CredentialStore } from "../../src/auth/credential-store";
import { loadConfig, type Config } from "../../src/config";
import { ManualClock } from "../../src/lib/clock";
import { Logger } from "../../src/lib/logger";
import { cloneTestDatabase, type TestDatabase } from "./db";

export const TEST_SECRETS = {
  TOKEN_SIGNING_SECRET: "test-token-signing-secret-0123456789abcdef",
  LINK_SIGNING_SECRET: "test-link-signing-secret-0123456789abcdef",
};

export interface TestApp {
  db: TestDatabase;
  app: ReturnType<typeof createApp>;
  clock: ManualClock;
  config: Config;
  credentials: CredentialStore;
  logs: string[];
  logger: Logger;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
}

export interface CallOptions {
  token?: string;
  cookie?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  body: any;
  headers: Headers;
}

export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const db = await cloneTestDatabase();
  const config = await loadConfig({ DATA_DIR: `${process.cwd()}/.data/test`, DATABASE_URL: db.url, LOG_LEVEL: "info", ...TEST_SECRETS, ...overrides });
  const clock = new ManualClock(Date.now());
  const logs: string[] = [];
  const logger = new Logger("info", (text) => logs.push(...text.trimEnd().split("\n")));
  const credentials = new CredentialStore(db.sql, clock, config.keyCacheTtlMs);
  await credentials.start();
  // One hook, in order: flush pending writes while the pool is still open, then drop the database.
  afterAll(async () => {
    await credentials.stop();
    await db.drop();
  });
  const app = createApp({ sql: db.sql, config, clock, logger, credentials, tokenSigningSecret: config.tokenSigningSecret });

  async function call(method: string, path: string, o: CallOptions = {}): Promise<CallResult> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.cookie) headers.cookie = o.cookie;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers["content-type"] = "application/json";
    }
    const response = await app.handle(new Request(`http://localhost/api/v1${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    logger.flush();
    return { status: response.status, body: parsed, headers: response.headers };
  }

  return { db, app, clock, config, credentials, logs, logger, call };
}
