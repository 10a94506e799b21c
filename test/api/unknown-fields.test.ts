/**
 * One rule for body fields a route does not know (src/http/unknown-fields.ts): 400 `{error, details}` naming
 * each one, at any depth, on every kind of route, after credentials, before anything is written. Free
 * key/value objects (traits) stay open.
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { newTeamWithOwner, PASSWORD } from "../helpers/dashboard";
import { createTeamFixture, dashboardCookie } from "../helpers/fixtures";

const t = await createTestApp();
const team = await createTeamFixture(t);

/** Row counts of the tables these requests could write, and the companies' names. */
const state = async () =>
  t.db.sql`select (select count(*) from companies)::int as companies, (select count(*) from plans)::int as plans,
    (select count(*) from dashboard_sessions)::int as sessions, (select string_agg(name, ',' order by id) from companies) as names`;

test("developer API: PATCH /companies/{id} with a typo is 400 naming it, and changes nothing", async () => {
  const made = await t.call("POST", "/events", {
    token: team.keys.legacy,
    body: { event_type: "identify", company: { id: "uf-co", name: "Before" } },
  });
  expect(made.status).toBe(200);
  const before = await state();
  const res = await t.call("PATCH", "/companies/uf-co", { token: team.keys.secret, body: { nmae: "After", name: "After", activePlanID: "x" } });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    error: "Validation failed",
    details: {
      "body.nmae": expect.stringMatching(/^Unknown field/),
      "body.activePlanID": expect.stringMatching(/^Unknown field/),
    },
  });
  expect(res.body.details["body.nmae"]).toContain("name, traits");
  expect(await state()).toEqual(before);
});

test("developer API: nested closed objects are checked too, free key/value traits are not", async () => {
  const before = await state();
  const nested = await t.call("POST", "/events", {
    token: team.keys.legacy,
    body: { event_type: "identify", company: { id: "uf-nested", nmae: "Typo" }, traits: { anything: 1 } },
  });
  expect(nested.status).toBe(400);
  expect(nested.body.details).toEqual({ "body.company.nmae": expect.stringMatching(/^Unknown field/) });
  expect(await state()).toEqual(before);
  const open = await t.call("POST", "/events", {
    token: team.keys.legacy,
    body: { event_type: "identify", company: { id: "uf-open", traits: { seats: 3, "any key": { deep: true } } } },
  });
  expect(open.status).toBe(200);
});

test("an unknown field and a bad one are named in the same 400; credentials still come first", async () => {
  const both = await t.call("PATCH", "/companies/uf-co", { token: team.keys.secret, body: { name: 7, colour: "red" } });
  expect(both.status).toBe(400);
  expect(Object.keys(both.body.details).sort()).toEqual(["body.colour", "body.name"]);
  expect((await t.call("PATCH", "/companies/uf-co", { body: { colour: "red" } })).status).toBe(401);
  expect((await t.call("PATCH", "/companies/uf-co", { token: team.keys.publishable, body: { colour: "red" } })).status).toBe(403);
});

test("dashboard: POST /dashboard/plans with an unknown field is 400 and creates no plan", async () => {
  const before = await state();
  const res = await t.call("POST", "/dashboard/plans", {
    ...dashboardCookie(team.dashboardAdmin, team.dashboardAdminCsrf),
    body: { name: "Typo plan", descripton: "Typo" },
  });
  expect(res.status).toBe(400);
  expect(res.body.details).toEqual({ "body.descripton": expect.stringMatching(/^Unknown field/) });
  expect(await state()).toEqual(before);
});

test("public: POST /dashboard/sign-in with an unknown field is 400 and opens no session", async () => {
  const { owner } = await newTeamWithOwner(t);
  const before = await state();
  const res = await t.call("POST", "/dashboard/sign-in", { body: { email: owner.email, password: PASSWORD, rememberMe: true } });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: "Validation failed", details: { "body.rememberMe": expect.stringMatching(/^Unknown field/) } });
  expect(await state()).toEqual(before);
  expect((await t.call("POST", "/dashboard/sign-in", { body: { email: owner.email, password: PASSWORD } })).status).toBe(200);
});

test("the OpenAPI document says so: its description states the rule, request objects are closed, traits stay open", async () => {
  const doc = (await t.call("GET", "/openapi.json")).body;
  expect(doc.info.description).toContain("an unknown field, at any depth, is never ignored but refused with 400");
  const { CompanyUpdate, CompanyRef } = doc.components.schemas;
  expect(CompanyUpdate.additionalProperties).toBe(false);
  expect(CompanyRef.additionalProperties).toBe(false);
  expect(CompanyUpdate.properties.traits.additionalProperties).toBeUndefined();
  expect(CompanyUpdate.properties.traits.patternProperties).toBeDefined();
  // Responses are not closed by this rule (a client should accept fields added later).
  expect(doc.components.schemas.Company.additionalProperties).toBeUndefined();
});
