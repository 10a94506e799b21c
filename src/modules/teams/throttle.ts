/**
 * Failed-sign-in throttle, in PostgreSQL so every instance counts the same failures: at most 5 failures
 * per account (email, whatever its case, known or not) and 20 per client address in a sliding 15 minutes.
 * Past either, sign-in answers 429 `sign_in_throttled` with Retry-After (when the oldest counted failure
 * leaves the window) before any password is checked. A success forgets the account's failures, never the
 * address's (an attacker holding one account's password cannot reset the count for the others).
 * A burst cannot slip past the limits: each attempt first takes its scopes' locks, counts, and holds a
 * failure under each scope before its password is checked (`holdAttempt`), so the sixth of six parallel
 * guesses already sees five; a right password lets its held failures go (`releaseAttempt`).
 */
import type { Db } from "../../db/queries";
import type { Sql } from "../../db/client";
import { apiError } from "../../lib/errors";
import { clearSignInFailures, countSignInFailures, insertSignInFailures, lockSignInScopes, releaseSignInFailures } from "./repo";

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const ACCOUNT_FAILURE_LIMIT = 5;
export const ADDRESS_FAILURE_LIMIT = 20;

export interface ThrottleScopes {
  account: string;
  address: string;
}

export const throttleScopes = (email: string, address: string): ThrottleScopes => ({
  account: `account:${email.trim().toLowerCase()}`,
  address: `address:${address}`,
});

export async function assertNotThrottled(db: Db, scopes: ThrottleScopes, now: number): Promise<void> {
  const rows = await countSignInFailures(db, [scopes.account, scopes.address], new Date(now - SIGN_IN_WINDOW_MS));
  for (const row of rows) {
    const limit = row.scope === scopes.account ? ACCOUNT_FAILURE_LIMIT : ADDRESS_FAILURE_LIMIT;
    if (row.failures < limit) continue;
    const retryAfter = Math.max(1, Math.ceil((row.oldest.getTime() + SIGN_IN_WINDOW_MS - now) / 1000));
    throw apiError("sign_in_throttled", "Too many failed sign-ins; try again later", undefined, { "retry-after": String(retryAfter) });
  }
}

/**
 * Checks the limits and, when under them, holds this attempt as a failure under each scope, in one short
 * transaction under the scopes' locks. Returns the held rows for `releaseAttempt`; throws the 429 otherwise.
 */
export async function holdAttempt(sql: Sql, scopes: ThrottleScopes, now: number): Promise<bigint[]> {
  return sql.begin(async (tx) => {
    await lockSignInScopes(tx, [scopes.account, scopes.address]);
    await assertNotThrottled(tx, scopes, now);
    const held = await insertSignInFailures(tx, [scopes.account, scopes.address], new Date(now), new Date(now - SIGN_IN_WINDOW_MS));
    return held.map((r) => BigInt(r.id));
  });
}

/** The password was right: the attempt's held failures go (the address's earlier ones stay). */
export async function releaseAttempt(db: Db, held: readonly bigint[]): Promise<void> {
  await releaseSignInFailures(db, held.map(String));
}

export async function recordFailure(db: Db, scopes: ThrottleScopes, now: number): Promise<void> {
  await insertSignInFailures(db, [scopes.account, scopes.address], new Date(now), new Date(now - SIGN_IN_WINDOW_MS));
}

export async function forgetAccountFailures(db: Db, scopes: ThrottleScopes): Promise<void> {
  await clearSignInFailures(db, scopes.account);
}
