/**
 * Every task the job queue runs, with the payload it takes: the one list `enqueueJob` and the schedules
 * name tasks from, and that the registry in src/tasks.ts must map, name for name, to a handler (its type
 * says so). It lives here, apart from the handlers, so that a module can enqueue a job without importing
 * the handlers, which import the modules (src/jobs imports no module).
 * A payload is JSON: strings and numbers, never bigint or Date (send ids and ISO strings).
 */
/** What graphile-worker adds to the payload of a job a schedule made: the tick it was made for. */
export interface CronPayload {
  _cron?: { ts: string; backfilled?: boolean };
}

export interface TaskPayloads {
  /** expires and re-verifies checkout sessions (src/modules/payments/sweeper.ts) */
  "payments.sweep_checkouts": CronPayload;
  /** deletes expired idempotency keys (src/http/idempotency/repo.ts) */
  "idempotency.prune_keys": CronPayload;
  /** deletes stored refusals past their retention (src/modules/events/retention.ts) */
  "events.prune_refusals": CronPayload;
  /** unlocks jobs held by workers whose process died (src/jobs/repo.ts) */
  "jobs.recover_stale": CronPayload;
  /** attempt `attempt` of one webhook delivery (src/modules/webhooks/deliveries/attempt.ts) */
  "webhook.attempt": { teamId: string; environment: "development" | "production"; deliveryId: string; attempt: number };
  // Invoice deliveries
  /** one attempt of one invoice email (src/modules/invoices/deliveries/deliver.ts); retried by the queue */
  "invoices.deliver": { teamId: string; environment: "development" | "production"; deliveryId: string };
  // Invoice payments
  /** verifies a submitted invoice payment proof that was not provable yet (src/modules/invoices/payments/jobs.ts) */
  "invoices.verify_payment": {
    teamId: string;
    environment: "development" | "production";
    invoiceId: string;
    network: string;
    txHash: string;
    /** who submitted it: the actor of what the job records */
    actor: { kind: string; id: string; requestId: string | null };
  };
  // Invoices
  /** marks ISSUED invoices past their due date OVERDUE (src/modules/invoices/lifecycle/overdue.ts) */
  "invoices.mark_overdue": CronPayload;
  // Subscriptions
  /** queues one renewal job per due subscription (src/modules/subscriptions/renewal/jobs.ts) */
  "subscriptions.renew_due": CronPayload;
  /** renews one subscription: its period's invoice, the pull through its mandate, dunning (src/modules/subscriptions/renewal/renew.ts) */
  "subscriptions.renew": { teamId: string; environment: "development" | "production"; subscriptionId: string };
  /** completes chain operations whose answer was lost, from the chain (src/modules/subscriptions/reconcile.ts) */
  "subscriptions.reconcile": CronPayload;
  /** revokes a subscription's token on chain after its mandate was revoked (src/modules/subscriptions/mandates/manage.ts) */
  "subscriptions.revoke_onchain": { teamId: string; environment: "development" | "production"; subscriptionId: string };
  /** marks mandates past their expiresAt EXPIRED (src/modules/subscriptions/mandates/manage.ts) */
  "mandates.expire": CronPayload;
  // Escrow
  /** captures authorized reservations whose challenge window ended (src/modules/escrow/jobs.ts) */
  "escrow.capture_due": CronPayload;
  /** captures early the reservation a verified zkTLS proof names (src/modules/escrow/jobs.ts); queued with the proof */
  "escrow.capture_on_proof": {
    teamId: string;
    environment: "development" | "production";
    proofId: string;
    /** the claim identifier (bytes32), named by the contract's Captured event */
    identifier: string;
    companyId: string | null;
    requestNonce: string;
    /** the claim's Reclaim provider: it captures only a reservation whose consent named it as the delivery provider */
    provider: string;
  };
  /** completes escrow calls whose answer was lost, from the chain (src/modules/escrow/jobs.ts) */
  "escrow.reconcile": CronPayload;
  // x402
  /** completes x402 settlements whose outcome was lost and no retry completed, from the chain (src/modules/x402/jobs.ts) */
  "x402.reconcile": CronPayload;
  // Auto-topup
  /** queues one monitor tick per network with enabled configurations (src/modules/agents/jobs.ts) */
  "agents.topup_monitor": CronPayload;
  /** reads a network's target balances, batched, and tops up those below their threshold (src/modules/agents/monitor.ts) */
  "agents.topup_tick": { network: string };
  /** settles dispatches whose send outcome was lost, from the chain (src/modules/agents/recover.ts) */
  "agents.topup_recover": CronPayload;
}

export type TaskName = keyof TaskPayloads;
