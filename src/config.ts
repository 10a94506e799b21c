/**
 * Process configuration, read from environment variables once at boot and validated with TypeBox.
 * A bad value stops the boot with a message naming the variable. Every variable is documented in docs/operations/configuration.md.
 */
import { Type as T, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { loadOrCreateSecrets } from "./lib/secrets";
import { BUILT_IN_NETWORKS, ChainRegistry } from "./lib/networks";
import { OPERATOR_KEY_VARIABLES, type OperatorKeys } from "./lib/operator-keys";
import { parseSmtpUrl } from "./lib/smtp-url";

const PortNumber = T.Integer({ minimum: 1, maximum: 65535 });

const EnvSchema = T.Object({
  PORT: T.Optional(PortNumber),
  HOST: T.Optional(T.String({ minLength: 1 })),
  DATABASE_URL: T.Optional(T.String({ pattern: "^postgres(ql)?://" })),
  DATA_DIR: T.Optional(T.String({ minLength: 1 })),
  EMBEDDED_PG_PORT: T.Optional(PortNumber),
  DATABASE_POOL_SIZE: T.Optional(T.Integer({ minimum: 1, maximum: 200 })),
  REDIS_URL: T.Optional(T.String({ pattern: "^rediss?://" })),
  TOKEN_SIGNING_SECRET: T.Optional(T.String({ minLength: 32 })),
  TOKEN_SIGNING_SECRET_PREVIOUS: T.Optional(T.String({ minLength: 32 })),
  LINK_SIGNING_SECRET: T.Optional(T.String({ minLength: 32 })),
  BODY_LIMIT_BYTES: T.Optional(T.Integer({ minimum: 1024, maximum: 50 * 1024 * 1024 })),
  KEY_CACHE_TTL_SECONDS: T.Optional(T.Integer({ minimum: 0, maximum: 3600 })),
  LOG_LEVEL: T.Optional(T.Union([T.Literal("debug"), T.Literal("info"), T.Literal("warn"), T.Literal("error"), T.Literal("silent")])),
  // Value.Convert turns "true"/"false"/"1"/"0" (any case) into a boolean; anything else fails validation.
  RATE_LIMIT_ENABLED: T.Optional(T.Boolean()),
  CHAIN_REGISTRY_FILE: T.Optional(T.String({ minLength: 1 })),
  CHAIN_WORKERS: T.Optional(T.Integer({ minimum: 1, maximum: 32 })),
  // At most 2 minutes: a payment submission waits on its chain job, and an Idempotency-Key claim older than
  // 5 minutes is taken for a crashed request's (src/http/idempotency/rules.ts STALE_CLAIM_MS).
  CHAIN_JOB_TIMEOUT_MS: T.Optional(T.Integer({ minimum: 100, maximum: 120_000 })),
  // Auto-topup (docs/agents.md#the-monitor): balanceOf calls per Multicall3 eth_call, and how long a dispatch stays
  // pending before recovery looks its reference up on chain (longer than any send can take).
  AGENT_TOPUP_BATCH_SIZE: T.Optional(T.Integer({ minimum: 1, maximum: 2_000 })),
  AGENT_TOPUP_RECOVER_AFTER_MS: T.Optional(T.Integer({ minimum: 1_000, maximum: 86_400_000 })),
  // 0 turns the settlement sweeper off (tests drive it by hand).
  CHECKOUT_SWEEP_INTERVAL_MS: T.Optional(T.Integer({ minimum: 0, maximum: 3_600_000 })),
  // Dashboard sign-in (docs/dashboard-sign-in.md): the session cookie's Secure attribute (false only for
  // plain-http local development), the absolute session lifetime, and whether X-Forwarded-For names the client.
  DASHBOARD_COOKIE_SECURE: T.Optional(T.Boolean()),
  DASHBOARD_SESSION_HOURS: T.Optional(T.Integer({ minimum: 1, maximum: 720 })),
  TRUST_PROXY: T.Optional(T.Boolean()),
  // Argon2id memory cost of operator passwords, in KiB. The test suite lowers it (hundreds of sign-ins); a
  // lower value makes a stolen hash cheaper to attack just as much, so production keeps the default.
  PASSWORD_HASH_MEMORY_KIB: T.Optional(T.Integer({ minimum: 1024, maximum: 4_194_304 })),
  // The job queue (src/jobs, src/tasks.ts): workers in this process, how many jobs at once, how long a stop
  // waits for running jobs, and after how long without a heartbeat a worker is taken for dead.
  JOBS_IN_PROCESS: T.Optional(T.Boolean()),
  JOB_CONCURRENCY: T.Optional(T.Integer({ minimum: 1, maximum: 100 })),
  JOB_SHUTDOWN_GRACE_MS: T.Optional(T.Integer({ minimum: 0, maximum: 600_000 })),
  JOB_WORKER_STALE_MS: T.Optional(T.Integer({ minimum: 1000, maximum: 3_600_000 })),
  // Webhook endpoints: plain http URLs, and private or loopback addresses (tests and local receivers only).
  WEBHOOK_ALLOW_HTTP: T.Optional(T.Boolean()),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: T.Optional(T.Boolean()),
  WEBHOOK_TIMEOUT_MS: T.Optional(T.Integer({ minimum: 100, maximum: 60_000 })),
  // Invoice deliveries (docs/invoices.md#invoice-deliveries): the SMTP server invoices are emailed through (its
  // credentials are secrets) and the From address.
  SMTP_URL: T.Optional(T.String({ pattern: "^smtps?://[^/?#]+" })),
  SMTP_FROM: T.Optional(T.String({ pattern: '^[^\\s@<>"]+@[^\\s@<>"]+$', maxLength: 254 })),
  // Invoices: the origin customers reach the service at, for the invoices' download links
  // (checked by publicBaseUrl below: an absolute http(s) URL without path, query or credentials).
  PUBLIC_BASE_URL: T.Optional(T.String({ minLength: 1 })),
  // Subscriptions (docs/subscriptions.md#subscriptions-on-chain): the service's operator key per chain family, the party
  // that activates, charges and revokes. Read only by the chain workers (src/lib/operator-keys.ts).
  SUBSCRIPTION_EVM_OPERATOR_KEY: T.Optional(T.String({ pattern: "^0x[0-9a-fA-F]{64}$" })),
  SUBSCRIPTION_SOLANA_OPERATOR_KEY: T.Optional(T.String({ pattern: "^[1-9A-HJ-NP-Za-km-z]{80,90}$" })),
  SUBSCRIPTION_STELLAR_OPERATOR_SECRET: T.Optional(T.String({ pattern: "^S[A-Z2-7]{55}$" })),
  // zkTLS proofs (docs/proofs.md): the attestors whose signatures are trusted (comma-separated EVM addresses;
  // unset: every submission is refused), how many distinct ones must sign, and how old a claim may be.
  ZKTLS_ATTESTORS: T.Optional(T.String({ pattern: "^\\s*0x[0-9a-fA-F]{40}\\s*(,\\s*0x[0-9a-fA-F]{40}\\s*)*$" })),
  ZKTLS_MIN_SIGNATURES: T.Optional(T.Integer({ minimum: 1, maximum: 32 })),
  ZKTLS_MAX_AGE_SECONDS: T.Optional(T.Integer({ minimum: 1, maximum: 86_400 })),
});

type Env = Static<typeof EnvSchema>;

// Never echoed in a configuration error: they hold secrets or credentials.
const SECRET_VARIABLES = new Set([
  "TOKEN_SIGNING_SECRET",
  "TOKEN_SIGNING_SECRET_PREVIOUS",
  "LINK_SIGNING_SECRET",
  "DATABASE_URL",
  "REDIS_URL",
  "SMTP_URL",
  "SUBSCRIPTION_EVM_OPERATOR_KEY",
  "SUBSCRIPTION_SOLANA_OPERATOR_KEY",
  "SUBSCRIPTION_STELLAR_OPERATOR_SECRET",
]);

export interface Config {
  port: number;
  host: string;
  /** Unset means: start the embedded PostgreSQL in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  databasePoolSize: number;
  redisUrl: string | undefined;
  tokenSigningSecret: string;
  /** During a rotation: the secret tokens were signed with before, still accepted (never used to sign). */
  previousTokenSigningSecret: string | undefined;
  linkSigningSecret: string;
  bodyLimitBytes: number;
  keyCacheTtlMs: number;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** The spec's 500-requests-per-60-s limiter on the endpoints it names; Redis-shared when `redisUrl` is set. */
  rateLimitEnabled: boolean;
  /** the chain registry: built-in networks, replaced or extended by CHAIN_REGISTRY_FILE; checked once at startup */
  chains: ChainRegistry;
  chainWorkers: number;
  chainJobTimeoutMs: number;
  /** auto-topup: balanceOf calls per Multicall3 eth_call, and the age after which a pending dispatch is looked up on chain */
  agentTopup: { batchSize: number; recoverAfterMs: number };
  /** the settlement sweep's cadence (a job that re-queues itself); 0: no sweep */
  checkoutSweepIntervalMs: number;
  /** the `Secure` attribute of the be_session cookie; true unless DASHBOARD_COOKIE_SECURE=false */
  dashboardCookieSecure: boolean;
  /** absolute lifetime of a dashboard session */
  dashboardSessionTtlMs: number;
  /** true: the client address is the last X-Forwarded-For entry (set by the one proxy in front); else the socket's */
  trustProxy: boolean;
  /** Argon2id memory cost (KiB) of new operator password hashes and of the dummy hash unknown emails are checked against */
  passwordHashMemoryKib: number;
  /** run job workers (and schedules) in the service process; `npm run worker` runs them apart */
  jobsInProcess: boolean;
  jobConcurrency: number;
  /** how long a stopping runner lets running jobs finish before failing them back to the queue */
  jobShutdownGraceMs: number;
  /** a worker without a heartbeat this long is dead: its locked jobs are unlocked for another runner */
  jobWorkerStaleMs: number;
  /** endpoints may use http:// URLs (default: https only) */
  webhookAllowHttp: boolean;
  /** deliveries may go to private, loopback, link-local and reserved addresses (default: refused) */
  webhookAllowPrivateAddresses: boolean;
  /** how long one webhook attempt may take, response included */
  webhookTimeoutMs: number;
  /** smtp:// or smtps:// URL of the server invoices are emailed through (user and password inside); unset: no email */
  smtpUrl: string | undefined;
  /** the From address of invoice emails; unset: invoices@<SMTP host> (never the seller email, the Reply-To: deliveries/deliver.ts) */
  smtpFrom: string | undefined;
  /** scheme://host[:port] the invoices' download links point at; null: the origin each request came to */
  publicBaseUrl: string | null;
  /** subscription operator keys (secrets), set only in the chain workers' environment */
  operatorKeys: OperatorKeys;
  /** zkTLS proofs: pinned attestor addresses (lowercase; empty: submissions refused), distinct signatures required, claim age limit */
  zktls: { attestors: string[]; minSignatures: number; maxAgeSeconds: number };
}

/** Bun's own Argon2id default (64 MiB), the cost every operator hash had before it was configurable. */
export const DEFAULT_PASSWORD_HASH_MEMORY_KIB = 65_536;

export class ConfigError extends Error {}

/** Coerces the raw strings of the environment into the schema's types, then validates. */
function parseEnv(raw: Record<string, string | undefined>): Env {
  const picked: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(EnvSchema.properties)) {
    const value = raw[name];
    if (value === undefined || value === "") continue;
    picked[name] = Value.Convert(schema, value);
  }
  const errors = [...Value.Errors(EnvSchema, picked)];
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const name = e.path.replace(/^\//, "");
      const shown = SECRET_VARIABLES.has(name) ? "(value hidden)" : JSON.stringify(raw[name]);
      return `  ${name}=${shown}: ${e.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return picked as Env;
}

export async function loadConfig(raw: Record<string, string | undefined> = process.env): Promise<Config> {
  const env = parseEnv(raw);
  const dataDir = env.DATA_DIR ?? `${process.cwd()}/.data`;
  const secrets = await loadOrCreateSecrets(dataDir, {
    tokenSigningSecret: env.TOKEN_SIGNING_SECRET,
    linkSigningSecret: env.LINK_SIGNING_SECRET,
  });
  return {
    port: env.PORT ?? 3000,
    host: env.HOST ?? "0.0.0.0",
    databaseUrl: env.DATABASE_URL,
    dataDir,
    embeddedPgPort: env.EMBEDDED_PG_PORT ?? 54329,
    databasePoolSize: env.DATABASE_POOL_SIZE ?? 10,
    redisUrl: env.REDIS_URL,
    tokenSigningSecret: secrets.tokenSigningSecret,
    previousTokenSigningSecret: env.TOKEN_SIGNING_SECRET_PREVIOUS,
    linkSigningSecret: secrets.linkSigningSecret,
    bodyLimitBytes: env.BODY_LIMIT_BYTES ?? 1024 * 1024,
    keyCacheTtlMs: (env.KEY_CACHE_TTL_SECONDS ?? 30) * 1000,
    logLevel: env.LOG_LEVEL ?? "info",
    rateLimitEnabled: env.RATE_LIMIT_ENABLED ?? true,
    chains: await loadChainRegistry(env.CHAIN_REGISTRY_FILE),
    chainWorkers: env.CHAIN_WORKERS ?? 2,
    chainJobTimeoutMs: env.CHAIN_JOB_TIMEOUT_MS ?? 20_000,
    agentTopup: {
      batchSize: env.AGENT_TOPUP_BATCH_SIZE ?? 500,
      // Past the chain job's deadline twice over, and past a Solana blockhash's life (about a minute).
      recoverAfterMs: env.AGENT_TOPUP_RECOVER_AFTER_MS ?? Math.max(120_000, 3 * (env.CHAIN_JOB_TIMEOUT_MS ?? 20_000)),
    },
    checkoutSweepIntervalMs: env.CHECKOUT_SWEEP_INTERVAL_MS ?? 5_000,
    dashboardCookieSecure: env.DASHBOARD_COOKIE_SECURE ?? true,
    dashboardSessionTtlMs: (env.DASHBOARD_SESSION_HOURS ?? 12) * 3_600_000,
    trustProxy: env.TRUST_PROXY ?? false,
    passwordHashMemoryKib: env.PASSWORD_HASH_MEMORY_KIB ?? DEFAULT_PASSWORD_HASH_MEMORY_KIB,
    jobsInProcess: env.JOBS_IN_PROCESS ?? true,
    jobConcurrency: env.JOB_CONCURRENCY ?? 5,
    jobShutdownGraceMs: env.JOB_SHUTDOWN_GRACE_MS ?? 20_000,
    jobWorkerStaleMs: env.JOB_WORKER_STALE_MS ?? 30_000,
    webhookAllowHttp: env.WEBHOOK_ALLOW_HTTP ?? false,
    webhookAllowPrivateAddresses: env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES ?? false,
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS ?? 15_000,
    smtpUrl: env.SMTP_URL ? checkSmtpUrl(env.SMTP_URL) : undefined,
    smtpFrom: env.SMTP_FROM,
    publicBaseUrl: publicBaseUrl(env.PUBLIC_BASE_URL),
    operatorKeys: operatorKeys(env),
    zktls: {
      attestors: (env.ZKTLS_ATTESTORS ?? "")
        .split(",")
        .map((a) => a.trim().toLowerCase())
        .filter((a) => a !== ""),
      minSignatures: env.ZKTLS_MIN_SIGNATURES ?? 1,
      maxAgeSeconds: env.ZKTLS_MAX_AGE_SECONDS ?? 600,
    },
  };
}

/** The operator keys that are set, by variable name: handed to the chain workers' environment only. */
function operatorKeys(env: Env): OperatorKeys {
  const keys: OperatorKeys = {};
  for (const name of OPERATOR_KEY_VARIABLES) if (env[name]) keys[name] = env[name];
  return keys;
}

/** SMTP_URL must name a server the mailer can use safely (src/lib/smtp-url.ts); the message never repeats it (it holds the password). */
function checkSmtpUrl(value: string): string {
  const parsed = parseSmtpUrl(value);
  if ("error" in parsed) throw new ConfigError(`Invalid configuration:\n  SMTP_URL=(value hidden): ${parsed.error}`);
  return value;
}

/** PUBLIC_BASE_URL as an origin (`https://billing.example.com`), or a ConfigError saying what is wrong. */
function publicBaseUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  const refuse = (why: string) => new ConfigError(`Invalid configuration:\n  PUBLIC_BASE_URL=${JSON.stringify(value)}: ${why}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse("not an absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refuse("must be http:// or https://");
  if (url.username || url.password) throw refuse("must carry no credentials");
  if (url.pathname !== "/" || url.search || url.hash || /[?#]/.test(value))
    throw refuse("must have no path, query or fragment (links add /api/v1/…)");
  return url.origin;
}

/** The built-in networks, with CHAIN_REGISTRY_FILE's entries replacing or adding networks by id. */
async function loadChainRegistry(path: string | undefined): Promise<ChainRegistry> {
  if (!path) return new ChainRegistry(BUILT_IN_NETWORKS);
  const file = Bun.file(path);
  if (!(await file.exists())) throw new ConfigError(`Invalid configuration:\n  CHAIN_REGISTRY_FILE=${JSON.stringify(path)}: no such file`);
  try {
    return ChainRegistry.fromFile(await file.json());
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  CHAIN_REGISTRY_FILE=${JSON.stringify(path)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
