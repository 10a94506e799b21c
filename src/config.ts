/**
 * Process configuration, read from environment variables once at boot and validated with TypeBox.
 * A bad value stops the boot with a message naming the variable. Every variable is documented in README.md.
 */
import { Type as T, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { loadOrCreateSecrets } from "./lib/secrets";

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
  LINK_SIGNING_SECRET: T.Optional(T.String({ minLength: 32 })),
  BODY_LIMIT_BYTES: T.Optional(T.Integer({ minimum: 1024, maximum: 50 * 1024 * 1024 })),
  KEY_CACHE_TTL_SECONDS: T.Optional(T.Integer({ minimum: 0, maximum: 3600 })),
  LOG_LEVEL: T.Optional(T.Union([T.Literal("debug"), T.Literal("info"), T.Literal("warn"), T.Literal("error"), T.Literal("silent")])),
  // Value.Convert turns "true"/"false"/"1"/"0" (any case) into a boolean; anything else fails validation.
  RATE_LIMIT_ENABLED: T.Optional(T.Boolean()),
});

type Env = Static<typeof EnvSchema>;

// Never echoed in a configuration error: they hold secrets or credentials.
const SECRET_VARIABLES = new Set(["TOKEN_SIGNING_SECRET", "LINK_SIGNING_SECRET", "DATABASE_URL", "REDIS_URL"]);

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
  linkSigningSecret: string;
  bodyLimitBytes: number;
  keyCacheTtlMs: number;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** The spec's 500-requests-per-60-s limiter on the endpoints it names; Redis-shared when `redisUrl` is set. */
  rateLimitEnabled: boolean;
}

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
    linkSigningSecret: secrets.linkSigningSecret,
    bodyLimitBytes: env.BODY_LIMIT_BYTES ?? 1024 * 1024,
    keyCacheTtlMs: (env.KEY_CACHE_TTL_SECONDS ?? 30) * 1000,
    logLevel: env.LOG_LEVEL ?? "info",
    rateLimitEnabled: env.RATE_LIMIT_ENABLED ?? true,
  };
}
