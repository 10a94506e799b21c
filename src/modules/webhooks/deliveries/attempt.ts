/**
 * The `webhook.attempt` task: attempt n of one delivery. Each attempt is signed afresh (a new
 * `webhook-timestamp`, the same `webhook-id`) and POSTs the message's exact stored body.
 *
 * Once per attempt: attempt n is claimed by inserting its row, keyed by (delivery, attempt), before the
 * request; a second run of the same job (two instances, a retried job) finds the row and sends nothing.
 * A claim whose worker died mid-request lapses after the request timeout plus JOB_WORKER_STALE_MS (the
 * silence after which the job queue, too, takes a worker for dead), so a crash never loses an attempt (it
 * may be sent twice then: at least once, as Standard Webhooks asks receivers to expect).
 *
 * Outcome: 2xx delivers. Otherwise the next attempt is queued on the schedule (schedule.ts); a 410 Gone
 * disables the endpoint at once; the last attempt failing fails the delivery, and when no delivery to the
 * endpoint has succeeded since that delivery's first attempt (about a day of failures) the endpoint is
 * disabled and the operator told: a notification row (GET /dashboard/webhooks/notifications), an audit
 * entry (`webhook_endpoint.disable`) and a warning in the log.
 */
import type { Sql } from "../../../db/client";
import type { Db } from "../../../db/queries";
import type { Clock } from "../../../lib/clock";
import type { Logger } from "../../../lib/logger";
import { newId, randomToken } from "../../../lib/ids";
import type { Environment, Tenant } from "../../../lib/tenant";
import { recordAudit, type Actor } from "../../audit/repo";
import { enqueueAttempt } from "../emit";
import { postWebhook } from "./outbound";
import {
  claimAttempt,
  finishAttempt,
  insertNotification,
  loadAttemptTarget,
  recordDelivery,
  skipDelivery,
  succeededSince,
  type AttemptOutcome,
  type AttemptTarget,
} from "./repo";
import { type DeliveryStatus } from "./rows";
import { disableEndpointRow } from "../endpoints/repo";
import { MAX_ATTEMPTS, retryDelayMs } from "./schedule";
import { openSecret, type SealingKeys } from "../signing/secrets";
import { signHeaders } from "../signing/sign";
import { auditedUrl } from "../endpoints/validate";

export interface AttemptPayload {
  teamId: string;
  environment: Environment;
  deliveryId: string;
  attempt: number;
}

export interface WebhookConfig extends SealingKeys {
  webhookAllowPrivateAddresses: boolean;
  webhookTimeoutMs: number;
  /** a claim holds this long past the request's timeout (the job queue's own test of a dead worker) */
  jobWorkerStaleMs: number;
}

export interface AttemptDeps {
  sql: Sql;
  clock: Clock;
  logger: Logger;
  config: WebhookConfig;
  /** [0, 1): the jitter of the retry schedule */
  random?: () => number;
}

/** Who disables an endpoint on its own: the delivery worker. */
export const WEBHOOK_WORKER: Actor = { kind: "system", id: "webhooks", requestId: null };

/** Secrets that sign now: the current one, and the previous one until its overlap ends. */
export async function signingSecrets(
  keys: SealingKeys,
  target: Pick<AttemptTarget, "secret_sealed" | "previous_secret_sealed" | "previous_expires_at">,
  now: number,
) {
  const secrets = [await openSecret(keys, target.secret_sealed)];
  if (target.previous_secret_sealed && target.previous_expires_at && target.previous_expires_at.getTime() > now)
    secrets.push(await openSecret(keys, target.previous_secret_sealed));
  return secrets;
}

