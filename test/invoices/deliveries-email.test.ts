/**
 * Invoices by email, over a real SMTP exchange (smtp-server in process, read back with mailparser): the
 * email queued in the issuing transaction, sent by the `invoices.deliver` job with the right subject, body
 * and link; refusals retried by the queue (attempts and last error recorded) until accepted or, after the
 * last attempt, FAILED; permanent refusals and voided invoices failed at once; the SMTP password never
 * written anywhere.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { extractText, getDocumentProxy } from "unpdf";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs, makeJobsDue, queuedJobs } from "../helpers/jobs";
import { inTx, invoiceInput, line } from "../helpers/invoices";
import { SMTP_PASSWORD, startSmtpServer } from "../helpers/smtp";
import { createInvoice, voidInvoice } from "../../src/modules/invoices/lifecycle/transitions";
import { invoiceDetail } from "../../src/modules/invoices/present";
import { findInvoice } from "../../src/modules/invoices/repo";
import { verifyDocumentToken } from "../../src/modules/invoices/documents/tokens";
import { EMAIL_MAX_ATTEMPTS } from "../../src/modules/invoices/deliveries/queue";
import { deliverInvoice, EMAIL_LINK_TTL_SECONDS } from "../../src/modules/invoices/deliveries/deliver";
import { Mailer } from "../../src/modules/invoices/deliveries/mailer";
import type { InvoiceInput } from "../../src/modules/invoices/lifecycle/transitions";
import type { LineInput } from "../../src/modules/invoices/compute";
import type { Tenant } from "../../src/lib/tenant";

const smtp = await startSmtpServer();
afterAll(() => smtp.stop());
const PUBLIC_BASE_URL = "https://billing.example.test";
const t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_BASE_URL });
const sql = t.db.sql;
const chains = t.config.chains;
const USDC = 1_000_000n;
const now = new Date("2026-03-01T10:00:00.000Z");

beforeEach(() => {
  smtp.refuse = null;
  smtp.arrived.length = 0;
});

async function newTenant(settings: { email_on_issue?: boolean; seller_email?: string | null } = {}): Promise<Tenant> {
  const team = await createTeamFixture(t, "Fixture team");
  const tenant: Tenant = { teamId: team.teamId, environment: "development" };
  await sql`insert into invoice_settings (team_id, environment, seller_name, seller_email, footer, email_on_issue)
            values (${tenant.teamId}, 'development', 'Seller Co', ${settings.seller_email === undefined ? "accounts@seller.example" : settings.seller_email},
                    'Thank you for your business.', ${settings.email_on_issue ?? true})`;
  return tenant;
}

const issue = (tenant: Tenant, lines: LineInput[] = [line(12_500_000n, 1n, 0n, "Pro plan, March")], extra: Partial<InvoiceInput> = {}) =>
  inTx(sql, chains, tenant, now, (c) => createInvoice(c, invoiceInput(lines, extra), { issue: true }), { emailEnabled: true });

const deliveriesOf = async (tenant: Tenant, id: string) => (await invoiceDetail(sql, tenant, (await findInvoice(sql, tenant, id))!)).deliveries;

/** Runs the due jobs, then brings the next retry forward; returns the invoices.deliver runs. */
async function attemptNow() {
  const ran = await drainJobs(t);
  await makeJobsDue(sql);
  return ran;
}

