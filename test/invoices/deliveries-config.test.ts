/**
 * Invoice delivery settings and pure parts: SMTP_URL, SMTP_FROM and PUBLIC_BASE_URL validated at boot (the
 * SMTP URL never echoed), the mailer reading its URL and scrubbing its secrets from error text, and the
 * email's wording for each state of the invoice.
 */
import { expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config";
import { Mailer } from "../../src/modules/invoices/deliveries/mailer";
import { parseSmtpUrl } from "../../src/lib/smtp-url";
import { composeInvoiceEmail } from "../../src/modules/invoices/deliveries/email";
import type { InvoiceView } from "../../src/modules/invoices/schemas";

const tmp = () => `${process.cwd()}/.data/test/config-${crypto.randomUUID()}`;

test("unset by default: no email, no From, no public address", async () => {
  expect(await loadConfig({ DATA_DIR: tmp() })).toMatchObject({ smtpUrl: undefined, smtpFrom: undefined, publicBaseUrl: null });
});

test("valid values are read; PUBLIC_BASE_URL is kept as its origin", async () => {
  const c = await loadConfig({
    DATA_DIR: tmp(),
    SMTP_URL: "smtps://relay:pw@mail.example:465",
    SMTP_FROM: "billing@seller.example",
    PUBLIC_BASE_URL: "https://billing.example.com/",
  });
  expect(c).toMatchObject({
    smtpUrl: "smtps://relay:pw@mail.example:465",
    smtpFrom: "billing@seller.example",
    publicBaseUrl: "https://billing.example.com",
  });
});

test.each([
  ["SMTP_URL", "http://relay:hunter2pw@mail.example"],
  ["SMTP_URL", "smtp://"],
  ["SMTP_URL", "smtp://relay:hunter2pw@[bad"],
  // Plain SMTP (the password in clear) only to a relay on this machine; no other parameter, no path.
  ["SMTP_URL", "smtp://relay:hunter2pw@mail.example:587?tls=none"],
  ["SMTP_URL", "smtp://relay:hunter2pw@10.0.0.5:25?tls=none"],
  ["SMTP_URL", "smtps://relay:hunter2pw@127.0.0.1:465?tls=none"],
  ["SMTP_URL", "smtp://relay:hunter2pw@127.0.0.1:25?tls=off"],
  ["SMTP_URL", "smtp://relay:hunter2pw@127.0.0.1:25?pool=false"],
  ["SMTP_URL", "smtp://relay:hunter2pw@mail.example/path"],
  ["SMTP_URL", "smtp://relay:hunter2pw%zz@mail.example"],
  ["SMTP_FROM", "Billing <billing@seller.example>"],
  ["SMTP_FROM", "not-an-address"],
  ["PUBLIC_BASE_URL", "billing.example.com"],
  ["PUBLIC_BASE_URL", "https://billing.example.com/?q=1"],
])("%s=%s stops the boot naming the variable; the SMTP URL is never echoed", async (name, value) => {
  const message = await loadConfig({ DATA_DIR: tmp(), [name]: value }).then(
    () => "loaded",
    (e: Error) => (e instanceof ConfigError ? e.message : `not a ConfigError: ${e.message}`),
  );
  expect(message).toContain(`${name}=`);
  if (name === "SMTP_URL") {
    expect(message).toContain("SMTP_URL=(value hidden)");
    expect(message).not.toContain("hunter2pw");
  }
});

test("SMTP_URL's TLS: smtps is TLS; smtp with credentials requires STARTTLS; tls=none only for loopback hosts; no credentials, opportunistic", () => {
  const read = (url: string) => {
    const parsed = parseSmtpUrl(url);
    return "error" in parsed ? parsed.error : { ...parsed, auth: parsed.auth && { ...parsed.auth, pass: "(set)" } };
  };
  expect(read("smtps://relay:pw@mail.example")).toMatchObject({ port: 465, secure: true, requireTLS: false, ignoreTLS: false });
  expect(read("smtp://relay:pw@mail.example")).toMatchObject({ port: 587, secure: false, requireTLS: true, ignoreTLS: false });
  expect(read("smtp://mail.example:25")).toMatchObject({ port: 25, requireTLS: false, ignoreTLS: false, auth: undefined });
  for (const host of ["localhost", "127.0.0.1", "127.8.9.10", "[::1]"])
    expect(read(`smtp://relay:pw@${host}:2525?tls=none`)).toMatchObject({ port: 2525, secure: false, requireTLS: false, ignoreTLS: true });
  for (const host of ["mail.example", "10.0.0.5", "127.0.0.1.example", "[::2]"])
    expect(read(`smtp://relay:pw@${host}?tls=none`)).toContain("loopback");
});

test("the mailer's error text never carries the URL or the password, encoded or not", () => {
  const url = "smtp://relay:p%40ss%3Aw0rd@mail.example:2525";
  const mailer = new Mailer(url);
  try {
    expect(mailer.host).toBe("mail.example");
    const text = mailer.describe(new Error(`failed for ${url} with p@ss:w0rd and p%40ss%3Aw0rd`));
    expect(text).toBe("failed for *** with *** and ***");
    expect(mailer.describe(new Error("x".repeat(2000)))).toHaveLength(500);
  } finally {
    mailer.close();
  }
});

test("a password of one or two characters is scrubbed too", () => {
  for (const password of ["q", "Zk"]) {
    const mailer = new Mailer(`smtp://relay:${password}@mail.example:2525`);
    try {
      expect(mailer.describe(new Error(`535 rejected ${password} for relay`))).not.toContain(password);
    } finally {
      mailer.close();
    }
  }
});

const invoice = (over: Partial<InvoiceView>): InvoiceView => ({
  id: "in_1",
  number: "INV-000007",
  status: "ISSUED",
  currency: "USDC",
  network: null,
  companyId: null,
  customerName: null,
  customerEmail: "buyer@example.com",
  customerWallet: null,
  description: null,
  subtotal: "10.000000",
  taxTotal: "0.000000",
  total: "10.000000",
  amountPaid: "0.000000",
  amountCredited: "0.000000",
  amountRefunded: "0.000000",
  amountOutstanding: "10.000000",
  paymentTermsDays: 30,
  dueAt: "2026-03-31T10:00:00.000Z",
  issuedAt: "2026-03-01T10:00:00.000Z",
  paidAt: null,
  voidedAt: null,
  planId: null,
  metadata: {},
  lineItems: [],
  createdAt: "2026-03-01T10:00:00.000Z",
  ...over,
});
const seller = { name: "Seller Co", footer: null };

test("what the email says is due: issued, overdue, partly paid and credited, paid", () => {
  const text = (over: Partial<InvoiceView>) => composeInvoiceEmail({ invoice: invoice(over), seller, download: null }).text;
  expect(text({})).toContain("Amount due: 10.000000 USDC, due on 2026-03-31.");
  expect(text({ status: "OVERDUE" })).toContain("Amount due: 10.000000 USDC, overdue since 2026-03-31.");
  const partly = text({ amountPaid: "4.000000", amountCredited: "1.000000", amountOutstanding: "5.000000" });
  expect(partly).toContain("Paid: 4.000000 USDC\nCredited: 1.000000 USDC\nAmount due: 5.000000 USDC");
  expect(text({ status: "PAID", amountPaid: "10.000000", amountOutstanding: "0.000000", paidAt: "2026-03-02T00:00:00.000Z" })).toContain(
    "Paid on 2026-03-02: nothing is due.",
  );
  const noLink = composeInvoiceEmail({ invoice: invoice({}), seller, download: null });
  expect(noLink.subject).toBe("Invoice INV-000007 from Seller Co");
  expect(noLink.text).toContain("The invoice is attached as a PDF.");
  expect(noLink.html).not.toContain("href=");
});