export async function runAttempt(deps: AttemptDeps, payload: AttemptPayload): Promise<void> {
  const tenant: Tenant = { teamId: payload.teamId, environment: payload.environment };
  const { deliveryId, attempt } = payload;
  const target = await loadAttemptTarget(deps.sql, tenant, deliveryId);
  // Deleted with its endpoint, already settled, or this attempt already recorded by another run.
  if (!target || target.status !== "pending" || target.attempts >= attempt) return;
  if (!target.enabled) {
    await skipDelivery(deps.sql, tenant, deliveryId, { reason: "Endpoint disabled", now: new Date(deps.clock.now()) });
    return;
  }
  const claim = randomToken(16);
  const held = await claimAttempt(
    deps.sql,
    tenant,
    { deliveryId, attempt, claim },
    {
      now: new Date(deps.clock.now()),
      // Past the request's timeout, a run still silent after JOB_WORKER_STALE_MS has died (the job queue
      // unlocks its job by the same rule): another run may take the attempt over and send it.
      leaseMs: deps.config.webhookTimeoutMs + deps.config.jobWorkerStaleMs,
    },
  );
  if (held === "finished") return;
  // Another run is sending it right now: fail this run so the queue retries it after that one has finished.
  if (held === "other") throw new Error(`Attempt ${attempt} of ${deliveryId} is in flight in another worker`);
  const secrets = await signingSecrets(deps.config, target, deps.clock.now());
  // The wall clock, not the service clock: receivers check the timestamp against theirs.
  const headers = signHeaders(target.message_id, target.body, secrets, new Date());
  const outcome = await postWebhook(
    target.url,
    target.body,
    { ...headers },
    {
      allowPrivateAddresses: deps.config.webhookAllowPrivateAddresses,
      timeoutMs: deps.config.webhookTimeoutMs,
    },
  );
  await settle(deps, tenant, target, attempt, claim, outcome);
}

const isSuccess = (o: AttemptOutcome) => o.statusCode !== null && o.statusCode >= 200 && o.statusCode < 300;

/** Records the attempt and decides what follows, in one transaction. */
async function settle(deps: AttemptDeps, tenant: Tenant, target: AttemptTarget, attempt: number, claim: string, outcome: AttemptOutcome) {
  const now = new Date(deps.clock.now());
  let disabledFor: string | null = null;
  await deps.sql.begin(async (tx) => {
    // Our claim lapsed and another run took the attempt over: it records it, not us.
    if (!(await finishAttempt(tx, tenant, { deliveryId: target.id, attempt, claim }, { ...outcome, at: now }))) return;
    const gone = outcome.statusCode === 410;
    const delay = isSuccess(outcome) || gone ? null : retryDelayMs(attempt, (deps.random ?? Math.random)());
    const status: DeliveryStatus = isSuccess(outcome) ? "delivered" : delay === null ? "failed" : "pending";
    const next = delay === null ? null : new Date(now.getTime() + delay);
    const row = await recordDelivery(tx, tenant, { id: target.id, attempt, status, outcome, nextAttemptAt: next, at: now });
    if (next) await enqueueAttempt({ tx, tenant }, target.id, attempt + 1, next);
    if (gone) disabledFor = "The endpoint answered 410 Gone";
    else if (status === "failed" && attempt >= MAX_ATTEMPTS && !(await succeededSince(tx, tenant, target.endpoint_id, row!.first_attempt_at)))
      disabledFor = `Every attempt of delivery ${target.id} failed (${MAX_ATTEMPTS} over about a day) and nothing was delivered to the endpoint since`;
    if (disabledFor && !(await disableEndpoint(tx, tenant, target, disabledFor, now))) disabledFor = null;
  });
  if (disabledFor)
    deps.logger.warn("webhook endpoint disabled", {
      teamId: tenant.teamId,
      environment: tenant.environment,
      endpointId: target.endpoint_id,
      reason: disabledFor,
    });
}

/** Disables the endpoint and tells the operator; false when it was no longer enabled. */
async function disableEndpoint(tx: Db, tenant: Tenant, target: AttemptTarget, reason: string, now: Date): Promise<boolean> {
  if (!(await disableEndpointRow(tx, tenant, target.endpoint_id, { reason, now }))) return false;
  const details = { reason, deliveryId: target.id, url: auditedUrl(target.url) };
  await insertNotification(
    tx,
    tenant,
    {
      id: newId("ntf"),
      kind: "webhook_endpoint.disabled",
      resourceType: "webhook_endpoint",
      resourceId: target.endpoint_id,
      message: `Webhook endpoint ${target.url} was disabled: ${reason}. Fix it, then re-enable it (PATCH enabled: true) and replay what it missed.`,
      details,
    },
    now,
  );
  await recordAudit(tx, {
    ...tenant,
    actor: WEBHOOK_WORKER,
    action: "webhook_endpoint.disable",
    resourceType: "webhook_endpoint",
    resourceId: target.endpoint_id,
    details,
  });
  return true;
}
