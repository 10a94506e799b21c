/**
 * The job queue's wiring: ONE registry of task handlers (every name of src/jobs/names.ts, each once: its
 * type says so), ONE list of schedules, and `startJobs`, which runs them in a process (the service's when
 * JOBS_IN_PROCESS, or `npm run worker`'s). To add a task: its name and payload in src/jobs/names.ts, its
 * handler here (the work itself belongs to its module); to run it on a schedule, a line in SCHEDULES.
 * Handlers may run more than once for one job (a retry after a failure, a job unlocked after its process
 * died): each is idempotent.
 */
import type { AppDeps } from "./app-deps";
import type { TaskName, TaskPayloads } from "./jobs/names";
import type { Schedule } from "./jobs/schedules";
import { scheduleJobKey } from "./jobs/schedules";
import { enqueueJob } from "./jobs/enqueue";
import { unlockStaleWorkers } from "./jobs/repo";
import { startJobRunner, type JobInfo, type JobRunner } from "./jobs/runner";
import { sweepOnce } from "./modules/payments/sweeper";
import { pruneExpiredKeys } from "./http/idempotency/repo";
import { pruneRefusedEvents } from "./modules/events/retention";
import { runAttempt } from "./modules/webhooks/deliveries/attempt";
import { deliverInvoice } from "./modules/invoices/deliveries/deliver";
import { verifyQueuedProof } from "./modules/invoices/payments/jobs";
import { markOverdueInvoices } from "./modules/invoices/lifecycle/overdue";
import { queueDueRenewals, revokeOnChain } from "./modules/subscriptions/renewal/jobs";
import { renewSubscription } from "./modules/subscriptions/renewal/renew";
import { reconcileSubscriptions } from "./modules/subscriptions/reconcile";
import { expireMandates } from "./modules/subscriptions/mandates/manage";
import { captureDue, captureOnProof, reconcileEscrow } from "./modules/escrow/jobs";
import { queueTopupTicks } from "./modules/agents/jobs";
import { tickNetwork } from "./modules/agents/monitor";
import { recoverDispatches } from "./modules/agents/recover";
import { claimLeaseMs } from "./modules/x402/compute";
import { reconcilePayments } from "./modules/x402/jobs";

/** What a handler gets: the app's dependencies (the same ones the routes use) and the job it runs. */
export type TaskContext = Pick<AppDeps, "sql" | "clock" | "logger" | "config" | "settlement" | "mailer" | "subscriptions"> & { job: JobInfo };

export type TaskHandler<P> = (payload: P, ctx: TaskContext) => Promise<void>;

export const TASKS: { [N in TaskName]: TaskHandler<TaskPayloads[N]> } = {
  async "payments.sweep_checkouts"(_payload, { settlement, clock, logger, config, sql }) {
    await sweepOnce(settlement, new Date(clock.now()), logger);
    // Schedules tick each minute; the sweeper's cadence is CHECKOUT_SWEEP_INTERVAL_MS (5 s): each sweep
    // queues the next one under the schedule's job key, so one sweep is pending across every instance.
    const every = config.checkoutSweepIntervalMs;
    if (every > 0 && every < 60_000) {
      await enqueueJob(
        sql,
        "payments.sweep_checkouts",
        {},
        { runAt: new Date(Date.now() + every), jobKey: scheduleJobKey("payments.sweep_checkouts") },
      );
    }
  },
  async "idempotency.prune_keys"(_payload, { sql, clock }) {
    await pruneExpiredKeys(sql, clock.now());
  },
  async "events.prune_refusals"(_payload, { sql, clock }) {
    await pruneRefusedEvents(sql, clock.now());
  },
  async "jobs.recover_stale"(_payload, { sql, config, logger }) {
    const workers = await unlockStaleWorkers(sql, config.jobWorkerStaleMs);
    if (workers.length) logger.warn("jobs of dead workers unlocked", { workers });
  },
  async "webhook.attempt"(payload, { sql, clock, logger, config }) {
    await runAttempt({ sql, clock, logger, config }, payload);
  },
  // Invoice deliveries: one attempt of an invoice email; a throw is retried by the queue.
  async "invoices.deliver"(payload, { sql, clock, logger, config, mailer, job }) {
    await deliverInvoice({ sql, clock, logger, config, mailer }, payload, job);
  },
  // Invoice payments
  async "invoices.verify_payment"(payload, { sql, clock, logger, settlement, job }) {
    await verifyQueuedProof({ sql, settlement, logger, now: () => new Date(clock.now()) }, payload, job);
  },
  // Invoices
  async "invoices.mark_overdue"(_payload, { sql, clock, logger }) {
    const { marked, failed } = await markOverdueInvoices(sql, logger, new Date(clock.now()));
    if (marked || failed.length) logger.info("invoices marked overdue", { marked, failed: failed.length });
  },
  // Subscriptions: one job per due subscription, so one slow chain call holds up no other renewal.
  async "subscriptions.renew_due"(_payload, { subscriptions, clock }) {
    await queueDueRenewals(subscriptions, new Date(clock.now()));
  },
  async "subscriptions.renew"(payload, { subscriptions, clock, logger }) {
    const tenant = { teamId: payload.teamId, environment: payload.environment };
    const outcome = await renewSubscription(subscriptions, tenant, payload.subscriptionId, new Date(clock.now()));
    if (outcome !== "skipped") logger.info("subscription renewal", { subscriptionId: payload.subscriptionId, outcome });
  },
  async "subscriptions.reconcile"(_payload, { subscriptions, clock, logger }) {
    const counts = await reconcileSubscriptions(subscriptions, logger, new Date(clock.now()));
    if (counts.landed || counts.failed) logger.info("subscription operations reconciled", counts);
  },
  async "subscriptions.revoke_onchain"(payload, { subscriptions }) {
    await revokeOnChain(subscriptions, { teamId: payload.teamId, environment: payload.environment }, payload.subscriptionId);
  },
  async "mandates.expire"(_payload, { subscriptions, clock, logger }) {
    const expired = await expireMandates(subscriptions, new Date(clock.now()));
    if (expired) logger.info("mandates expired", { expired });
  },
  // Escrow: the chain calls go through the same pool and EVM operator key as subscriptions.
  async "escrow.capture_due"(_payload, { subscriptions, clock, logger }) {
    const counts = await captureDue(subscriptions, new Date(clock.now()), logger);
    if (counts.captured || counts.failed) logger.info("escrow reservations captured", counts);
  },
  async "escrow.capture_on_proof"(payload, { subscriptions, clock, logger }) {
    const { teamId, environment, ...proof } = payload;
    const row = await captureOnProof({ ...subscriptions, logger }, { ...proof, tenant: { teamId, environment } }, new Date(clock.now()));
    if (row) logger.info("escrow reservation captured on a proof", { reservationId: row.id, proofId: proof.proofId, status: row.status });
  },
  async "escrow.reconcile"(_payload, { subscriptions, clock, logger }) {
    const counts = await reconcileEscrow(subscriptions, new Date(clock.now()), logger);
    if (counts.recorded || counts.released) logger.info("escrow calls reconciled", counts);
  },
  // x402: the same pool and EVM operator key; a claim is the job's once its request's lease ended.
  async "x402.reconcile"(_payload, { subscriptions, clock, config, logger }) {
    const counts = await reconcilePayments(subscriptions, { now: new Date(clock.now()), leaseMs: claimLeaseMs(config.chainJobTimeoutMs) });
    if (counts.settled || counts.failed) logger.info("x402 payments reconciled", counts);
  },
  // Auto-topup: one tick per network, each its own job; the chain workers and claims do the rest.
  async "agents.topup_monitor"(_payload, { sql }) {
    await queueTopupTicks(sql);
  },
  async "agents.topup_tick"(payload, { subscriptions, clock, config, logger }) {
    const deps = { ...subscriptions, now: () => new Date(clock.now()), batchSize: config.agentTopup.batchSize };
    const report = await tickNetwork(deps, payload.network);
    if (report.failedReads || Object.keys(report.outcomes).length) logger.info("agent top-up tick", { network: payload.network, ...report });
  },
  async "agents.topup_recover"(_payload, { subscriptions, clock, config, logger }) {
    const counts = await recoverDispatches({ ...subscriptions, now: () => new Date(clock.now()) }, config.agentTopup.recoverAfterMs);
    if (counts.confirmed || counts.failed) logger.info("agent top-ups recovered", counts);
  },
};

