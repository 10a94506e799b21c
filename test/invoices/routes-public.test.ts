/**
 * The spec's invoice reads: GET /invoices (filters, order, pagination, tenancy, rule 8's credentials),
 * GET /invoices/{id} (detail, signed links, the three error bodies) and GET /invoices/{id}/credit-notes.
 */
import { describe, expect, test } from "bun:test";
import { createPeerInstance, createTestApp } from "../helpers/app";
import { createTeamFixture, newKey } from "../helpers/fixtures";
import { inTx, invoiceInput, issuedInvoice, line, payInvoice } from "../helpers/invoices";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { createInvoice } from "../../src/modules/invoices/lifecycle/transitions";
import { createCreditNote } from "../../src/modules/invoices/credit-notes/create";
import { verifyDocumentToken, DOCUMENT_PATH } from "../../src/modules/invoices/documents/tokens";
import type { Tenant } from "../../src/lib/tenant";

const t = await createTestApp();
const sql = t.db.sql;
const chains = t.config.chains;
const team = await createTeamFixture(t);
const other = await createTeamFixture(t, "Other team");
const dev: Tenant = { teamId: team.teamId, environment: "development" };
const now = new Date(t.clock.now());
const USDC = 1_000_000n;
const reader = (await newKey(sql, team.teamId, "RESTRICTED", "development", t.clock.now(), { permissions: ["invoices.read"] })).key;
const billing = (
  await createDashboardSession(
    sql,
    { teamId: team.teamId, environment: "development", userEmail: "b@test.dev", roles: ["billing:read"] },
    t.clock.now(),
  )
).session;

// Three issued invoices and a draft in this team, one in production, one of another team.
const alice = await issuedInvoice(sql, chains, dev, now, [line(10n * USDC, 2n, 72_500n, "Seats")], {
  customerEmail: "Alice@Example.com",
  customerWallet: "0xAbCdEf0000000000000000000000000000000001",
});
const bob = await issuedInvoice(sql, chains, dev, now, [line(5n * USDC)], { customerEmail: "bob_100%@corp.test" });
const paid = await issuedInvoice(sql, chains, dev, now, [line(3n * USDC)], { customerEmail: "carol@corp.test" });
await payInvoice(sql, chains, dev, now, paid.id, 3n * USDC);
const draft = await inTx(sql, chains, dev, now, (c) => createInvoice(c, invoiceInput([line(1n * USDC)], { customerEmail: "dave@corp.test" })));
const live = await issuedInvoice(sql, chains, { teamId: team.teamId, environment: "production" }, now, [line(USDC)], {
  customerEmail: "live@corp.test",
});
const foreign = await issuedInvoice(sql, chains, { teamId: other.teamId, environment: "development" }, now, [line(USDC)], {
  customerEmail: "alice@example.com",
});

const list = async (query = "", token = team.keys.secret) => t.call("GET", `/invoices${query}`, { token });
const ids = (res: { body: { invoices: { id: string }[] } }) => res.body.invoices.map((i) => i.id);

