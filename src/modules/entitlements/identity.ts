/**
 * A metering batch whose requests carry identity writes (IdentityWrite in usage.ts): the writes, the
 * decision (meter_settle()) and the user ids set on the events it stored, in ONE transaction, so that
 * a request's event and who it is about commit together or not at all. Batches without such writes
 * (the hot path: companies and users known by id) never come here and stay one autocommitted statement.
 */
import type { TransactionSql } from "../../db/client";
import type { Change } from "../changes/publish";
import type { BatchSettlement, MeterRequest, MeterResult, WrittenIdentity } from "./usage";
import { apiError } from "../../lib/errors";
import { setEventUsers } from "./repo";

/**
 * An `ifAccepted` write failed after the batch was decided: its use is already counted in this
 * transaction, so the whole batch is undone, and the meter settles the rest again without it.
 */
export class RequestFailed extends Error {
  constructor(
    readonly index: number,
    readonly failure: unknown,
  ) {
    super("identity write of one metered request failed");
  }
}

type Decide = (tx: TransactionSql, requests: MeterRequest[]) => Promise<{ results: MeterResult[]; changes: Change[] }>;

export async function settleWithIdentity(
  tx: TransactionSql,
  requests: MeterRequest[],
  decide: Decide,
  isRetryable: (error: unknown) => boolean,
): Promise<BatchSettlement> {
  const written = new Map<number, WrittenIdentity>();
  const failed = new Map<number, unknown>();
  for (const [i, r] of requests.entries()) {
    if (r.identity?.when !== "before") continue;
    try {
      written.set(i, await tx.savepoint((sp) => r.identity!.write(sp)));
    } catch (error) {
      // A deadlock or a lost race is the batch's, not the request's: retried whole.
      if (isRetryable(error)) throw error;
      failed.set(i, error);
    }
  }
  const live = requests.flatMap((_, i) => (failed.has(i) ? [] : [i]));
  const withIds = live.map((i) => {
    const w = written.get(i);
    return w ? { ...requests[i]!, companyId: w.companyId, userId: w.userId } : requests[i]!;
  });
  const decided = withIds.length ? await decide(tx, withIds) : { results: [], changes: [] };

  const fix = { ids: [] as string[], users: [] as (string | null)[], teams: [] as string[], envs: [] as string[] };
  for (const [k, i] of live.entries()) {
    const r = requests[i]!;
    const result = decided.results[k]!;
    if (r.identity?.when !== "ifAccepted" || result.outcome !== "accepted" || result.replayed) continue;
    let w: WrittenIdentity;
    try {
      w = await r.identity.write(tx);
    } catch (error) {
      if (isRetryable(error)) throw error;
      throw new RequestFailed(i, error);
    }
    // The use was decided for one company; the write resolved the request's keys to another (a concurrent
    // merge or claim of a wallet or email). Its event would name the wrong company: undo it, let it retry.
    if (w.companyId !== result.companyId) {
      throw new RequestFailed(i, apiError("conflict", "The company this use names changed while it was recorded; retry the request"));
    }
    written.set(i, w);
    if (w.userId !== result.userId) {
      fix.ids.push(result.eventId);
      fix.users.push(w.userId);
      fix.teams.push(r.teamId);
      fix.envs.push(r.environment);
      result.userId = w.userId;
    }
  }
  if (fix.ids.length) await setEventUsers(tx, fix);

  const byIndex = new Map(live.map((i, k) => [i, decided.results[k]!]));
  const results = requests.map((_, i) => byIndex.get(i) ?? { error: failed.get(i) });
  return { results, changes: decided.changes, written: [...written.values()] };
}
