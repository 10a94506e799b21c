/**
 * The dashboard's invoice routes end to end: a draft made, replaced, issued, credited and voided over
 * /dashboard/invoices, each audited with the operator; bad input is one 400 naming every bad field with
 * nothing written; refused transitions are 409 with their code; 50 parallel issues take 50 consecutive numbers.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture, dashboardCookie } from "../helpers/fixtures";
import { payInvoice } from "../helpers/invoices";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { upsertCompany } from "../../src/modules/customers/identify";

const t = await createTestApp();
const team = await createTeamFixture(t, "Dashboard invoices");
const other = await createTeamFixture(t, "Other team");
const sql = t.db.sql;
const dev = { teamId: team.teamId, environment: "development" as const };
const admin = { token: team.dashboardAdmin };
const session = (roles: string[]) =>
  createDashboardSession(sql, { teamId: team.teamId, environment: "development", userEmail: `${roles.join("-")}@test.dev`, roles }, t.clock.now());
const dash = (method: string, path: string, body?: unknown, as: object = admin) => t.call(method, `/dashboard/invoices${path}`, { ...as, body });
const { company } = await sql.begin((tx) => upsertCompany(tx, dev, { id: "acme", name: "Acme Inc.", email: "ap@acme.test" }));

const body = (extra: Record<string, unknown> = {}) => ({
  currency: "usdc",
  lineItems: [
    { description: "Seats", quantity: 3, unitAmount: "12.5", taxRate: "7.25" },
    { description: "Launch discount", quantity: 1, unitAmount: -5, taxRate: 7.25 },
  ],
  ...extra,
});
const counts = async () =>
  (
    await sql`select (select count(*) from invoices where team_id = ${team.teamId})::int as invoices,
                     (select count(*) from invoice_lines l join invoices i on i.id = l.invoice_id where i.team_id = ${team.teamId})::int as lines,
                     (select count(*) from credit_notes where team_id = ${team.teamId})::int as notes,
                     (select count(*) from audit_log where team_id = ${team.teamId})::int as audits`
  )[0];

describe("a draft's life over the dashboard routes", () => {
  test("create -> replace -> issue -> credit -> read; each audited with the operator, answers in {data} with links", async () => {
    const created = await dash("POST", "", body({ companyId: "acme", metadata: { po: "PO-1" }, paymentTermsDays: 14 }));
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data).toMatchObject({
      status: "DRAFT",
      number: `DRAFT-${id}`,
      currency: "USDC",
      companyId: company.id,
      customerName: "Acme Inc.",
      customerEmail: "ap@acme.test",
      metadata: { po: "PO-1" },
      subtotal: "32.500000",
      taxTotal: "2.356250",
      total: "34.856250",
      paymentTermsDays: 14,
    });
    expect(created.body.data.lineItems.map((l: { kind: string; lineTax: string }) => [l.kind, l.lineTax])).toEqual([
      ["item", "2.718750"],
      ["discount", "-0.362500"],
    ]);
    expect(created.body.data.downloadUrl).toContain("/api/v1/invoice-documents/");

    const replaced = await dash("PUT", `/${id}`, body({ lineItems: [{ description: "Annual plan", quantity: 1, unitAmount: "120", taxRate: "0" }] }));
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({ total: "120.000000", companyId: null, customerEmail: null, metadata: {}, paymentTermsDays: 30 });
    expect(replaced.body.data.lineItems).toHaveLength(1);

    const issued = await dash("POST", `/${id}/issue`);
    expect(issued.status).toBe(200);
    expect(issued.body.data).toMatchObject({ status: "ISSUED", number: expect.stringMatching(/^INV-\d{6}$/), amountOutstanding: "120.000000" });
    expect(new Date(issued.body.data.dueAt).getTime() - new Date(issued.body.data.issuedAt).getTime()).toBe(30 * 86_400_000);

    const note = await dash("POST", `/${id}/credit-notes`, { reason: "Outage", amount: "20", memo: "Sorry" });
    expect(note.status).toBe(201);
    expect(note.body.data).toMatchObject({ invoiceId: id, number: expect.stringMatching(/^CN-\d{6}$/), creditAmount: "20.000000", memo: "Sorry" });
    const read = await dash("GET", `/${id}`);
    expect(read.body.data).toMatchObject({ amountCredited: "20.000000", amountOutstanding: "100.000000" });
    expect(read.body.data.creditNotes).toHaveLength(1);

    const listed = await dash("GET", "?status=ISSUED");
    expect(listed.body).toMatchObject({ count: 1, nextCursor: null });
    expect(listed.body.data[0].id).toBe(id);

    const audit =
      await sql`select action, actor_kind, actor_id from audit_log where team_id = ${team.teamId} and resource_id in (${id}, ${note.body.data.id}) order by chain_seq`;
    expect(audit.map((a) => a.action)).toEqual(["invoice.create", "invoice.update", "invoice.issue", "credit_note.create"]);
    expect(new Set(audit.map((a) => `${a.actor_kind} ${a.actor_id}`))).toEqual(new Set([`dashboard ${audit[0]!.actor_id}`]));
    expect(audit[0]!.actor_id).toMatch(/^op_/); // the signed-in operator, not the session
  });

  test("issue: true creates and issues at once; void only while nothing is paid", async () => {
    const issued = await dash("POST", "", body({ issue: true }));
    expect(issued.body.data.status).toBe("ISSUED");
    const id = issued.body.data.id as string;
    await payInvoice(sql, t.config.chains, dev, new Date(t.clock.now()), id, 1_000_000n);
    const refused = await dash("POST", `/${id}/void`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: expect.any(String), code: "invoice_not_voidable" });

    const draft = (await dash("POST", "", body())).body.data.id as string;
    const voided = await dash("POST", `/${draft}/void`);
    expect(voided.body.data).toMatchObject({ status: "VOID", voidedAt: expect.any(String) });
    expect((await dash("POST", `/${draft}/void`)).status).toBe(200); // again: changes nothing
    for (const [path, payload, code] of [
      [`/${draft}/issue`, undefined, "invoice_not_draft"],
      [`/${draft}`, body(), "invoice_not_draft"],
      [`/${draft}/credit-notes`, { reason: "x", amount: "1" }, "invoice_not_creditable"],
      [`/${id}/credit-notes`, { reason: "x", amount: "1000" }, "credit_exceeds_total"],
    ] as const) {
      const res = await dash(path === `/${draft}` ? "PUT" : "POST", path, payload);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe(code);
    }
    const empty = (await dash("POST", "", body({ lineItems: [] }))).body.data.id as string;
    expect((await dash("POST", `/${empty}/issue`)).body.code).toBe("invoice_empty");
  });
});

describe("bad input: one 400 naming every bad field, nothing written", () => {
  test("lines, amounts, tax rates, metadata", async () => {
    const before = await counts();
    const res = await dash("POST", "", {
      currency: "USDC",
      lineItems: [
        { description: "a", quantity: 1, unitAmount: "1e3", taxRate: "7.25" },
        { description: "b", quantity: 1, unitAmount: "0.0000001", taxRate: "100.0001" },
        { description: "c", quantity: 1, unitAmount: 0.30000000000000004, taxRate: "7.12345" },
      ],
      metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])),
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details).sort()).toEqual(
      [
        "body.lineItems[0].unitAmount",
        "body.lineItems[1].unitAmount",
        "body.lineItems[1].taxRate",
        "body.lineItems[2].unitAmount",
        "body.lineItems[2].taxRate",
        "body.metadata",
      ].sort(),
    );
    const shapes = await dash("POST", "", {
      currency: "",
      lineItems: [{ description: " ", quantity: 0, unitAmount: "1", taxRate: "0" }],
      paymentTermsDays: 366,
      customerEmail: "not-an-email",
    });
    expect(shapes.status).toBe(400);
    expect(Object.keys(shapes.body.details)).toEqual(
      expect.arrayContaining([
        "body.currency",
        "body.lineItems[0].description",
        "body.lineItems[0].quantity",
        "body.paymentTermsDays",
        "body.customerEmail",
      ]),
    );
    for (const [extra, field] of [
      [{ currency: "DOGE" }, "body.currency"],
      [{ network: "ethereum" }, "body.network"],
      [{ companyId: "nobody" }, "body.companyId"],
      [{ planId: "plan_nothing" }, "body.planId"],
      [{ network: "base-sepolia", customerWallet: "0xnot" }, "body.customerWallet"],
      [{ lineItems: [{ description: "x", quantity: 1, unitAmount: "-1", taxRate: "0" }] }, "body.lineItems"],
      [{ metadata: { ["k".repeat(41)]: 1 } }, `body.metadata.${"k".repeat(41)}`],
      [{ metadata: { big: "x".repeat(16_400) } }, "body.metadata"],
    ] as const) {
      const r = await dash("POST", "", body(extra));
      expect({ field, status: r.status, keys: Object.keys(r.body.details ?? {}) }).toEqual({ field, status: 400, keys: [field] });
    }
    const note = await dash("POST", `/${(await dash("POST", "", body({ issue: true }))).body.data.id}/credit-notes`, {
      reason: "x",
      amount: "0",
      lineItems: [{ description: "y", amount: "-1" }],
    });
    expect(Object.keys(note.body.details).sort()).toEqual(["body.amount", "body.lineItems[0].amount"]);
    const after = await counts();
    expect(after!.invoices).toBe(before!.invoices + 1); // the issued invoice the credit-note case needed
  });

  test("unknown body fields are a 400 naming each (as everywhere in the API), with the shape's other failures; nothing written", async () => {
    const before = await counts();
    const res = await dash(
      "POST",
      "",
      body({ shoeSize: 44, lineItems: [{ description: "x", quantity: 1, unitAmount: "1", taxRate: "0", color: "red" }] }),
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details).sort()).toEqual(["body.lineItems[0].color", "body.shoeSize"]);
    expect(res.body.details["body.shoeSize"]).toStartWith("Unknown field");
    const both = await dash("POST", "", body({ shoeSize: 44, paymentTermsDays: "soon" }));
    expect(Object.keys(both.body.details).sort()).toEqual(["body.paymentTermsDays", "body.shoeSize"]);
    expect(await counts()).toEqual(before);
  });
});

describe("access", () => {
  test("billing:read reads, billing:write writes; a cookie write needs the CSRF token; another team's invoice is 404", async () => {
    const reader = await session(["billing:read"]);
    const writer = await session(["billing:write"]);
    const id = (await dash("POST", "", body())).body.data.id as string;
    expect((await dash("GET", `/${id}`, undefined, { token: reader.session })).status).toBe(200);
    expect((await dash("POST", "", body(), { token: reader.session })).body.code).toBe("missing_permission");
    expect((await dash("POST", "", body(), dashboardCookie(writer.session, writer.csrfToken))).status).toBe(201);
    expect((await dash("POST", "", body(), { cookie: `be_session=${writer.session}` })).body.code).toBe("csrf_failed");
    for (const [method, path] of [
      ["GET", `/${id}`],
      ["PUT", `/${id}`],
      ["POST", `/${id}/issue`],
      ["POST", `/${id}/void`],
    ] as const) {
      const res = await dash(method, path, method === "PUT" ? body() : undefined, { token: other.dashboardAdmin });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });
});

describe("numbering over HTTP", () => {
  test("50 parallel issues get 50 consecutive numbers", async () => {
    const fresh = await createTeamFixture(t, "Numbering team");
    const drafts = await Promise.all(
      Array.from({ length: 50 }, async () => (await dash("POST", "", body(), { token: fresh.dashboardAdmin })).body.data.id as string),
    );
    const issued = await Promise.all(drafts.map((id) => dash("POST", `/${id}/issue`, undefined, { token: fresh.dashboardAdmin })));
    expect(issued.map((r) => r.status)).toEqual(drafts.map(() => 200));
    const numbers = issued.map((r) => Number((r.body.data.number as string).slice(4))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});
