/**
 * GET /dashboard/invoices?companyId=: one company's invoices, by our comp_ id or the integrator's, newest first,
 * with status and q as further filters, paged on a cursor bound to the filters; an unknown company matches
 * nothing; a bad one is a 400 naming it; GET /invoices is unchanged.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { upsertCompany } from "../../src/modules/customers/identify";

const t = await createTestApp();
const team = await createTeamFixture(t, "Company invoices");
const other = await createTeamFixture(t, "Other team");
const sql = t.db.sql;
const dev = { teamId: team.teamId, environment: "development" as const };
const admin = { token: team.dashboardAdmin };
const dash = (method: string, path: string, body?: unknown, as: object = admin) => t.call(method, `/dashboard/invoices${path}`, { ...as, body });
const { company: acme } = await sql.begin((tx) => upsertCompany(tx, dev, { id: "acme", name: "Acme Inc.", email: "ap@acme.test" }));
const { company: globex } = await sql.begin((tx) => upsertCompany(tx, dev, { id: "globex", name: "Globex", email: "ap@globex.test" }));
const { company: foreign } = await sql.begin((tx) =>
  upsertCompany(tx, { teamId: other.teamId, environment: "development" }, { id: "acme", name: "Other Acme" }),
);

const draft = async (companyId: string | undefined, description: string, issue = false) => {
  const made = await dash("POST", "", {
    currency: "usdc",
    lineItems: [{ description, quantity: 1, unitAmount: "10", taxRate: "0" }],
    ...(companyId ? { companyId } : {}),
    ...(issue ? { issue: true } : {}),
  });
  expect(made.status).toBe(201);
  return made.body.data.id as string;
};
const ids = (answer: { body: { data: { id: string }[] } }) => answer.body.data.map((i) => i.id);

// Oldest first: acme has three (one issued), globex one, one is addressed to no company.
const a1 = await draft("acme", "One");
const a2 = await draft(acme.id, "Two", true);
const g1 = await draft("globex", "Three");
const none = await draft(undefined, "Four");
const a3 = await draft("acme", "Five");

describe("GET /dashboard/invoices?companyId=", () => {
  test("by our comp_ id or the integrator's: that company's invoices only, newest first; status and q narrow them", async () => {
    for (const ref of [acme.id, "acme"]) {
      const answer = await dash("GET", `?companyId=${ref}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ count: 3, nextCursor: null });
      expect(ids(answer)).toEqual([a3, a2, a1]);
    }
    expect(ids(await dash("GET", `?companyId=${globex.id}`))).toEqual([g1]);
    expect(ids(await dash("GET", "?companyId=acme&status=ISSUED"))).toEqual([a2]);
    expect(ids(await dash("GET", "?companyId=acme&status=DRAFT"))).toEqual([a3, a1]);
    expect(ids(await dash("GET", `?companyId=acme&q=${encodeURIComponent(`DRAFT-${a1}`)}`))).toEqual([a1]);
    expect(ids(await dash("GET", "?companyId=globex&status=ISSUED"))).toEqual([]);
    // Without the filter: every invoice, the one addressed to no company too.
    expect(ids(await dash("GET", ""))).toEqual([a3, none, g1, a2, a1]);
  });

  test("pages on the cursor, which is bound to the filters it was taken under", async () => {
    const first = await dash("GET", "?companyId=acme&limit=2");
    const cursor = first.body.nextCursor as string;
    expect(first.body.count).toBe(2);
    expect(typeof cursor).toBe("string");
    expect(ids(first)).toEqual([a3, a2]);
    const second = await dash("GET", `?companyId=acme&limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(second.body).toMatchObject({ count: 1, nextCursor: null });
    expect(ids(second)).toEqual([a1]);
    for (const other of ["?companyId=globex", "?", `?companyId=${acme.id}`]) {
      const refused = await dash("GET", `${other}&limit=2&cursor=${encodeURIComponent(cursor)}`);
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.details)).toEqual(["query.cursor"]);
    }
  });

  test("an unknown company, or another team's, matches nothing", async () => {
    const empty = { data: [], count: 0, nextCursor: null };
    expect((await dash("GET", "?companyId=nobody")).body).toEqual(empty);
    expect((await dash("GET", `?companyId=${foreign.id}`)).body).toEqual(empty);
    expect((await dash("GET", "?companyId=acme", undefined, { token: other.dashboardAdmin })).body).toEqual(empty);
  });

  test("a bad companyId is a 400 naming it, with the other bad filters", async () => {
    for (const bad of ["", "x".repeat(201)]) {
      const answer = await dash("GET", `?companyId=${bad}&status=draft`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: expect.any(String),
        details: expect.objectContaining({ "query.companyId": expect.any(String), "query.status": expect.any(String) }),
      });
    }
  });

  test("GET /invoices keeps the spec's query: no company filter", async () => {
    const key = await t.call("GET", "/invoices", { token: team.keys.secret });
    expect(key.status).toBe(200);
    expect(key.body.invoices.map((i: { id: string }) => i.id)).toEqual([a3, none, g1, a2, a1]);
  });
});
