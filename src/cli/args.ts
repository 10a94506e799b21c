/**
 * Checks and conversions of option values, so nothing malformed reaches a service or SQL: whole numbers
 * within bigint's range, dates, closed lists of words. Each failure names the option.
 */
import { UsageError, type Args, type OptionSpec } from "./command";
import { ENVIRONMENTS, type Environment } from "../lib/tenant";

/** PostgreSQL bigint's ceiling: larger quantities would fail in SQL with the database's own message. */
export const BIGINT_MAX = 2n ** 63n - 1n;

export function wholeNumber(name: string, value: string, min = 0n): bigint {
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  const n = BigInt(value);
  if (n < min || n > BIGINT_MAX) throw new UsageError(`--${name} must be between ${min} and ${BIGINT_MAX}`);
  return n;
}

export const optionalWholeNumber = (name: string, value: string | undefined, min = 0n) =>
  value === undefined ? undefined : wholeNumber(name, value, min);

export function isoDate(name: string, value: string | undefined): Date | null {
  if (value === undefined) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new UsageError(`--${name} must be an ISO date`);
  return d;
}

export function oneOf<const T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of: ${allowed.join(", ")}`);
  return value as T;
}

export const list = (value: string | undefined) =>
  value
    ? value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

export const ENVIRONMENT_OPTION: Record<string, OptionSpec> = { environment: { value: ENVIRONMENTS.join("|"), help: "Default development" } };
export const TEAM_OPTION: Record<string, OptionSpec> = { team: { value: "<team id>", help: "team_…", required: true } };

export const tenant = (a: Args) => ({
  teamId: a.team!,
  environment: oneOf("environment", a.environment, ENVIRONMENTS) ?? ("development" as Environment),
});
