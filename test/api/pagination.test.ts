/** The shared pagination contract, on GET /companies, GET /users and GET /audit-log. */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { nonCanonicalSpellings, withStandardAlphabetSpelling } from "../helpers/base64-variants";
import { upsertCompany, upsertUser } from "../../src/modules/customers/identify";

const t = await createTestApp();
const team = await createTeamFixture(t);
const other = await createTeamFixture(t, "Other team");
const tenant = { teamId: team.teamId, environment: "development" as const };

// 120 companies, each with one user; names and emails chosen to exercise search.
await t.db.sql.begin(async (tx) => {
  for (let i = 0; i < 120; i++) {
    const { company } = await upsertCompany(tx, tenant, {
      id: `co-${i}`,
      name: i % 10 === 0 ? `Acme ${i}` : `Company ${i}`,
      email: `billing${i}@example.com`,
      wallet: `0xWALLET${i}`,
    });
    await upsertUser(tx, tenant, { id: `u-${i}`, email: `person${i}@Example.com`, name: `Person ${i}` }, { companyId: company.id });
  }
  await upsertCompany(tx, tenant, { id: "odd", name: "100% Real_Name" });
});

const get = (path: string, token = team.keys.secret) => t.call("GET", path, { token });

describe("GET /companies pagination", () => {
  test("default limit is 50, newest first, with a cursor", async () => {
    const res = await get("/companies");
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(50);
    expect(res.body.data).toHaveLength(50);
    expect(res.body.data[0].externalId).toBe("odd");
    expect(typeof res.body.nextCursor).toBe("string");
  });

  test("walking every page visits each company once, in a stable order, even while rows are added", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`/companies?limit=40${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((c: { externalId: string }) => c.externalId));
      cursor = res.body.nextCursor;
      if (pages++ === 0) await t.db.sql.begin((tx) => upsertCompany(tx, tenant, { id: "added-mid-walk" }));
    } while (cursor);
    expect(seen).toHaveLength(121);
    expect(new Set(seen).size).toBe(121);
    expect(seen).not.toContain("added-mid-walk");
    expect(pages).toBe(4);
  });

  test("limit 200 is allowed; the last page has nextCursor null", async () => {
    const res = await get("/companies?limit=200");
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(122);
    expect(res.body.nextCursor).toBeNull();
  });

  test("limit 201, 0, -1 and non-numbers are 400", async () => {
    for (const limit of ["201", "0", "-1", "ten", "1.5"]) {
      const res = await get(`/companies?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.details)).toContain("query.limit");
    }
  });

  test("an empty cursor is 400", async () => {
    const res = await get("/companies?cursor=");
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details)).toContain("query.cursor");
  });

  test("a tampered or made-up cursor is 400", async () => {
    const { body } = await get("/companies?limit=10");
    const cursor: string = body.nextCursor;
    const [payload, sig] = cursor.split(".");
    const forged = btoa(JSON.stringify({ l: "companies", t: team.teamId, s: "999999" })).replace(/=+$/, "");
    for (const bad of [`${payload}.${sig!.slice(0, -3)}abc`, `${forged}.${sig}`, "abc", "a.b.c", "%%%"]) {
      const res = await get(`/companies?cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(["details", "error"]);
    }
  });

  test("a cursor spelled any other way (padding, stray bits, the + / alphabet, whitespace) is 400", async () => {
    let limit = 0; // each page size ends on another row, so its cursor has another signature
    const { value: cursor, spelled } = await withStandardAlphabetSpelling(async () => (await get(`/companies?limit=${++limit}`)).body.nextCursor);
    const cut = cursor.length - 5;
    const spellings = {
      ...nonCanonicalSpellings(cursor),
      "standard alphabet": spelled,
      space: `${cursor.slice(0, cut)} ${cursor.slice(cut)}`,
      newline: `${cursor.slice(0, cut)}\n${cursor.slice(cut)}`,
    };
    const answers: Record<string, unknown> = {};
    for (const [name, bad] of Object.entries(spellings)) {
      const res = await get(`/companies?cursor=${encodeURIComponent(bad)}`);
      answers[name] = { status: res.status, details: Object.keys(res.body.details ?? {}) };
    }
    expect(answers).toEqual(Object.fromEntries(Object.keys(spellings).map((name) => [name, { status: 400, details: ["query.cursor"] }])));
    expect((await get(`/companies?cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
  });

  test("a cursor from another list or another team is 400", async () => {
    const { body } = await get("/companies?limit=10");
    expect((await get(`/users?cursor=${encodeURIComponent(body.nextCursor)}`)).status).toBe(400);
    expect((await get(`/companies?cursor=${encodeURIComponent(body.nextCursor)}`, other.keys.secret)).status).toBe(400);
  });
});

