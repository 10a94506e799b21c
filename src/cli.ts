/**
 * Operator command line, the dashboard's stand-in: `npm run cli -- <command> [options]`.
 * Every command prints one JSON object with what it created; errors go to stderr with exit code 1.
 * Run `npm run cli -- help` for the list.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "./config";
import { Logger } from "./lib/logger";
import { systemClock } from "./lib/clock";
import { ApiError } from "./lib/errors";
import { connectDatabase } from "./db/connect";
import { migrate } from "./db/migrate";
import { ENVIRONMENTS, KEY_TYPE_BY_KIND, type Environment } from "./auth/kinds";
import { createDashboardSession, createKey, createTeam, listKeys, revokeKey } from "./modules/teams/service";
import { assignPlan, createFeature, createPlan, grantCredits, removeOverride, setEntitlement, setOverride, type EntitlementInput } from "./modules/catalog/service";
import { seed } from "./cli/seed";
import type { Sql } from "./db/client";

const USAGE = `Usage: npm run cli -- <command> [options]

  migrate
  seed
  team create --name <name>
  key create --team <id> --kind secret|restricted|publishable|legacy [--environment development|production]
             [--name <name>] [--description <text>] [--permissions a,b] [--expires-at <ISO date>]
  key list --team <id>
  key revoke --team <id> --id <key id>
  session create --team <id> --email <user email> --roles admin,catalog:read,... [--environment ...] [--ttl-hours N]
  plan create --team <id> --name <name> [--tier <tier>] [--environment ...]
  feature create --team <id> --name <name> --key <featureKey> --type boolean|event|trait
                 [--event-key <key>] [--icon <icon>] [--description <text>] [--environment ...]
  entitlement set --team <id> --plan <id> --feature <id> --kind boolean|quota|credit|trait
                  [--enabled true|false] [--limit N --period day|week|month|lifetime] [--credits-per-use N]
                  [--trait-key k --trait-operator eq|neq|gt|gte|lt|lte --trait-value v] [--environment ...]
  override set --team <id> --company <id|external id|email> --feature <id> --kind boolean|quota|credit|trait
               [same options as entitlement set] [--environment ...]
  override remove --team <id> --company <id|external id|email> --feature <id> [--environment ...]
  company plan --team <id> --company <id|external id|email> --plan <id> [--environment ...]
  credit grant --team <id> --company <id|external id|email> --amount N [--reason <text>] [--expires-at <ISO date>] [--environment ...]

--environment defaults to development.`;

const OPTIONS = {
  name: { type: "string" }, team: { type: "string" }, kind: { type: "string" }, environment: { type: "string" },
  description: { type: "string" }, permissions: { type: "string" }, "expires-at": { type: "string" }, id: { type: "string" },
  email: { type: "string" }, roles: { type: "string" }, "ttl-hours": { type: "string" }, tier: { type: "string" },
  key: { type: "string" }, type: { type: "string" }, "event-key": { type: "string" }, icon: { type: "string" },
  plan: { type: "string" }, feature: { type: "string" }, enabled: { type: "string" }, limit: { type: "string" },
  period: { type: "string" }, "credits-per-use": { type: "string" }, "trait-key": { type: "string" },
  "trait-operator": { type: "string" }, "trait-value": { type: "string" }, company: { type: "string" },
  amount: { type: "string" }, reason: { type: "string" },
} as const;

type Opts = Partial<Record<keyof typeof OPTIONS, string>>;

class UsageError extends Error {}

const need = (o: Opts, name: keyof typeof OPTIONS): string => {
  const v = o[name];
  if (v === undefined || v === "") throw new UsageError(`--${name} is required`);
  return v;
};
const list = (v: string | undefined) => (v ? v.split(",").map((s) => s.trim()).filter(Boolean) : undefined);
const integer = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number`);
  return BigInt(v);
};
const date = (name: string, v: string | undefined) => {
  if (v === undefined) return null;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw new UsageError(`--${name} must be an ISO date`);
  return d;
};
function environment(o: Opts): Environment {
  const env = o.environment ?? "development";
  if (!(ENVIRONMENTS as readonly string[]).includes(env)) throw new UsageError("--environment must be development or production");
  return env as Environment;
}
const tenant = (o: Opts) => ({ teamId: need(o, "team"), environment: environment(o) });

/** The entitlement options shared by `entitlement set` (on a plan) and `override set` (for a company). */
function grant(o: Opts): Omit<EntitlementInput, "planId"> {
  const kind = need(o, "kind");
  if (!["boolean", "quota", "credit", "trait"].includes(kind)) throw new UsageError("--kind must be boolean, quota, credit or trait");
  if (o.enabled !== undefined && o.enabled !== "true" && o.enabled !== "false") throw new UsageError("--enabled must be true or false");
  return {
    featureId: need(o, "feature"), kind: kind as EntitlementInput["kind"],
    enabled: o.enabled === undefined ? true : o.enabled === "true",
    limit: integer("limit", o.limit), period: o.period as EntitlementInput["period"], creditsPerUse: integer("credits-per-use", o["credits-per-use"]),
    traitKey: o["trait-key"], traitOperator: o["trait-operator"] as EntitlementInput["traitOperator"], traitValue: o["trait-value"],
  };
}

