/** POST /dashboard/sign-in, /sign-in/link, /sign-out, GET /dashboard/session, environment switch: cookies, expiry, throttling. */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { address, browser, cookieOf, newOperator, newTeamWithOwner, PASSWORD, signIn } from "../helpers/dashboard";
import { createSignInLink } from "../../src/modules/teams/sign-in";
import { OPERATOR } from "../../src/modules/teams/roles";
import { sessionCookie } from "../../src/auth/session-cookie";
import { loadConfig } from "../../src/config";

const t = await createTestApp({ TRUST_PROXY: "true" });
const secrets: string[] = [PASSWORD];

describe("POST /dashboard/sign-in", () => {
  test("200: sets the __Host-be_session cookie (HttpOnly, SameSite=Strict, Path=/, Max-Age 12 h, Secure) and returns the session with its CSRF token", async () => {
    const { teamId, owner } = await newTeamWithOwner(t);
    const res = await signIn(t, owner.email.toUpperCase());
    expect(res.status).toBe(200);
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^__Host-be_session=dsess_[0-9A-Za-z]{48}; /);
    const attributes = cookie.split("; ").slice(1).sort();
    expect(attributes).toEqual(["HttpOnly", "Max-Age=43200", "Path=/", "SameSite=Strict", "Secure"]);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^dsess_/),
      operator: { id: owner.id, email: owner.email, name: "Test Operator" },
      team: { id: teamId, name: "Dashboard team" },
      memberId: owner.memberId,
      environment: "development",
      roles: ["owner"],
      expiresAt: new Date(t.clock.now() + 12 * 3_600_000).toISOString(),
      csrfToken: expect.any(String),
    });
    secrets.push(cookieOf(res), res.body.data.csrfToken);
    expect(JSON.stringify(res.body)).not.toContain(cookieOf(res));
    const session = await t.call("GET", "/dashboard/session", { cookie: `be_session=${cookieOf(res)}` });
    expect(session.status).toBe(200);
    expect(session.body.data.roles).toEqual(["owner"]);
    // A page that lost the CSRF token (a reload, a new tab) reads the same one here.
    expect(session.body.data.csrfToken).toBe(res.body.data.csrfToken);
    expect(session.headers.get("cache-control")).toBe("no-store"); // no cache keeps the CSRF token
  });

  test("401: an unknown email and a wrong password get the same answer", async () => {
    const { owner } = await newTeamWithOwner(t);
    const wrong = await signIn(t, owner.email, "not the password at all");
    const unknown = await signIn(t, "nobody-here@test.dev", PASSWORD);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: "Email or password is incorrect", code: "sign_in_failed" });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.get("set-cookie")).toBeNull();
  });

  test("429 per account: the sixth attempt in 15 minutes, from any address, even with the right password; free again after the window", async () => {
    const { owner } = await newTeamWithOwner(t);
    for (let i = 0; i < 5; i++) expect((await signIn(t, owner.email, "wrong password here")).status).toBe(401);
    const throttled = await signIn(t, owner.email);
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual({ error: expect.any(String), code: "sign_in_throttled" });
    const retryAfter = Number(throttled.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // An unknown email is counted the same way (the answer never tells which exist).
    for (let i = 0; i < 5; i++) await signIn(t, "ghost@test.dev", "wrong password here");
    expect((await signIn(t, "ghost@test.dev", "wrong password here")).status).toBe(429);
    t.clock.advance(retryAfter * 1000);
    expect((await signIn(t, owner.email)).status).toBe(200);
  });

  test("a burst of parallel guesses cannot slip past the account limit: of 12 at once, 5 are checked and 7 refused", async () => {
    const { owner } = await newTeamWithOwner(t);
    const burst = await Promise.all(Array.from({ length: 12 }, () => signIn(t, owner.email, "wrong password here")));
    const statuses = burst.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    // The right password now is refused too, until the window has passed.
    expect((await signIn(t, owner.email)).status).toBe(429);
  }, 60_000);

  test("a right password lets its held attempt go: sign-ins that succeed never count toward the limit", async () => {
    const { owner } = await newTeamWithOwner(t);
    const from = address();
    for (let i = 0; i < 8; i++) expect((await signIn(t, owner.email, PASSWORD, from)).status).toBe(200);
    const [row] = await t.db.sql`select count(*)::int as n from sign_in_failures where scope in (${`account:${owner.email}`}, ${`address:${from}`})`;
    expect(row!.n).toBe(0);
  }, 60_000);

  test("429 per address: 20 failures from one address, across accounts; a success there does not reset it", async () => {
    const { owner } = await newTeamWithOwner(t);
    const from = address();
    for (let i = 0; i < 19; i++) expect((await signIn(t, `spray-${i}@test.dev`, "wrong password here", from)).status).toBe(401);
    expect((await signIn(t, owner.email, PASSWORD, from)).status).toBe(200);
    expect((await signIn(t, "spray-last@test.dev", "wrong password here", from)).status).toBe(401);
    const throttled = await signIn(t, owner.email, PASSWORD, from);
    expect(throttled.status).toBe(429);
    expect(throttled.body.code).toBe("sign_in_throttled");
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is unaffected.
    expect((await signIn(t, owner.email)).status).toBe(200);
  }, 90_000); // 22 Argon2id verifications: slow by design, slower on a busy machine

  test("415: a body that is not JSON is refused before validation (no cross-site form sign-in)", async () => {
    const res = await t.call("POST", "/dashboard/sign-in", {
      rawBody: "email=a&password=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
  });
});

describe("CSRF on cookie-authenticated writes", () => {
  test("403 csrf_failed without the header or with another token; 200 with the session's; a bearer session needs none", async () => {
    const { owner } = await newTeamWithOwner(t);
    const b = await browser(t, owner.email);
    const other = await browser(t, owner.email);
    const cookie = `be_session=${b.session}`;
    const body = { environment: "development" };
    const missing = await t.call("POST", "/dashboard/session/environment", { cookie, body });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ error: expect.any(String), code: "csrf_failed" });
    const wrong = await t.call("POST", "/dashboard/session/environment", { cookie, body, headers: { "x-csrf-token": other.csrf } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe("csrf_failed");
    expect((await b.write("POST", "/dashboard/session/environment", body)).status).toBe(200);
    expect((await t.call("POST", "/dashboard/session/environment", { token: b.session, body })).status).toBe(200);
    // Reads need none.
    expect((await b.read("/dashboard/members")).status).toBe(200);
    // The token GET /dashboard/session hands a reloaded page is one this session's writes accept.
    const reread = (await b.read("/dashboard/session")).body.data.csrfToken;
    const again = await t.call("POST", "/dashboard/session/environment", { cookie, body, headers: { "x-csrf-token": reread } });
    expect(again.status).toBe(200);
  });

  test("applies to every route, not only the dashboard's: PATCH /companies/{id} with the cookie", async () => {
    const { owner } = await newTeamWithOwner(t);
    const b = await browser(t, owner.email);
    const refused = await t.call("PATCH", "/companies/anything", { cookie: `be_session=${b.session}`, body: { name: "X" } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("csrf_failed");
    expect((await b.write("PATCH", "/companies/anything", { name: "X" })).status).toBe(404); // past CSRF: no such company
  });

  test("the cookie carries only dashboard sessions: an API key in it is refused", async () => {
    const { owner } = await newTeamWithOwner(t);
    const b = await browser(t, owner.email);
    const key = await b.write("POST", "/dashboard/api-keys", { name: "k", type: "secret" });
    const res = await t.call("GET", "/companies", { cookie: `be_session=${key.body.data.key}` });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("invalid_credentials");
  });
});

describe("session lifetime", () => {
  test("401 expired_credentials once the 12 h are up (test clock)", async () => {
    const { owner } = await newTeamWithOwner(t);
    const b = await browser(t, owner.email);
    t.clock.advance(12 * 3_600_000 - 1_000);
    expect((await b.read("/dashboard/session")).status).toBe(200);
    t.clock.advance(1_001);
    const res = await b.read("/dashboard/session");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("expired_credentials");
  });

  test("POST /dashboard/sign-out revokes the session and clears the cookie", async () => {
    const { owner } = await newTeamWithOwner(t);
    const b = await browser(t, owner.email);
    const out = await b.write("POST", "/dashboard/sign-out");
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toBe("__Host-be_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure");
    const after = await b.read("/dashboard/session");
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("revoked_credentials");
    expect((await t.call("GET", "/dashboard/session", { token: b.session })).status).toBe(401);
  });

  test("POST /dashboard/session/environment switches where the session acts", async () => {
    const { owner } = await newTeamWithOwner(t);
    const b = await browser(t, owner.email);
    const res = await b.write("POST", "/dashboard/session/environment", { environment: "production" });
    expect(res.status).toBe(200);
    expect(res.body.data.environment).toBe("production");
    expect((await b.read("/dashboard/session")).body.data.environment).toBe("production");
    const key = await b.write("POST", "/dashboard/api-keys", { name: "live", type: "secret" });
    expect(key.body.data.key).toStartWith("sk_live_");
  });
});

describe("POST /dashboard/sign-in/link", () => {
  test("a link printed for a member signs in once; a second use, or one after 15 minutes, is 401", async () => {
    const { teamId, owner } = await newTeamWithOwner(t);
    const link = await createSignInLink(
      t.db.sql,
      { email: owner.email, teamId },
      { now: t.clock.now(), actor: OPERATOR, dashboardUrl: "http://localhost:3000/dashboard" },
    );
    secrets.push(link.token);
    expect(link.url).toBe(`http://localhost:3000/dashboard/sign-in#token=${link.token}`);
    const first = await t.call("POST", "/dashboard/sign-in/link", { body: { token: link.token } });
    expect(first.status).toBe(200);
    expect(first.body.data.operator.id).toBe(owner.id);
    expect(cookieOf(first)).toStartWith("dsess_");
    const again = await t.call("POST", "/dashboard/sign-in/link", { body: { token: link.token } });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe("sign_in_failed");
    const late = await createSignInLink(t.db.sql, { email: owner.email, teamId }, { now: t.clock.now(), actor: OPERATOR, dashboardUrl: "http://x" });
    t.clock.advance(15 * 60_000 + 1);
    expect((await t.call("POST", "/dashboard/sign-in/link", { body: { token: late.token } })).status).toBe(401);
  });

  test("a link for someone who is not a member is refused at creation", async () => {
    const { teamId } = await newTeamWithOwner(t);
    const other = await newTeamWithOwner(t);
    const outsider = await newOperator(t, other.teamId, ["catalog:read"]);
    await expect(
      createSignInLink(t.db.sql, { email: outsider.email, teamId }, { now: t.clock.now(), actor: OPERATOR, dashboardUrl: "http://x" }),
    ).rejects.toThrow(/not a member/);
  });
});

test("DASHBOARD_COOKIE_SECURE=false drops Secure (plain-http development); it is on by default", async () => {
  expect((await loadConfig({ DATA_DIR: `${process.cwd()}/.data/test`, DASHBOARD_COOKIE_SECURE: "false" })).dashboardCookieSecure).toBe(false);
  expect(t.config.dashboardCookieSecure).toBe(true);
  expect(sessionCookie("dsess_x", 60, false)).toBe("be_session=dsess_x; Max-Age=60; Path=/; HttpOnly; SameSite=Strict");
  expect(sessionCookie("dsess_x", 60, true)).toBe("__Host-be_session=dsess_x; Max-Age=60; Path=/; HttpOnly; SameSite=Strict; Secure");
});

test("the session is read from __Host-be_session, or from be_session (plain http); the prefixed one wins when both are sent", async () => {
  const { owner } = await newTeamWithOwner(t);
  const mine = await browser(t, owner.email);
  const other = await newTeamWithOwner(t);
  const planted = await browser(t, other.owner.email);
  const teamWith = async (cookie: string) => (await t.call("GET", "/dashboard/session", { cookie })).body.data?.team.id;
  expect(await teamWith(`__Host-be_session=${mine.session}`)).toBe(mine.res.body.data.team.id);
  expect(await teamWith(`be_session=${mine.session}`)).toBe(mine.res.body.data.team.id);
  // A plain-named cookie planted beside the browser's own (by a sibling host, in either order) is not the one read.
  expect(await teamWith(`be_session=${planted.session}; __Host-be_session=${mine.session}`)).toBe(mine.res.body.data.team.id);
  expect(await teamWith(`__Host-be_session=${mine.session}; be_session=${planted.session}`)).toBe(mine.res.body.data.team.id);
});

test("no session token, CSRF token, password or link token appears in the logs", () => {
  t.logger.flush();
  const text = t.logs.join("\n");
  expect(t.logs.length).toBeGreaterThan(10);
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/dsess_[0-9A-Za-z]{48}/);
  expect(text).not.toMatch(/dlink_/);
});
