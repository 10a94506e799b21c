/**
 * POST /dashboard/invoices/{id}/send with SMTP configured (smtp-server in process): the default email to the
 * customer or to `to`, sent like the issue's and audited; a paid invoice says nothing is due; drafts and void
 * invoices refused (409), other teams' invoices not found (404), bad input refused (400) with nothing written,
 * and the role it needs (billing:write).
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs } from "../helpers/jobs";
import { inTx, invoiceInput, line, payInvoice } from "../helpers/invoices";
import { startSmtpServer } from "../helpers/smtp";
import { createInvoice, voidInvoice, type InvoiceInput } from "../../src/modules/invoices/lifecycle/transitions";
import type { LineInput } from "../../src/modules/invoices/compute";
import { invoiceDetail } from "../../src/modules/invoices/present";
import { findInvoice } from "../../src/modules/invoices/repo";
import type { Tenant } from "../../src/lib/tenant";

const smtp = await startSmtpServer();
afterAll(() => smtp.stop());
const t = await createTestApp({ SMTP_URL: smtp.url });
const sql = t.db.sql;
const chains = t.config.chains;
const USDC = 1_000_000n;
const now = new Date("2026-03-01T10:00:00.000Z");

beforeEach(() => {
  smtp.arrived.length = 0;
});

const issue = (tenant: Tenant, lines: LineInput[] = [line(12_500_000n)], extra: Partial<InvoiceInput> = {}) =>
  inTx(sql, chains, tenant, now, (c) => createInvoice(c, invoiceInput(lines, extra), { issue: true }), { emailEnabled: true });
const deliveriesOf = async (tenant: Tenant, id: string) => (await invoiceDetail(sql, tenant, (await findInvoice(sql, tenant, id))!)).deliveries;

describe("POST /dashboard/invoices/{id}/send", () => {
  const sendAs = (token: string, id: string, body?: unknown) => t.call("POST", `/dashboard/invoices/${id}/send`, { token, body });

  test("202: by default an email to the customer, queued and sent like the issue's; `to` sends elsewhere; audited", async () => {
    const team = await createTeamFixture(t, "Fixture team");
    const tenant: Tenant = { teamId: team.teamId, environment: "development" };
    const invoice = await issue(tenant);
    await drainJobs(t);
    smtp.arrived.length = 0;
    const again = await sendAs(team.dashboardAdmin, invoice.id);
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual([
      expect.objectContaining({ channel: "email", destination: "buyer@example.com", trigger: "manual", status: "PENDING", attempts: 0 }),
    ]);
    const other = await sendAs(team.dashboardAdmin, invoice.id, { to: "accounts@buyer.example" });
    expect(other.body.data[0]).toMatchObject({ destination: "accounts@buyer.example", trigger: "manual" });
    await drainJobs(t);
    expect(smtp.arrived.map((a) => a.envelope.to[0]).sort()).toEqual(["accounts@buyer.example", "buyer@example.com"]);
    // No invoice settings: the team's name is the seller; From falls back to invoices@<SMTP host>.
    expect(smtp.arrived[0]!.mail.subject).toBe(`Invoice ${invoice.number} from Fixture team`);
    expect(smtp.arrived[0]!.envelope.from).toBe("invoices@127.0.0.1");
    // Without PUBLIC_BASE_URL the email carries no link; the PDF is attached.
    expect(smtp.arrived[0]!.mail.text).not.toContain("invoice-documents");
    expect(smtp.arrived[0]!.mail.attachments.map((f) => f.filename)).toEqual([`${invoice.number}.pdf`]);
    expect((await deliveriesOf(tenant, invoice.id)).map((d) => [d.trigger, d.status])).toEqual([
      ["issue", "SENT"],
      ["manual", "SENT"],
      ["manual", "SENT"],
    ]);
    const audit = await sql`select action, details from audit_log where team_id = ${tenant.teamId} and action = 'invoice.send' order by chain_seq`;
    expect(audit.map((a) => a.details.channel)).toEqual(["email", "email"]);
    expect(audit[0]!.details.deliveryIds).toEqual([again.body.data[0].id]);
  });

  test("a paid invoice can be sent and says nothing is due; drafts and void invoices cannot (409), unknown ids and other teams' are 404", async () => {
    const team = await createTeamFixture(t);
    const tenant: Tenant = { teamId: team.teamId, environment: "development" };
    const paid = await issue(tenant, [line(3n * USDC)]);
    await payInvoice(sql, chains, tenant, now, paid.id, 3n * USDC);
    await drainJobs(t);
    smtp.arrived.length = 0;
    expect((await sendAs(team.dashboardAdmin, paid.id)).status).toBe(202);
    await drainJobs(t);
    expect(smtp.arrived[0]!.mail.text).toContain("Paid on 2026-03-01: nothing is due.");
    const draft = await inTx(sql, chains, tenant, now, (c) => createInvoice(c, invoiceInput([line(USDC)])));
    const voided = await inTx(sql, chains, tenant, now, async (c) => voidInvoice(c, (await createInvoice(c, invoiceInput([line(USDC)]))).id));
    for (const id of [draft.id, voided.id]) {
      const refused = await sendAs(team.dashboardAdmin, id);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("invoice_not_sendable");
    }
    const stranger = await createTeamFixture(t);
    expect((await sendAs(stranger.dashboardAdmin, paid.id)).status).toBe(404);
    expect((await sendAs(team.dashboardAdmin, "in_unknown")).status).toBe(404);
    expect(await deliveriesOf(tenant, draft.id)).toEqual([]);
  });

  test("400 and nothing written: a malformed `to`, `to` with the webhook channel, an unknown channel, no address to send to", async () => {
    const team = await createTeamFixture(t);
    const tenant: Tenant = { teamId: team.teamId, environment: "development" };
    const invoice = await issue(tenant, undefined, { customerEmail: null });
    const cases: [unknown, string][] = [
      [{ to: "not an email" }, "body.to"],
      [{ channel: "webhook", to: "a@b.example" }, "body.to"],
      [{ channel: "fax" }, "body.channel"],
      [{}, "body.to"],
    ];
    for (const [body, field] of cases) {
      const refused = await sendAs(team.dashboardAdmin, invoice.id, body);
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.details)).toContain(field);
    }
    expect(await deliveriesOf(tenant, invoice.id)).toEqual([]);
  });

  test("400 and nothing written: a `to` or a customer email that is more than one address (a list reaches every address on it)", async () => {
    const team = await createTeamFixture(t);
    const tenant: Tenant = { teamId: team.teamId, environment: "development" };
    const invoice = await issue(tenant, undefined, { customerEmail: "buyer@example.com, thief@evil.example" });
    const before = await deliveriesOf(tenant, invoice.id);
    for (const body of [{}, { to: "a@b.example, c@d.example" }, { to: "Buyer <buyer@example.com>" }]) {
      const refused = await sendAs(team.dashboardAdmin, invoice.id, body);
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.details)).toEqual(["body.to"]);
    }
    expect(await deliveriesOf(tenant, invoice.id)).toEqual(before);
    expect((await sendAs(team.dashboardAdmin, invoice.id, { to: "buyer@example.com" })).status).toBe(202);
  });

  test("a dashboard session without billing:write is refused (403)", async () => {
    const team = await createTeamFixture(t);
    const invoice = await issue({ teamId: team.teamId, environment: "development" });
    const refused = await sendAs(team.dashboardCatalog, invoice.id);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("missing_permission");
  });
});
