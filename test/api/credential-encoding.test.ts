/**
 * One credential, one spelling: embed tokens, session JWTs and dashboard sessions written any other way
 * (padding, the standard alphabet, stray bits, whitespace) are 401 invalid_credentials, even though a
 * lenient base64 decoder reads them as the genuine signature.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { nonCanonicalSpellings, withStandardAlphabetSpelling } from "../helpers/base64-variants";

const t = await createTestApp();
const team = await createTeamFixture(t);
const company = { id: "encoding-co" };

const mintEmbed = async () => (await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company } })).body.token as string;
const mintJwt = async () =>
  (await t.call("POST", "/access-tokens", { token: team.keys.secret, body: { company, user: { email: "u@encoding.test" } } })).body.token as string;
const entitlements = (options: { token?: string; cookie?: string; headers?: Record<string, string> }) =>
  t.call("GET", `/entitlements?company=${company.id}`, options);

const REFUSED = { status: 401, code: "invalid_credentials" };
const statusAndCode = async (options: { token?: string }) => {
  const res = await entitlements(options);
  return { status: res.status, code: res.body.code };
};

async function expectRefused(options: { token?: string; cookie?: string; headers?: Record<string, string> }) {
  const res = await entitlements(options);
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ error: expect.any(String), code: "invalid_credentials" });
}

for (const [kind, mint] of [
  ["a be_tok_ embed token", mintEmbed],
  ["a session JWT", mintJwt],
] as const) {
  describe(`GET /entitlements with ${kind}`, () => {
    test("200 as minted (the control)", async () => {
      expect((await entitlements({ token: await mint() })).status).toBe(200);
    });

    test("401 for each non-canonical spelling of its signature", async () => {
      const token = await mint();
      const answers: Record<string, unknown> = {};
      for (const [name, spelled] of Object.entries(nonCanonicalSpellings(token))) answers[name] = await statusAndCode({ token: spelled });
      expect(answers).toEqual({ "one = of padding": REFUSED, "two = of padding": REFUSED, "non-zero trailing bits in the last character": REFUSED });
      expect((await entitlements({ token })).status).toBe(200);
    });

    test("401 for its signature in the standard alphabet (+ and /)", async () => {
      const { value, spelled } = await withStandardAlphabetSpelling(mint);
      await expectRefused({ token: spelled });
      expect((await entitlements({ token: value })).status).toBe(200);
    });

    test("401 for whitespace inside the token", async () => {
      const token = await mint();
      await expectRefused({ headers: { authorization: `Bearer ${token.slice(0, -5)} ${token.slice(-5)}` } });
      await expectRefused({ headers: { authorization: `Bearer ${token.slice(0, -5)}\t${token.slice(-5)}` } });
    });
  });
}

describe("a session JWT's other segments", () => {
  test("401 for padding on the header or payload", async () => {
    const [header, payload, signature] = (await mintJwt()).split(".");
    await expectRefused({ token: `${header}=.${payload}.${signature}` });
    await expectRefused({ token: `${header}.${payload}=.${signature}` });
  });
});

describe("dashboard sessions", () => {
  test("401 for a session id with padding, as a cookie or as a Bearer credential", async () => {
    const res = await t.call("GET", "/events", { cookie: `be_session=${team.dashboardAdmin}` });
    expect(res.status).toBe(200);
    await expectRefused({ cookie: `be_session=${team.dashboardAdmin}=` });
    await expectRefused({ token: `${team.dashboardAdmin}==` });
  });
});
