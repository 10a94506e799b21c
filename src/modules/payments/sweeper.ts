/**
 * The settlement sweeper, a queued job (`payments.sweep_checkouts`, src/tasks.ts) that re-queues itself every
 * CHECKOUT_SWEEP_INTERVAL_MS, one pending across every instance: each sweep expires open sessions whose time to
 * live has passed and verifies again the sessions waiting on a transaction (not final yet, not seen
 * yet, endpoint down). A payment submitted in time is honoured when it becomes final after the session's
 * deadline; a session still unproven CONFIRMATION_GRACE_MS after its deadline expires.
 * Instances share the work: each sweep claims the waiting sessions it verifies (skip-locked, marked as
 * checked), and a session is verified again only after a tenth of its age, between 5 s and 15 s
 * (sql/queries/checkout_session_list_due.sql). Every move still happens under the session's lock and
 * checks the state it moves from, so a session swept twice all the same is never moved twice.
 */
import type { Logger } from "../../lib/logger";
import { refuse } from "../../chains/types";
import type { Actor } from "../audit/repo";
import { listDueSessions, lockCheckoutSession, setSessionStatus } from "./repo";
import type { Tenant } from "../../lib/tenant";
import type { CheckoutSessionRow } from "./rows";
import { applyVerdict, bindToPayer, expectationOf, type SettlementDeps } from "./settle";
import type { Sql } from "../../db/client";

export const CONFIRMATION_GRACE_MS = 60 * 60 * 1000;
const BATCH = 50;
const SWEEPER: Actor = { kind: "system", id: "settlement-sweeper", requestId: null };

export interface SweepResult {
  expired: number;
  paid: number;
  failed: number;
  waiting: number;
}

export async function sweepOnce(deps: SettlementDeps, now: Date, logger?: Logger): Promise<SweepResult> {
  const result: SweepResult = { expired: 0, paid: 0, failed: 0, waiting: 0 };
  const due = await listDueSessions(deps.sql, now, BATCH);
  await Promise.all(
    due.map((row) =>
      sweepSession(deps, row, now)
        .then((moved) => void result[moved]++)
        // One session's failure (a lost race, a database hiccup) must not stop the others.
        .catch((error) =>
          logger?.warn("settlement sweep of a session failed", { sessionId: row.id, error: error instanceof Error ? error.message : String(error) }),
        ),
    ),
  );
  return result;
}

/** `session` as listed, unlocked: every move below re-checks its state under the session's lock. */
async function sweepSession(deps: SettlementDeps, session: CheckoutSessionRow, now: Date): Promise<keyof SweepResult> {
  const tenant: Tenant = { teamId: session.team_id, environment: session.environment };
  if (session.status === "PENDING") return (await expire(deps.sql, tenant, session.id, "PENDING", now, null)) ? "expired" : "waiting";
  if (!session.tx_hash) return "waiting";
  const network = deps.registry.get(session.network);
  const verdict = network
    ? await deps.pool.verifyPayment(expectationOf(session, network, session.tx_hash))
    : refuse("rpc_unavailable", `Network ${session.network} is no longer configured`);
  const outcome = await applyVerdict(deps, { tenant, actor: SWEEPER, now }, session.id, {
    txHash: session.tx_hash,
    verdict: network ? bindToPayer(verdict, session, network.family) : verdict,
  });
  if (outcome.kind === "paid" || outcome.kind === "failed") return outcome.kind;
  if (outcome.kind === "pending" && now.getTime() >= session.expires_at.getTime() + CONFIRMATION_GRACE_MS) {
    return (await expire(deps.sql, tenant, session.id, "CONFIRMING", now, outcome)) ? "expired" : "waiting";
  }
  return "waiting";
}

/** Moves a session from `from` to EXPIRED if it is still there; the last retryable reason is kept. */
async function expire(
  sql: Sql,
  tenant: Tenant,
  id: string,
  from: "PENDING" | "CONFIRMING",
  now: Date,
  last: { reason: string; detail: string } | null,
): Promise<boolean> {
  return sql.begin(async (tx) => {
    const session = await lockCheckoutSession(tx, tenant, id);
    if (!session || session.status !== from) return false;
    await setSessionStatus(tx, tenant, id, {
      status: "EXPIRED",
      txHash: from === "CONFIRMING" ? session.tx_hash : null,
      failureReason: last?.reason ?? null,
      failureDetail: last?.detail ?? null,
      at: now,
    });
    return true;
  });
}