describe("on issue", () => {
  test("one email to the customer: subject, amounts, due date, link; SENT with one attempt, listed in the detail", async () => {
    const tenant = await newTenant();
    const invoice = await issue(tenant, [line(10n * USDC, 2n, 0n, "Seats"), line(2_500_000n, 1n, 100_000n, "Support")]);
    const [queued] = await deliveriesOf(tenant, invoice.id);
    expect(queued).toMatchObject({ channel: "email", destination: "buyer@example.com", trigger: "issue", status: "PENDING", attempts: 0 });
    expect((await queuedJobs(sql)).filter((j) => j.task === "invoices.deliver" && (j.payload as any).deliveryId === queued!.id)).toHaveLength(1);

    await drainJobs(t);
    expect(smtp.arrived).toHaveLength(1);
    const { envelope, mail } = smtp.arrived[0]!;
    expect(envelope.to).toEqual(["buyer@example.com"]);
    // From the operator's address (no SMTP_FROM here: invoices@<SMTP host>) in the seller's name; replies to the seller.
    expect(envelope.from).toBe("invoices@127.0.0.1");
    expect(mail.subject).toBe(`Invoice ${invoice.number} from Seller Co`);
    expect(mail.from!.value[0]).toEqual({ name: "Seller Co", address: "invoices@127.0.0.1" });
    expect(mail.replyTo!.value[0]).toEqual({ name: "Seller Co", address: "accounts@seller.example" });
    // 20 + 2.5 + 10% tax on 2.5 = 22.75
    expect(mail.text).toContain("Amount due: 22.750000 USDC, due on 2026-03-31.");
    expect(mail.text).toContain("Seats: 2 x 10.000000 = 20.000000 USDC");
    expect(mail.text).toContain("Tax: 0.250000 USDC");
    expect(mail.text).toContain("Thank you for your business.");
    expect(mail.html).toContain("<td");
    expect(mail.html).toContain("22.750000 USDC");
    // The link is a document link for this invoice's PDF, valid 90 days from the send.
    const link = /https:\/\/billing\.example\.test\/api\/v1\/invoice-documents\/(\S+)/.exec(mail.text!)!;
    expect(link).not.toBeNull();
    const claims = verifyDocumentToken(t.config.linkSigningSecret, link[1]!, new Date(t.clock.now() + (EMAIL_LINK_TTL_SECONDS - 60) * 1000));
    expect(claims).toEqual({ tenant, invoiceId: invoice.id, kind: "pdf" });
    expect(mail.html).toContain(`href="${link[0]}"`);
    // The PDF is attached: a PDF document that names the invoice, its customer and its total.
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([[`${invoice.number}.pdf`, "application/pdf"]]);
    const pdf = new Uint8Array(mail.attachments[0]!.content);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
    const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
    expect(text).toContain(invoice.number);
    expect(text).toContain("buyer@example.com");
    expect(text).toContain("22.750000");

    const [sent] = await deliveriesOf(tenant, invoice.id);
    expect(sent).toMatchObject({ id: queued!.id, status: "SENT", attempts: 1, lastError: null });
    expect(sent!.sentAt).not.toBeNull();
    // Run again: nothing more is sent.
    expect((await drainJobs(t)).completed).toHaveLength(0);
    expect(smtp.arrived).toHaveLength(1);
  });

  test("HTML escapes what the seller and customer wrote", async () => {
    const tenant = await newTenant();
    await issue(tenant, [line(USDC, 1n, 0n, "<script>alert(1)</script> & more")]);
    await drainJobs(t);
    expect(smtp.arrived[0]!.mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more");
    expect(smtp.arrived[0]!.mail.html).not.toContain("<script>");
  });

  test("no email row: email_on_issue off, no customer email, or a process without SMTP", async () => {
    const off = await newTenant({ email_on_issue: false });
    expect(await deliveriesOf(off, (await issue(off)).id)).toEqual([]);
    const tenant = await newTenant();
    expect(await deliveriesOf(tenant, (await issue(tenant, undefined, { customerEmail: null })).id)).toEqual([]);
    const noSmtp = await inTx(sql, chains, tenant, now, (c) => createInvoice(c, invoiceInput([line(USDC)]), { issue: true }));
    expect(await deliveriesOf(tenant, noSmtp.id)).toEqual([]);
  });

  test("an issue that rolls back leaves no delivery and no job", async () => {
    const tenant = await newTenant();
    const jobsBefore = (await queuedJobs(sql)).length;
    await expect(
      inTx(
        sql,
        chains,
        tenant,
        now,
        async (c) => {
          await createInvoice(c, invoiceInput([line(USDC)]), { issue: true });
          throw new Error("rolled back");
        },
        { emailEnabled: true },
      ),
    ).rejects.toThrow("rolled back");
    expect((await sql`select count(*)::int as n from invoice_deliveries where team_id = ${tenant.teamId}`)[0]!.n).toBe(0);
    expect((await queuedJobs(sql)).length).toBe(jobsBefore);
  });
});

describe("who it is from and to", () => {
  test("From is SMTP_FROM, never the address a tenant typed into its settings; that one is the Reply-To", async () => {
    const tenant = await newTenant({ seller_email: "ceo@bank.example" });
    const invoice = await issue(tenant);
    const [row] = await deliveriesOf(tenant, invoice.id);
    const deps = { ...t.deps, config: { ...t.deps.config, smtpFrom: "billing@operator.example" } };
    await deliverInvoice(deps, { ...tenant, deliveryId: row!.id }, { attempt: 1, maxAttempts: EMAIL_MAX_ATTEMPTS });
    const { envelope, mail } = smtp.arrived[0]!;
    expect(envelope.from).toBe("billing@operator.example");
    expect(mail.from!.value).toEqual([{ name: "Seller Co", address: "billing@operator.example" }]);
    expect(mail.replyTo!.value).toEqual([{ name: "Seller Co", address: "ceo@bank.example" }]);
    expect(mail.headers.get("sender")).toBeUndefined();
  });

  test("a customer email that is a list is not sent to anyone: FAILED at once, saying why", async () => {
    const tenant = await newTenant();
    const invoice = await issue(tenant, undefined, { customerEmail: "buyer@example.com, thief@evil.example" });
    const ran = await attemptNow();
    expect(ran.failed).toHaveLength(0); // recorded as permanent, not retried
    expect(smtp.arrived).toHaveLength(0);
    const [failed] = await deliveriesOf(tenant, invoice.id);
    expect(failed).toMatchObject({ status: "FAILED", attempts: 1 });
    expect(failed!.lastError).toContain("Expected one email address");
  });
});

describe("retries", () => {
  test("refused with 451 twice: retried by the queue (attempts grow, last error kept), then SENT", async () => {
    const tenant = await newTenant();
    const invoice = await issue(tenant);
    smtp.refuse = 451;
    const first = await attemptNow();
    expect(first.failed.map((f) => f.task)).toEqual(["invoices.deliver"]);
    expect((await deliveriesOf(tenant, invoice.id))[0]).toMatchObject({ status: "PENDING", attempts: 1 });
    expect((await deliveriesOf(tenant, invoice.id))[0]!.lastError).toContain("451 Mailbox busy");
    await attemptNow();
    expect((await deliveriesOf(tenant, invoice.id))[0]).toMatchObject({ status: "PENDING", attempts: 2 });
    smtp.refuse = null;
    await attemptNow();
    expect((await deliveriesOf(tenant, invoice.id))[0]).toMatchObject({ status: "SENT", attempts: 3, lastError: null });
    expect(smtp.arrived).toHaveLength(1);
  });

  test("the server stopped: connection refused is retried; sent once it is back", async () => {
    const tenant = await newTenant();
    const invoice = await issue(tenant);
    await smtp.stop();
    try {
      await attemptNow();
      const [refused] = await deliveriesOf(tenant, invoice.id);
      expect(refused).toMatchObject({ status: "PENDING", attempts: 1 });
      expect(refused!.lastError).toContain("ECONNREFUSED");
    } finally {
      await smtp.start();
    }
    await attemptNow();
    expect((await deliveriesOf(tenant, invoice.id))[0]).toMatchObject({ status: "SENT", attempts: 2 });
    expect(smtp.arrived).toHaveLength(1);
  });

  test(`FAILED after the last of ${EMAIL_MAX_ATTEMPTS} attempts; the job is not retried again`, async () => {
    const tenant = await newTenant();
    const invoice = await issue(tenant);
    smtp.refuse = 421;
    for (let i = 1; i <= EMAIL_MAX_ATTEMPTS; i++) {
      await attemptNow();
      expect((await deliveriesOf(tenant, invoice.id))[0]!.attempts).toBe(i);
    }
    const [failed] = await deliveriesOf(tenant, invoice.id);
    expect(failed).toMatchObject({ status: "FAILED", attempts: EMAIL_MAX_ATTEMPTS, sentAt: null });
    expect(failed!.lastError).toContain("421");
    smtp.refuse = null;
    expect((await attemptNow()).completed).toHaveLength(0);
    expect(smtp.arrived).toHaveLength(0);
  });

  test("a 550 for the recipient is permanent: FAILED at once, no retry", async () => {
    const tenant = await newTenant();
    const invoice = await issue(tenant);
    smtp.refuse = 550;
    const ran = await attemptNow();
    expect(ran.failed).toHaveLength(0); // recorded, not thrown: nothing left to retry
    const [failed] = await deliveriesOf(tenant, invoice.id);
    expect(failed).toMatchObject({ status: "FAILED", attempts: 1 });
    expect(failed!.lastError).toContain("550 No such mailbox");
    expect((await queuedJobs(sql)).some((j) => (j.payload as any).deliveryId === failed!.id)).toBe(false);
  });

  test("an invoice voided before the email went out is not sent", async () => {
    const tenant = await newTenant();
    const invoice = await issue(tenant);
    await inTx(sql, chains, tenant, now, (c) => voidInvoice(c, invoice.id));
    await drainJobs(t);
    expect(smtp.arrived).toHaveLength(0);
    expect((await deliveriesOf(tenant, invoice.id))[0]).toMatchObject({
      status: "FAILED",
      attempts: 1,
      lastError: "The invoice was voided before it was sent",
    });
  });
});

describe("secrets", () => {
  test("a wrong SMTP password: the attempt fails with the server's 535, and the password is not repeated", async () => {
    const tenant = await newTenant();
    const invoice = await issue(tenant);
    const wrong = "wr0ng:pa55/word";
    const mailer = new Mailer(smtp.url.replace(encodeURIComponent(SMTP_PASSWORD), encodeURIComponent(wrong)));
    try {
      const [row] = await deliveriesOf(tenant, invoice.id);
      const payload = { ...tenant, deliveryId: row!.id };
      await expect(deliverInvoice({ ...t.deps, mailer }, payload, { attempt: 1, maxAttempts: EMAIL_MAX_ATTEMPTS })).rejects.toThrow("535");
      const [failed] = await deliveriesOf(tenant, invoice.id);
      expect(failed).toMatchObject({ status: "PENDING", attempts: 1 });
      expect(failed!.lastError).toContain("535 Invalid username or password");
      const written = [...t.logs, failed!.lastError!].join("\n");
      for (const secret of [wrong, encodeURIComponent(wrong)]) expect(written).not.toContain(secret);
    } finally {
      mailer.close();
    }
  });

  test("credentials over smtp:// without ?tls=none: STARTTLS is required, so a server offering none never receives the password", async () => {
    const tenant = await newTenant();
    const invoice = await issue(tenant);
    const mailer = new Mailer(smtp.plainUrl);
    const authsBefore = smtp.auths;
    try {
      const [row] = await deliveriesOf(tenant, invoice.id);
      const payload = { ...tenant, deliveryId: row!.id };
      await expect(deliverInvoice({ ...t.deps, mailer }, payload, { attempt: 1, maxAttempts: EMAIL_MAX_ATTEMPTS })).rejects.toThrow();
      expect(smtp.auths).toBe(authsBefore);
      expect(smtp.arrived).toHaveLength(0);
      const [failed] = await deliveriesOf(tenant, invoice.id);
      expect(failed).toMatchObject({ status: "PENDING", attempts: 1 });
      expect(failed!.lastError).toContain("STARTTLS");
    } finally {
      mailer.close();
    }
  });

  test("the SMTP password is in no log line and no stored error (deliveries-config.test.ts: nor in a configuration error)", async () => {
    const errors = await sql`select last_error from invoice_deliveries where last_error is not null`;
    expect(errors.length).toBeGreaterThan(0);
    // The failed attempts were logged (by the queue, with the error), so the logs had the chance to leak it.
    expect(t.logs.filter((l) => l.includes("Invoice email")).length).toBeGreaterThan(0);
    const written = [...t.logs, ...errors.map((e) => e.last_error as string)].join("\n");
    for (const secret of [SMTP_PASSWORD, encodeURIComponent(SMTP_PASSWORD)]) expect(written).not.toContain(secret);
  });
});
