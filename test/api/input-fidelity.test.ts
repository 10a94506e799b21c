/**
 * Input the service could not keep exactly as sent is refused with 400 {error, details} naming the field,
 * from the one check every request passes (src/lib/storable-input.ts): text with a lone UTF-16
 * surrogate (PostgreSQL refuses it in jsonb, and elsewhere it became U+FFFD, so two different ids
 * collided), and JSON numbers no double holds exactly (they were rounded in silence).
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";

const t = await createTestApp();
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId, "development", 1_000n);
await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "fidelity-co", catalog.planId);
const companyId = (
  await t.call("POST", "/events", { token: team.keys.legacy, body: { event_type: "identify", company: { id: "fidelity-co", traits: { seats: 5 } } } })
).body.data.companyId;
const json = { "content-type": "application/json" };
const send = (method: string, path: string, rawBody?: string) =>
  t.call(method, path, {
    token: path === "/events" ? team.keys.legacy : team.keys.secret,
    rawBody,
    headers: rawBody === undefined ? undefined : json,
  });
const LONE = "Must not contain a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)";

test("a lone surrogate anywhere in a body (values, object keys) is a 400 naming the field, and nothing is written", async () => {
  const cases: [string, string, string | undefined, string][] = [
    ["PATCH", `/companies/${companyId}`, '{"traits":{"k":"\\ud800"}}', "body.traits.k"],
    ["PATCH", `/companies/${companyId}`, '{"traits":{"\\udfff":1}}', "body.traits.\udfff"],
    ["PUT", `/features/${catalog.features.sso}`, '{"description":"x\\ud800"}', "body.description"],
    ["POST", "/api-keys/tokens", '{"company":{"id":"fidelity-\\ud800"}}', "body.company.id"],
    ["POST", "/access-tokens", '{"company":{"id":"fidelity-co"},"user":{"id":"\\ud800"}}', "body.user.id"],
    ["POST", "/events", '{"event_type":"identify","company":{"id":"fidelity-co","traits":{"k":"\\ud800"}}}', "body.company.traits.k"],
    ["POST", "/events", '{"event_type":"identify","company":{"id":"lone-\\ud800"}}', "body.company.id"],
    ["POST", "/usage/consume", '{"company":"fidelity-co","feature":"api-calls","idempotencyKey":"k\\udc00"}', "body.idempotencyKey"],
  ];
  for (const [method, path, rawBody, field] of cases) {
    const res = await send(method, path, rawBody);
    expect([method, path, res.status, res.body]).toEqual([method, path, 400, { error: "Validation failed", details: { [field]: LONE } }]);
  }
  const [company] = await t.db.sql`select traits from companies where id = ${companyId}`;
  expect(company!.traits).toEqual({ seats: 5 });
  expect((await t.db.sql`select 1 from companies where external_id like 'lone-%'`).length).toBe(0);
  // A URL cannot carry one: its escapes are UTF-8, and Elysia leaves an undecodable escape (here the
  // CESU-8 form of U+D800) as it was sent, so no U+FFFD stands in for it either.
  expect((await send("GET", "/companies/%ED%A0%80")).status).toBe(404);
  expect((await send("GET", "/companies?search=%ED%A0%80")).status).toBe(200);
  // A surrogate pair (an emoji, escaped or not) is well-formed text and kept as sent.
  const ok = await send("PATCH", `/companies/${companyId}`, '{"traits":{"mood":"\\ud83d\\ude00 😀"}}');
  expect(ok.status).toBe(200);
  expect((await t.db.sql`select traits->>'mood' as mood from companies where id = ${companyId}`)[0]!.mood).toBe("😀 😀");
});

test("a JSON number no double holds exactly is a 400 naming the field, never rounded in silence", async () => {
  const before = await t.db.sql`select count(*)::int as n from events`;
  const traitsBefore = (await t.db.sql`select traits from companies where id = ${companyId}`)[0]!.traits;
  const cases: [string, string, string, string][] = [
    ["POST", "/usage/consume", '{"company":"fidelity-co","feature":"api-calls","quantity":1.00000000000000000001}', "body.quantity"],
    ["POST", "/usage/consume", '{"company":"fidelity-co","feature":"api-calls","quantity":2.0000000000000001e0}', "body.quantity"],
    ["PATCH", `/companies/${companyId}`, '{"traits":{"ratio":0.30000000000000000001}}', "body.traits.ratio"],
    ["PATCH", `/companies/${companyId}`, '{"traits":{"list":[1,0.1000000000000000055511151231257827]}}', "body.traits.list[1]"],
    ["PATCH", `/companies/${companyId}`, '{"traits":{"tiny":1e-400}}', "body.traits.tiny"],
  ];
  for (const [method, path, rawBody, field] of cases) {
    const res = await send(method, path, rawBody);
    expect([rawBody, res.status, res.body]).toEqual([
      rawBody,
      400,
      { error: "Validation failed", details: { [field]: "Not exactly representable: send at most 15 significant digits" } },
    ]);
  }
  expect((await t.db.sql`select count(*)::int as n from events`)[0]!.n).toBe(before[0]!.n);
  expect((await t.db.sql`select traits from companies where id = ${companyId}`)[0]!.traits).toEqual(traitsBefore);
  // Spellings of exactly representable values are taken: 1.0, 1e0, 0.3, -0, 5e-324, a string with digits.
  expect((await send("POST", "/usage/consume", '{"company":"fidelity-co","feature":"api-calls","quantity":1.0}')).status).toBe(200);
  expect((await send("POST", "/usage/consume", '{"company":"fidelity-co","feature":"api-calls","quantity":1e0}')).status).toBe(200);
  const fine = await send(
    "PATCH",
    `/companies/${companyId}`,
    '{"traits":{"ratio":0.3,"zero":-0,"min":5e-324,"small":1.5E-300,"id":"1.00000000000000000001"}}',
  );
  expect(fine.status).toBe(200);
  expect((await t.db.sql`select traits from companies where id = ${companyId}`)[0]!.traits).toMatchObject({
    ratio: 0.3,
    min: 5e-324,
    small: 1.5e-300,
    id: "1.00000000000000000001",
  });
});

test("a body that is not valid UTF-8 is malformed JSON, never stored with U+FFFD in place of the bytes", async () => {
  const [before] = await t.db.sql`select name from companies where id = ${companyId}`;
  const bytes = (text: string, ...invalid: number[]) => {
    const [head, tail] = text.split("|").map((part) => new TextEncoder().encode(part));
    return new Uint8Array([...head!, ...invalid, ...tail!]);
  };
  const bodies = [
    bytes('{"name":"Bad|Name"}', 0xff, 0xfe), // bytes no UTF-8 text has
    bytes('{"name":"Caf|"}', 0xe9), // Latin-1, whatever the charset parameter says
    bytes('{"name":"|"}', 0xed, 0xa0, 0x80), // CESU-8 of a lone surrogate
  ];
  for (const rawBody of bodies) {
    for (const type of ["application/json", "application/json; charset=latin1"]) {
      const res = await t.call("PATCH", `/companies/${companyId}`, { token: team.keys.secret, rawBody, headers: { "content-type": type } });
      expect([type, res.status, res.body]).toEqual([
        type,
        400,
        { error: "Malformed request body", details: { body: "Expected a valid JSON document" } },
      ]);
    }
  }
  expect((await t.db.sql`select name from companies where id = ${companyId}`)[0]!.name).toBe(before!.name);
});

test("an integer sent as a string is its decimal digits: hex, exponent, a sign or spaces are a 400, never read as another number", async () => {
  const before = (await t.db.sql`select count(*)::int as n from events`)[0]!.n;
  const expected = (field: string, what: string) => ({ error: "Validation failed", details: { [field]: what } });
  for (const spelling of ["0x10", "1e3", "0b11", "0o7", " 5", "5 ", "+5", "5.0", "Infinity"]) {
    const consume = await send("POST", "/usage/consume", JSON.stringify({ company: "fidelity-co", feature: "api-calls", quantity: spelling }));
    expect([spelling, consume.status, consume.body]).toEqual([spelling, 400, expected("body.quantity", "Expected an integer from 1 to 1000000")]);
    const token = await send(
      "POST",
      "/api-keys/tokens",
      JSON.stringify({ company: { id: "fidelity-co" }, ttlSeconds: spelling.replace("5", "100") }),
    );
    expect([spelling, token.status, token.body]).toEqual([spelling, 400, expected("body.ttlSeconds", "Expected an integer from 60 to 900")]);
    const page = await send("GET", `/companies?limit=${encodeURIComponent(spelling)}`);
    expect([spelling, page.status, page.body]).toEqual([spelling, 400, expected("query.limit", "Expected an integer from 1 to 200")]);
  }
  expect((await t.db.sql`select count(*)::int as n from events`)[0]!.n).toBe(before);
  // Digits are read, leading zeros included.
  expect((await send("POST", "/usage/consume", '{"company":"fidelity-co","feature":"api-calls","quantity":"02"}')).body.data.consumed).toBe(2);
  expect((await send("GET", "/companies?limit=007")).body.count).toBeGreaterThan(0);
});