describe("GET /invoices", () => {
  test("the team's invoices of the key's environment, newest first, each with its lines; nextCursor null at the end", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([draft.id, paid.id, bob.id, alice.id]);
    expect(res.body.nextCursor).toBeNull();
    const first = res.body.invoices.find((i: { id: string }) => i.id === alice.id);
    expect(first).toMatchObject({
      number: alice.number,
      status: "ISSUED",
      currency: "USDC",
      subtotal: "20.000000",
      taxTotal: "1.450000",
      total: "21.450000",
    });
    expect(first.lineItems).toEqual([
      {
        description: "Seats",
        quantity: 2,
        unitAmount: "10.000000",
        taxRate: "7.2500",
        lineSubtotal: "20.000000",
        lineTax: "1.450000",
        lineTotal: "21.450000",
        kind: "item",
      },
    ]);
    expect(ids(await list("", team.keys.secretLive))).toEqual([live.id]);
    expect(ids(await list("", other.keys.secret))).toEqual([foreign.id]);
  });

  test("status filters; anything else is a 400 naming query.status", async () => {
    expect(ids(await list("?status=PAID"))).toEqual([paid.id]);
    expect(ids(await list("?status=ISSUED"))).toEqual([bob.id, alice.id]);
    expect(ids(await list("?status=DRAFT"))).toEqual([draft.id]);
    expect(ids(await list("?status=VOID"))).toEqual([]);
    for (const bad of ["paid", "PENDING", ""]) {
      const res = await list(`?status=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual({ "query.status": "Expected one of: DRAFT, ISSUED, PAID, VOID, OVERDUE (in capitals)" });
    }
  });

  test("q: a substring of the number, email or wallet in any case; % _ \\ are plain characters; both filters together", async () => {
    expect(ids(await list(`?q=${alice.number.toLowerCase()}`))).toEqual([alice.id]);
    expect(ids(await list("?q=ALICE@example"))).toEqual([alice.id]);
    expect(ids(await list("?q=abcdef00000"))).toEqual([alice.id]);
    expect(ids(await list("?q=corp.TEST"))).toEqual([draft.id, paid.id, bob.id]);
    expect(ids(await list("?q=corp.test&status=PAID"))).toEqual([paid.id]);
    expect(ids(await list(`?q=${encodeURIComponent("100%")}`))).toEqual([bob.id]);
    expect(ids(await list(`?q=${encodeURIComponent("b_1")}`))).toEqual([bob.id]);
    expect(ids(await list(`?q=${encodeURIComponent("%")}`))).toEqual([bob.id]);
    expect(ids(await list(`?q=${encodeURIComponent("_")}`))).toEqual([draft.id, bob.id]); // DRAFT-in_…
    expect(ids(await list(`?q=${encodeURIComponent("\\")}`))).toEqual([]);
    expect(ids(await list("?q=nobody"))).toEqual([]);
    for (const bad of ["", "x".repeat(201)]) {
      const res = await list(`?q=${bad}`);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.details)).toEqual(["query.q"]);
    }
  });

  test("pages: limit and the opaque cursor; an empty, tampered or foreign cursor is a 400", async () => {
    const first = await list("?limit=3");
    expect(ids(first)).toEqual([draft.id, paid.id, bob.id]);
    expect(typeof first.body.nextCursor).toBe("string");
    const second = await list(`?limit=3&cursor=${first.body.nextCursor}`);
    expect(ids(second)).toEqual([alice.id]);
    expect(second.body.nextCursor).toBeNull();
    expect((await list(`?status=ISSUED&limit=1&cursor=${(await list("?status=ISSUED&limit=1")).body.nextCursor}`)).body.invoices[0].id).toBe(
      alice.id,
    );
    for (const [query, field] of [
      ["?cursor=", "query.cursor"],
      [`?cursor=${first.body.nextCursor}x`, "query.cursor"],
      ["?limit=201", "query.limit"],
      ["?limit=0", "query.limit"],
    ] as const) {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.details)).toEqual([field]);
    }
    // Another team's cursor, of the same list: signed for that team, so refused here.
    await issuedInvoice(sql, chains, { teamId: other.teamId, environment: "development" }, now, [line(USDC)]);
    const foreignCursor = (await list("?limit=1", other.keys.secret)).body.nextCursor;
    expect(typeof foreignCursor).toBe("string");
    expect((await list(`?cursor=${foreignCursor}`)).status).toBe(400);
  });

  test("the cursor is bound to the filters: one of another status or q is a 400, as it would page through another set", async () => {
    const unfiltered = (await list("?limit=1")).body.nextCursor;
    const bySearch = (await list("?q=corp.test&limit=1")).body.nextCursor;
    const byStatus = (await list("?status=ISSUED&limit=1")).body.nextCursor;
    for (const query of [
      `?status=PAID&cursor=${unfiltered}`,
      `?q=corp&cursor=${unfiltered}`,
      `?cursor=${bySearch}`,
      `?q=corp.tes&cursor=${bySearch}`,
      `?q=corp.test&status=PAID&cursor=${bySearch}`,
      `?status=DRAFT&cursor=${byStatus}`,
      `?q=x&status=ISSUED&cursor=${byStatus}`,
    ]) {
      const res = await list(query);
      expect({ query, status: res.status, fields: Object.keys(res.body.details ?? {}) }).toEqual({ query, status: 400, fields: ["query.cursor"] });
    }
    expect(ids(await list(`?q=corp.test&limit=1&cursor=${bySearch}`))).toEqual([paid.id]);
    expect(ids(await list(`?status=ISSUED&cursor=${byStatus}`))).toEqual([alice.id]);
    // The dashboard's list is another list: its cursors and the public ones do not mix.
    const dashboard = await t.call("GET", `/dashboard/invoices?limit=1&cursor=${unfiltered}`, { cookie: `be_session=${billing}` });
    expect(dashboard.status).toBe(400);
  });

  test("rule 8: sk_ and rk_ with invoices.read, a dashboard session with billing:read; pk_, api_, rk_ without it: 403", async () => {
    expect((await list("", reader)).status).toBe(200);
    expect((await t.call("GET", "/invoices", { cookie: `be_session=${billing}` })).status).toBe(200);
    for (const [token, code] of [
      [team.keys.publishable, "wrong_credential_kind"],
      [team.keys.legacy, "wrong_credential_kind"],
      [team.keys.restricted, "missing_permission"],
      [team.keys.secretScoped, "missing_permission"],
      [team.dashboardCatalog, "missing_permission"],
    ] as const) {
      const res = await list("", token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: expect.any(String), code });
    }
    const missing = await t.call("GET", "/invoices");
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: expect.any(String), code: "missing_credentials" });
  });
});

describe("GET /invoices/{id}", () => {
  test("the invoice with lines, payments, credit notes, refunds, deliveries and two signed links to this origin", async () => {
    const res = await t.call("GET", `/invoices/${paid.id}`, { token: reader });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["downloadUrl", "invoice", "iso20022DownloadUrl"]);
    expect(res.body.invoice).toMatchObject({ id: paid.id, status: "PAID", amountPaid: "3.000000", amountOutstanding: "0.000000" });
    expect(res.body.invoice.payments).toHaveLength(1);
    expect(res.body.invoice.payments[0]).toMatchObject({ amountApplied: "3.000000", amountExcess: "0.000000", currency: "USDC" });
    expect(res.body.invoice).toMatchObject({ creditNotes: [], refunds: [], deliveries: [] });
    for (const [field, kind] of [
      ["downloadUrl", "pdf"],
      ["iso20022DownloadUrl", "pain013"],
    ] as const) {
      const url = new URL(res.body[field]);
      expect(url.origin).toBe("http://localhost");
      expect(url.pathname.startsWith(`${DOCUMENT_PATH}/`)).toBe(true);
      const token = url.pathname.slice(DOCUMENT_PATH.length + 1);
      expect(verifyDocumentToken(t.config.linkSigningSecret, token, now)).toEqual({ tenant: dev, invoiceId: paid.id, kind });
      // Valid 24 hours from this read.
      expect(() => verifyDocumentToken(t.config.linkSigningSecret, token, new Date(t.clock.now() + 24 * 3600_000 + 1000))).toThrow();
    }
  });

  test("a draft: provisional number, no issuedAt, null dueAt", async () => {
    const res = await t.call("GET", `/invoices/${draft.id}`, { token: team.keys.secret });
    expect(res.body.invoice.number).toBe(`DRAFT-${draft.id}`);
    expect("issuedAt" in res.body.invoice).toBe(false);
    expect(res.body.invoice.dueAt).toBeNull();
  });

  test("PUBLIC_BASE_URL: the links point there, whatever origin the request came to", async () => {
    const peer = await createPeerInstance(t, { publicBaseUrl: "https://billing.example.com" });
    const res = await peer.call("GET", `/invoices/${alice.id}`, { token: team.keys.secret });
    expect(res.body.downloadUrl).toStartWith(`https://billing.example.com${DOCUMENT_PATH}/`);
    expect(res.body.iso20022DownloadUrl).toStartWith(`https://billing.example.com${DOCUMENT_PATH}/`);
  });

  test("the spec's three error bodies: 404 {error} (unknown, another team's, another environment's), 401 and 403 {error, code}", async () => {
    for (const [id, token] of [
      ["in_unknown", team.keys.secret],
      [foreign.id, team.keys.secret],
      [live.id, team.keys.secret],
      [alice.id, other.keys.secret],
    ] as const) {
      for (const path of [`/invoices/${id}`, `/invoices/${id}/credit-notes`]) {
        const res = await t.call("GET", path, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: expect.any(String) });
      }
    }
    for (const path of [`/invoices/${alice.id}`, `/invoices/${alice.id}/credit-notes`]) {
      expect((await t.call("GET", path, { token: "sk_test_nope" })).body).toEqual({ error: expect.any(String), code: "invalid_credentials" });
      expect((await t.call("GET", path, { token: team.keys.publishable })).body).toEqual({
        error: expect.any(String),
        code: "wrong_credential_kind",
      });
      expect((await t.call("GET", path, { token: team.keys.restricted })).body).toEqual({ error: expect.any(String), code: "missing_permission" });
    }
  });

  test("an id that cannot be an invoice's is 404 {error} like an unknown one, never a 400 or a 500; the credential comes first", async () => {
    const logged = t.logs.length;
    const shapes = ["x".repeat(65), `in_${"a".repeat(62)}`, "in_%FF", "in_%00", "in_%C3%A9", "in_a%20b", "in_", "cs_abc", "IN_abc"];
    for (const id of shapes) {
      for (const path of [`/invoices/${id}`, `/invoices/${id}/credit-notes`]) {
        const res = await t.call("GET", path, { token: reader });
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { error: "No such invoice" } });
      }
    }
    expect((await t.call("GET", "/invoices/in_%00")).body).toEqual({ error: expect.any(String), code: "missing_credentials" });
    expect((await t.call("GET", "/invoices/in_%FF", { token: team.keys.publishable })).body.code).toBe("wrong_credential_kind");
    expect(t.logs.slice(logged).filter((line) => line.includes('"level":"error"') || line.includes('"status":500'))).toEqual([]);
  });

  test("the answer carries bearer links: Cache-Control private, no-store", async () => {
    const res = await t.call("GET", `/invoices/${alice.id}`, { token: reader });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  test("without PUBLIC_BASE_URL, behind a trusted proxy: the links take the first X-Forwarded-Proto and -Host; untrusted, the request's", async () => {
    const forwarded = (proto: string, host: string) => ({ token: reader, headers: { "x-forwarded-proto": proto, "x-forwarded-host": host } });
    const behindProxy = await createPeerInstance(t, { trustProxy: true, publicBaseUrl: null });
    const origin = async (call: typeof t.call, proto: string, host: string) =>
      new URL((await call("GET", `/invoices/${alice.id}`, forwarded(proto, host))).body.downloadUrl).origin;
    expect(await origin(behindProxy.call, "https, http", "billing.example.com, 10.0.0.7:3000")).toBe("https://billing.example.com");
    expect(await origin(behindProxy.call, "https", "billing.example.com:8443")).toBe("https://billing.example.com:8443");
    expect(await origin(behindProxy.call, "https", "[2001:db8::1]:8443")).toBe("https://[2001:db8::1]:8443");
    // A value that is no host[:port] (or no http/https) is not used: the request's own stands in for it.
    expect(await origin(behindProxy.call, "https", "evil.example/path")).toBe("https://localhost");
    expect(await origin(behindProxy.call, "https", "a.example:99999")).toBe("https://localhost");
    expect(await origin(behindProxy.call, "gopher", "billing.example.com")).toBe("http://billing.example.com");
    expect(await origin(t.call, "https", "billing.example.com")).toBe("http://localhost");
  });
});