describe("search", () => {
  test("is case-insensitive over name, email and wallet", async () => {
    const byName = await get("/companies?search=aCmE&limit=200");
    expect(byName.body.count).toBe(12);
    const byEmail = await get("/companies?search=BILLING7%40EXAMPLE&limit=200");
    expect(byEmail.body.data.map((c: { externalId: string }) => c.externalId)).toEqual(["co-7"]);
    const byWallet = await get("/companies?search=0xwallet119");
    expect(byWallet.body.data.map((c: { externalId: string }) => c.externalId)).toEqual(["co-119"]);
  });

  test("treats % and _ literally", async () => {
    const res = await get(`/companies?search=${encodeURIComponent("100%")}`);
    expect(res.body.data.map((c: { externalId: string }) => c.externalId)).toEqual(["odd"]);
    expect((await get(`/companies?search=${encodeURIComponent("l_n")}`)).body.data.map((c: { externalId: string }) => c.externalId)).toEqual(["odd"]);
  });

  test("GET /users searches too, and filters by company", async () => {
    const res = await get("/users?search=PERSON1&limit=200");
    expect(res.body.count).toBe(31); // person1, person10-19, person100-119
    const co = (await get("/companies?search=billing5%40")).body.data[0];
    const users = await get(`/users?companyId=${co.id}`);
    expect(users.body.data.map((u: { externalId: string }) => u.externalId)).toEqual(["u-5"]);
    expect(users.body.data[0].companyIds).toEqual([co.id]);
    const byExternal = await get(`/users?companyId=${co.externalId}`);
    expect(byExternal.body.data.map((u: { externalId: string }) => u.externalId)).toEqual(["u-5"]);
    expect((await get("/users?companyId=no-such-co")).body.count).toBe(0);
  });
});

describe("GET /audit-log pagination and filters", () => {
  test("pages and filters by action", async () => {
    for (let i = 0; i < 3; i++) await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "co-1" } } });
    const cookie = `be_session=${team.dashboardAdmin}`;
    const page1 = await t.call("GET", "/audit-log?limit=2&action=embed_token.create", { cookie });
    expect(page1.status).toBe(200);
    expect(page1.body.count).toBe(2);
    const page2 = await t.call("GET", `/audit-log?limit=2&action=embed_token.create&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { cookie });
    expect(page2.body.count).toBe(1);
    expect(page2.body.nextCursor).toBeNull();
    expect(page1.body.data[0]).toMatchObject({
      actorKind: "secret",
      actorId: team.keyIds.secret,
      resourceType: "company",
      requestId: expect.stringMatching(/^req_/),
    });
    expect((await t.call("GET", "/audit-log?limit=0", { cookie })).status).toBe(400);
  });

  test("an empty filter is a 400 naming it, as on the other lists, not a page of nothing", async () => {
    const cookie = `be_session=${team.dashboardAdmin}`;
    for (const filter of ["action", "resourceType", "resourceId", "actorId"]) {
      const res = await t.call("GET", `/audit-log?${filter}=`, { cookie });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.details)).toEqual([`query.${filter}`]);
    }
  });
});

describe("cursor scope", () => {
  test("a development cursor is refused in production", async () => {
    const { body } = await get("/companies?limit=10");
    const res = await get(`/companies?cursor=${encodeURIComponent(body.nextCursor)}`, team.keys.secretLive);
    expect(res.status).toBe(400);
  });
});
