/**
 * The scheduled job invoices.mark_overdue: with the clock moved past due dates, the queue's run turns ISSUED
 * invoices OVERDUE (each audited, each sending invoice.overdue), leaves paid, void, draft and not-yet-due
 * ones alone, works across tenants and through a backlog larger than its batch.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs } from "../helpers/jobs";
import { inTx, invoiceInput, issuedInvoice, line, payInvoice } from "../helpers/invoices";
import { enqueueJob } from "../../src/jobs/enqueue";
import { schedules } from "../../src/tasks";
import { createInvoice, voidInvoice } from "../../src/modules/invoices/lifecycle/transitions";
import { markOverdueInvoices } from "../../src/modules/invoices/lifecycle/overdue";
import { createEndpoint } from "../../src/modules/webhooks/endpoints/manage";
import { OPERATOR } from "../../src/modules/teams/roles";
import type { Tenant } from "../../src/lib/tenant";

const t = await createTestApp();
const sql = t.db.sql;
const chains = t.config.chains;
const DAY = 86_400_000;
const USDC = 1_000_000n;

const statusOf = async (id: string) => (await sql`select status from invoices where id = ${id}`)[0]!.status as string;
const runJob = async () => {
  await enqueueJob(sql, "invoices.mark_overdue", {});
  // The webhook attempts the job queues stay unsent (this test reads the outbox; webhook tests send for real).
  const ran = await drainJobs(t, { "webhook.attempt": async () => {} });
  expect(ran.failed).toEqual([]);
  expect(ran.completed.map((j) => j.task)).toContain("invoices.mark_overdue");
};

test("invoices.mark_overdue runs every minute", () => {
  expect(schedules(t.config)).toContainEqual({ task: "invoices.mark_overdue", cron: "* * * * *" });
});

describe("the job with a moved clock", () => {
  test("ISSUED past dueAt -> OVERDUE (audited, invoice.overdue sent); paid, void, draft and not yet due stay", async () => {
    const team = await createTeamFixture(t);
    const tenant: Tenant = { teamId: team.teamId, environment: "development" };
    await createEndpoint({ sql, clock: t.clock, config: t.config }, tenant, OPERATOR, {
      url: "https://example.com/hook",
      eventTypes: ["invoice.overdue"],
    });
    const now = new Date(t.clock.now());
    const issue = (days: number) => issuedInvoice(sql, chains, tenant, now, [line(10n * USDC)], { paymentTermsDays: days });
    const [oneDay, week, partly, paid, voided] = [await issue(1), await issue(7), await issue(1), await issue(1), await issue(1)];
    await payInvoice(sql, chains, tenant, now, partly.id, 4n * USDC);
    await payInvoice(sql, chains, tenant, now, paid.id, 10n * USDC);
    await inTx(sql, chains, tenant, now, (c) => voidInvoice(c, voided.id));
    const draft = await inTx(sql, chains, tenant, now, (c) => createInvoice(c, invoiceInput([line(USDC)], { paymentTermsDays: 0 })));

    await runJob();
    expect(await statusOf(oneDay.id)).toBe("ISSUED"); // not due yet

    t.clock.advance(DAY + 1000);
    await runJob();
    expect([await statusOf(oneDay.id), await statusOf(partly.id), await statusOf(week.id)]).toEqual(["OVERDUE", "OVERDUE", "ISSUED"]);
    expect([await statusOf(paid.id), await statusOf(voided.id), await statusOf(draft.id)]).toEqual(["PAID", "VOID", "DRAFT"]);
    const audits = await sql`select resource_id, actor_kind, actor_id from audit_log where team_id = ${team.teamId} and action = 'invoice.overdue'`;
    expect(audits.map((a) => a.resource_id).sort()).toEqual([oneDay.id, partly.id].sort());
    expect(new Set(audits.map((a) => `${a.actor_kind}:${a.actor_id}`))).toEqual(new Set(["system:invoices.mark_overdue"]));
    const messages = await sql`select body from webhook_messages where team_id = ${team.teamId} and event_type = 'invoice.overdue'`;
    expect(messages.map((m) => JSON.parse(m.body).data.invoice.id).sort()).toEqual([oneDay.id, partly.id].sort());

    // Overdue, then paid: PAID. A second run changes nothing more.
    await payInvoice(sql, chains, tenant, new Date(t.clock.now()), partly.id, 6n * USDC);
    await runJob();
    expect(await statusOf(partly.id)).toBe("PAID");
    expect((await sql`select count(*)::int as n from audit_log where team_id = ${team.teamId} and action = 'invoice.overdue'`)[0]!.n).toBe(2);

    t.clock.advance(7 * DAY);
    await runJob();
    expect(await statusOf(week.id)).toBe("OVERDUE");
  });

  test("across tenants and through a backlog larger than one batch", async () => {
    const a = await createTeamFixture(t, "A");
    const b = await createTeamFixture(t, "B");
    const now = new Date(t.clock.now());
    const ids: string[] = [];
    for (const tenant of [
      { teamId: a.teamId, environment: "development" as const },
      { teamId: b.teamId, environment: "development" as const },
      { teamId: b.teamId, environment: "production" as const },
    ])
      for (let i = 0; i < 3; i++) ids.push((await issuedInvoice(sql, chains, tenant, now, [line(USDC)], { paymentTermsDays: 2 })).id);
    const later = new Date(now.getTime() + 3 * DAY);
    const result = await markOverdueInvoices(sql, t.logger, later, { batch: 2 });
    expect(result.failed).toEqual([]);
    expect(result.marked).toBeGreaterThanOrEqual(9); // these nine, and any other test's invoices due by then
    for (const id of ids) expect(await statusOf(id)).toBe("OVERDUE");
    expect((await markOverdueInvoices(sql, t.logger, later, { batch: 2 })).marked).toBe(0);
  });
});