describe("GET /invoices/{id}/credit-notes", () => {
  test("the credit notes, oldest first, numbered in their own series", async () => {
    const invoice = await issuedInvoice(sql, chains, dev, now, [line(10n * USDC)], { customerEmail: "cn@corp.test" });
    await inTx(sql, chains, dev, now, (c) => createCreditNote(c, invoice.id, { reason: "Outage", creditAmount: 2n * USDC }));
    await inTx(sql, chains, dev, now, (c) =>
      createCreditNote(c, invoice.id, { reason: "Goodwill", creditAmount: USDC, lines: [{ description: "Goodwill", amount: USDC }], memo: "Sorry" }),
    );
    const res = await t.call("GET", `/invoices/${invoice.id}/credit-notes`, { token: reader });
    expect(res.status).toBe(200);
    expect(res.body.creditNotes.map((n: { reason: string }) => n.reason)).toEqual(["Outage", "Goodwill"]);
    const [a, b] = res.body.creditNotes;
    expect(Number(b.number.slice(3))).toBe(Number(a.number.slice(3)) + 1);
    expect(a).toMatchObject({
      invoiceId: invoice.id,
      amount: "2.000000",
      creditAmount: "2.000000",
      refundAmount: "0.000000",
      lineItems: [{ description: "Outage", amount: "2.000000" }],
    });
    expect(b).toMatchObject({ memo: "Sorry", amount: "1.000000" });
    expect((await t.call("GET", `/invoices/${alice.id}/credit-notes`, { token: reader })).body).toEqual({ creditNotes: [] });
  });
});

test("q matches inside one field only, and refuses control characters", async () => {
  // alice's number ends in its digits and her email starts with "alice": together they span two fields.
  const digits = alice.number.slice(-2);
  expect(ids(await list(`?q=${digits}`))).toContain(alice.id);
  expect(ids(await list(`?q=${encodeURIComponent(`${digits} alice`)}`))).toEqual([]);
  expect(ids(await list("?q=%20"))).toEqual([]);
  for (const bad of ["a\u001fb", "x\ny", "\u007f"]) {
    const answer = await list(`?q=${encodeURIComponent(bad)}`);
    expect([answer.status, Object.keys(answer.body.details)]).toEqual([400, ["query.q"]]);
  }
});