/** Every schedule, in UTC. Each tick runs once across every runner on the database. */
export function schedules(config: AppDeps["config"]): Schedule[] {
  return [
    // The sweep chain re-queues itself every CHECKOUT_SWEEP_INTERVAL_MS; this tick restarts it if it broke.
    ...(config.checkoutSweepIntervalMs > 0 ? [{ task: "payments.sweep_checkouts", cron: "* * * * *" } as const] : []),
    { task: "idempotency.prune_keys", cron: "*/10 * * * *" },
    { task: "events.prune_refusals", cron: "17 * * * *" },
    { task: "jobs.recover_stale", cron: "* * * * *" },
    // Invoices: an invoice turns OVERDUE within a minute of its due date.
    { task: "invoices.mark_overdue", cron: "* * * * *" },
    // Subscriptions: renewals and dunning retries within a minute of being due; lost chain answers
    // looked up each minute; mandates past their expiry ended each minute.
    { task: "subscriptions.renew_due", cron: "* * * * *" },
    { task: "subscriptions.reconcile", cron: "* * * * *" },
    { task: "mandates.expire", cron: "* * * * *" },
    // Escrow: reservations captured within a minute of their window's end; lost chain answers looked up each minute.
    { task: "escrow.capture_due", cron: "* * * * *" },
    { task: "escrow.reconcile", cron: "* * * * *" },
    // x402: settlements whose outcome was lost completed (or failed) from the chain each minute.
    { task: "x402.reconcile", cron: "* * * * *" },
    // Auto-topup: target balances read each minute, lost sends looked up each minute.
    { task: "agents.topup_monitor", cron: "* * * * *" },
    { task: "agents.topup_recover", cron: "* * * * *" },
  ];
}

/** Binds every handler to `deps`, as the runner calls them. */
export function jobHandlers(deps: Omit<TaskContext, "job">) {
  return Object.fromEntries(
    Object.entries(TASKS).map(([name, handler]) => [
      name,
      (payload: unknown, job: JobInfo) => (handler as TaskHandler<unknown>)(payload, { ...deps, job }),
    ]),
  ) as Record<TaskName, (payload: unknown, job: JobInfo) => Promise<void>>;
}

/** Starts this process's runner over the registry and the schedules, on the database at `url`. */
export function startJobs(deps: Omit<TaskContext, "job">, url: string, overrides: { schedules?: Schedule[] } = {}): Promise<JobRunner> {
  const { config } = deps;
  return startJobRunner({
    connectionString: url,
    sql: deps.sql,
    handlers: jobHandlers(deps),
    schedules: overrides.schedules ?? schedules(config),
    logger: deps.logger,
    concurrency: config.jobConcurrency,
    graceMs: config.jobShutdownGraceMs,
    staleMs: config.jobWorkerStaleMs,
  });
}