async function dispatch(sql: Sql, command: string, o: Opts, baseUrl: string): Promise<unknown> {
  const now = systemClock.now();
  switch (command) {
    case "migrate":
      return migrate(sql);
    case "seed":
      return seed(sql, now, baseUrl);
    case "team create":
      return createTeam(sql, need(o, "name"));
    case "key create": {
      const kind = need(o, "kind");
      if (!(kind in KEY_TYPE_BY_KIND)) throw new UsageError("--kind must be secret, restricted, publishable or legacy");
      return createKey(sql, {
        teamId: need(o, "team"), environment: environment(o), type: KEY_TYPE_BY_KIND[kind as keyof typeof KEY_TYPE_BY_KIND],
        name: o.name ?? `${kind} key`, description: o.description ?? null, permissions: list(o.permissions), expiresAt: date("expires-at", o["expires-at"]),
      }, now);
    }
    case "key list":
      return { keys: await listKeys(sql, need(o, "team")) };
    case "key revoke":
      return revokeKey(sql, need(o, "team"), need(o, "id"));
    case "session create":
      return createDashboardSession(sql, {
        teamId: need(o, "team"), environment: environment(o), userEmail: need(o, "email"), roles: list(need(o, "roles")) ?? [],
        ttlHours: o["ttl-hours"] ? Number(o["ttl-hours"]) : undefined,
      }, now);
    case "plan create":
      return createPlan(sql, tenant(o), { name: need(o, "name"), tier: o.tier, description: o.description });
    case "feature create":
      return createFeature(sql, tenant(o), { name: need(o, "name"), featureKey: need(o, "key"), featureType: need(o, "type"), eventKey: o["event-key"], icon: o.icon, description: o.description });
    case "entitlement set":
      return setEntitlement(sql, tenant(o), { planId: need(o, "plan"), ...grant(o) });
    case "override set":
      return setOverride(sql, tenant(o), { company: need(o, "company"), ...grant(o) });
    case "override remove":
      return removeOverride(sql, tenant(o), { company: need(o, "company"), featureId: need(o, "feature") });
    case "company plan":
      return assignPlan(sql, tenant(o), need(o, "company"), need(o, "plan"));
    case "credit grant":
      return grantCredits(sql, tenant(o), { company: need(o, "company"), amount: integer("amount", need(o, "amount"))!, reason: o.reason, expiresAt: date("expires-at", o["expires-at"]) });
    default:
      throw new UsageError(`Unknown command '${command}'`);
  }
}

// bigint (credits, limits) prints as a string: exact, and valid JSON.
const toJson = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v instanceof Date ? v.toISOString() : v), 2);

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const command = positionals.slice(0, positionals[0] === "migrate" || positionals[0] === "seed" ? 1 : 2).join(" ");
  if (!command || command === "help") {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  const config = await loadConfig();
  const logger = new Logger("warn", (text) => process.stderr.write(text));
  const db = await connectDatabase(config, logger);
  // An interrupted command still stops the database it started (it runs in a session of its own, out of Ctrl-C's reach).
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void db.close().finally(() => process.exit(130)));
  try {
    if (command !== "migrate") await migrate(db.sql);
    const result = await dispatch(db.sql, command, values as Opts, `http://localhost:${config.port}/api/v1`);
    process.stdout.write(toJson(result) + "\n");
    return 0;
  } finally {
    await db.close();
    logger.flush();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    const message = error instanceof ApiError ? toJson(error.body()) : error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message}\n${error instanceof UsageError ? "\n" + USAGE + "\n" : ""}`);
    process.exit(1);
  },
);
