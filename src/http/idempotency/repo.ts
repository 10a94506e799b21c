/** The idempotency_keys table (migration 00011): claim, read, complete, release, prune. */
import { deleteInBatches, queries, run, runOne, type Db } from "../../db/queries";
import { RETENTION_MS, STALE_CLAIM_MS } from "./rules";
import { type Environment } from "../../lib/tenant";

const Q = queries([
  "idempotency_key_claim",
  "idempotency_key_find",
  "idempotency_key_complete",
  "idempotency_key_release",
  "idempotency_key_prune_expired",
]);

/** Where a key lives: a team's environment, one credential of it, the key. */
export interface KeySlot {
  teamId: string;
  environment: Environment;
  /** the credential id (API key, embed token or dashboard session) */
  scope: string;
  key: string;
}

export interface HeldKey {
  fingerprint: string;
  status: "in_progress" | "complete";
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Uint8Array<ArrayBuffer> | null;
}

const slotParams = (s: KeySlot) => [s.teamId, s.environment, s.scope, s.key] as const;

/** True when `claim` now holds the key: the caller runs the request and must complete or release it. */
export async function claimKey(db: Db, slot: KeySlot, attempt: { claim: string; fingerprint: string; now: number }): Promise<boolean> {
  const { claim, fingerprint, now } = attempt;
  const params = [...slotParams(slot), claim, fingerprint, new Date(now), new Date(now + RETENTION_MS), new Date(now - STALE_CLAIM_MS)];
  return (await runOne(db, Q.idempotency_key_claim, params)) !== undefined;
}

export const findKey = (db: Db, slot: KeySlot) => runOne<HeldKey>(db, Q.idempotency_key_find, slotParams(slot));

/** Keeps the response `claim` produced for the key, for replays. */
export async function completeKey(
  db: Db,
  slot: KeySlot,
  kept: { claim: string; status: number; headers: Record<string, string>; body: Uint8Array },
): Promise<void> {
  await run(db, Q.idempotency_key_complete, [...slotParams(slot), kept.claim, kept.status, kept.headers, kept.body]);
}

export async function releaseKey(db: Db, slot: KeySlot, claim: string): Promise<void> {
  await run(db, Q.idempotency_key_release, [...slotParams(slot), claim]);
}

const PRUNE_BATCH = 1000;

/** Deletes every key expired at `now`, a short statement per batch; returns how many. */
export const pruneExpiredKeys = (db: Db, now: number): Promise<number> =>
  deleteInBatches(db, Q.idempotency_key_prune_expired, [new Date(now)], PRUNE_BATCH);
