/** POST /events and GET /events: the spec's body, behaviour rules 1-3, idempotency, credentials, isolation. */
import { describe, expect, test } from "bun:test";
import { createPeerInstance, createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";

const t = await createTestApp();
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId);
const api = team.keys.legacy;

const track = (company: string, name: string, extra: Record<string, unknown> = {}, token = api) =>
  t.call("POST", "/events", { token, body: { event_type: "track", name, company: { id: company }, ...extra } });

async function countEvents(where: string, ...params: unknown[]) {
  const [row] = await t.db.sql.unsafe(`select count(*)::int as n from events where team_id = $1 and ${where}`, [team.teamId, ...params] as never[]);
  return row!.n as number;
}

describe("POST /events track: behaviour 1, metered features", () => {
  test("quota: each track consumes one unit; past the limit 429 Limit reached, nothing counted", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "quota-co", catalog.planId);
    for (let i = 0; i < 5; i++) {
      const res = await track("quota-co", "api-calls");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, data: { companyId, userId: null } });
    }
    const refused = await track("quota-co", "api-calls");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: "Limit reached", code: "limit_reached" });
    const [counter] = await t.db.sql`select used from usage_counters where company_id = ${companyId}`;
    expect(counter!.used).toBe(5n);
  });

  test("the feature's eventKey meters it too", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "eventkey-co", catalog.planId);
    expect((await track("eventkey-co", "api_call")).status).toBe(200);
    const check = await t.call("GET", "/check?company=eventkey-co&feature=api-calls", { token: team.keys.secret });
    expect(check.body.data).toMatchObject({ companyId, used: 1, remaining: 4, limit: 5 });
    // The entitlement endpoints take the eventKey too, naming the same feature.
    const byEventKey = await t.call("GET", "/check?company=eventkey-co&feature=api_call", { token: team.keys.secret });
    expect(byEventKey.body.data).toEqual(check.body.data);
    const consumed = await t.call("POST", "/usage/consume", { token: team.keys.secret, body: { company: "eventkey-co", feature: "api_call" } });
    expect(consumed.body.data).toMatchObject({ featureKey: "api-calls", used: 2 });
  });

  test("credits: each track burns creditsPerUse; out of credits 402 Insufficient credits", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "credit-co", catalog.planId, 5n);
    expect((await track("credit-co", "ai-tokens")).status).toBe(200);
    expect((await track("credit-co", "ai-tokens")).status).toBe(200);
    const refused = await track("credit-co", "ai-tokens"); // 1 credit left, 2 needed
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ error: "Insufficient credits", code: "insufficient_credits" });
    const [left] = await t.db.sql`select sum(remaining)::int as n from credit_grants where company_id = ${companyId}`;
    expect(left!.n).toBe(1);
  });

  test("a company with no plan cannot use a metered feature: 429", async () => {
    const res = await track("no-plan-co", "api-calls");
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: "Feature not enabled", code: "feature_not_enabled" });
  });

  test("a track that names no feature is recorded and consumes nothing", async () => {
    const res = await track("plain-co", "page_viewed", { traits: { path: "/home" } });
    expect(res.status).toBe(200);
    expect(await countEvents("name = 'page_viewed' and outcome = 'accepted'")).toBe(1);
  });

  test("a metered track without a company is a 400 naming body.company", async () => {
    const res = await t.call("POST", "/events", { token: api, body: { event_type: "track", name: "api-calls" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Validation failed", details: { "body.company": expect.any(String) } });
  });
});

describe("POST /events track: behaviour 2, boolean features", () => {
  test("enabled boolean: 200; switched-off boolean: 429", async () => {
    await createCompanyOnPlan(t, api, team.teamId, "bool-co", catalog.planId);
    expect((await track("bool-co", "sso")).status).toBe(200);
    const off = await track("bool-co", "beta");
    expect(off.status).toBe(429);
    expect(off.body).toEqual({ error: "Feature not enabled", code: "feature_not_enabled" });
  });

  test("trait feature: 429 until the company trait meets the rule", async () => {
    await createCompanyOnPlan(t, api, team.teamId, "trait-co", catalog.planId);
    expect((await track("trait-co", "bulk")).status).toBe(429);
    const identify = await t.call("POST", "/events", {
      token: api,
      body: { event_type: "identify", company: { id: "trait-co", traits: { seats: 12 } } },
    });
    expect(identify.status).toBe(200);
    expect((await track("trait-co", "bulk")).status).toBe(200);
  });
});

describe("POST /events identify: behaviour 3", () => {
  test("upserts company and user, merges traits, records no event and consumes nothing", async () => {
    const first = await t.call("POST", "/events", {
      token: api,
      body: {
        event_type: "identify",
        company: { id: "ident-co", name: "Ident", traits: { tier: "gold", seats: 3 } },
        user: { id: "u-1", email: "u1@ident.test" },
        traits: { role: "admin" },
      },
    });
    expect(first.status).toBe(200);
    expect(first.body.ok).toBe(true);
    const { companyId, userId } = first.body.data;
    expect(companyId).toStartWith("comp_");
    expect(userId).toStartWith("user_");
    const again = await t.call("POST", "/events", {
      token: api,
      body: { event_type: "identify", company: { id: "ident-co", traits: { seats: 4 } }, user: { email: "u1@ident.test" } },
    });
    expect(again.body.data).toEqual({ companyId, userId });
    const [company] = await t.db.sql`select traits from companies where id = ${companyId}`;
    expect(company!.traits).toEqual({ tier: "gold", seats: 4 });
    const [user] = await t.db.sql`select traits from users where id = ${userId}`;
    expect(user!.traits).toEqual({ role: "admin" });
    expect(await countEvents("company_id = $2", companyId)).toBe(0);
  });

  test("identify of a metered feature's name still consumes nothing", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "ident-metered", catalog.planId);
    const res = await t.call("POST", "/events", {
      token: api,
      body: { event_type: "identify", name: "api-calls", company: { id: "ident-metered" } },
    });
    expect(res.status).toBe(200);
    const rows = await t.db.sql`select * from usage_counters where company_id = ${companyId}`;
    expect(rows.length).toBe(0);
  });
});

describe("POST /events idempotencyKey", () => {
  test("a retry returns the original outcome and counts once", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "idem-co", catalog.planId);
    const body = { idempotencyKey: "req-0001" };
    const first = await track("idem-co", "api-calls", body);
    const retry = await track("idem-co", "api-calls", body);
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await countEvents("company_id = $2", companyId)).toBe(1);
    const [counter] = await t.db.sql`select used from usage_counters where company_id = ${companyId}`;
    expect(counter!.used).toBe(1n);
  });

  test("20 concurrent retries of one key count once", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "idem-burst", catalog.planId);
    const results = await Promise.all(Array.from({ length: 20 }, () => track("idem-burst", "api-calls", { idempotencyKey: "burst-key" })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const [counter] = await t.db.sql`select used from usage_counters where company_id = ${companyId}`;
    expect(counter!.used).toBe(1n);
  });

  test("a refused attempt replays as refused, even after the limit would allow it", async () => {
    await createCompanyOnPlan(t, api, team.teamId, "idem-refused", catalog.planId);
    const first = await track("idem-refused", "beta", { idempotencyKey: "beta-1" });
    expect(first.status).toBe(429);
    const retry = await track("idem-refused", "beta", { idempotencyKey: "beta-1" });
    expect(retry.status).toBe(429);
    expect(retry.body).toEqual(first.body);
  });

  test("a key reused for another event is a 422 that names the first use, and records nothing", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "idem-reused", catalog.planId);
    expect((await track("idem-reused", "api-calls", { idempotencyKey: "reused-1" })).status).toBe(200);
    const other = await track("idem-reused", "page_viewed", { idempotencyKey: "reused-1" });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      error: "idempotencyKey was already used for a different request",
      details: { "body.idempotencyKey": "First used for 'api-calls' with quantity 1" },
    });
    expect(await countEvents("company_id = $2", companyId)).toBe(1);
    // The real retry still replays: the same answer, nothing counted twice.
    const retry = await track("idem-reused", "api-calls", { idempotencyKey: "reused-1" });
    expect(retry.status).toBe(200);
    expect(retry.body.data.companyId).toBe(companyId);
    expect(await countEvents("company_id = $2", companyId)).toBe(1);
    const [counter] = await t.db.sql`select used from usage_counters where company_id = ${companyId}`;
    expect(counter!.used).toBe(1n);
  });

  test("an idempotencyKey over 128 characters is a 400 and records nothing", async () => {
    const before = await countEvents("true");
    const res = await track("idem-co", "api-calls", { idempotencyKey: "k".repeat(129) });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details)).toEqual(["body.idempotencyKey"]);
    expect(await countEvents("true")).toBe(before);
  });

  test("the 128-character limit counts characters, not UTF-16 units: 128 emoji pass, 129 are a 400", async () => {
    await createCompanyOnPlan(t, api, team.teamId, "idem-emoji", catalog.planId);
    const ok = await track("idem-emoji", "page_viewed", { idempotencyKey: "😀".repeat(128) });
    expect(ok.status).toBe(200);
    const [stored] = await t.db.sql`select char_length(idempotency_key)::int as n from events where idempotency_key like '😀%'`;
    expect(stored!.n).toBe(128);
    const long = await track("idem-emoji", "page_viewed", { idempotencyKey: "😀".repeat(129) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ error: "Validation failed", details: { "body.idempotencyKey": "Expected 1 to 128 characters" } });
    const consume = await t.call("POST", "/usage/consume", {
      token: team.keys.secret,
      body: { company: "idem-emoji", feature: "api-calls", idempotencyKey: "é".repeat(129) },
    });
    expect(consume.status).toBe(400);
  });

  test("the same key in two teams is two different events", async () => {
    const other = await createTeamFixture(t, "Other idem team");
    const a = await t.call("POST", "/events", {
      token: api,
      body: { event_type: "track", name: "x", company: { id: "k-co" }, idempotencyKey: "shared" },
    });
    const b = await t.call("POST", "/events", {
      token: other.keys.legacy,
      body: { event_type: "track", name: "x", company: { id: "k-co" }, idempotencyKey: "shared" },
    });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.data.companyId).not.toBe(b.body.data.companyId);
  });
});

describe("POST /events and /usage/consume: an idempotencyKey is one company's", () => {
  test("the same key from two companies' embed tokens is two uses; neither answer names the other company", async () => {
    const acme = await createCompanyOnPlan(t, api, team.teamId, "idem-acme", catalog.planId);
    const globex = await createCompanyOnPlan(t, api, team.teamId, "idem-globex", catalog.planId);
    const tokenOf = async (id: string) =>
      (await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id } } })).body.token;
    const body = { event_type: "track", name: "api-calls", idempotencyKey: "shared-across-companies" };
    const a = await t.call("POST", "/events", { token: await tokenOf("idem-acme"), body });
    const g = await t.call("POST", "/events", { token: await tokenOf("idem-globex"), body });
    expect(a.body).toEqual({ ok: true, data: { companyId: acme, userId: null } });
    expect(g.body).toEqual({ ok: true, data: { companyId: globex, userId: null } });
    const used = await t.db.sql`select company_id, used from usage_counters where company_id in (${acme}, ${globex}) order by company_id`;
    expect(used.map((r) => r.used)).toEqual([1n, 1n]);
  });

  test("a consume with another company's key is its own decision, not a replay of theirs", async () => {
    await createCompanyOnPlan(t, api, team.teamId, "idem-consume-a", catalog.planId);
    await createCompanyOnPlan(t, api, team.teamId, "idem-consume-b", catalog.planId);
    const consume = (company: string, feature: string) =>
      t.call("POST", "/usage/consume", { token: team.keys.secret, body: { company, feature, idempotencyKey: "shared-consume" } });
    const a = await consume("idem-consume-a", "api-calls");
    expect(a.status).toBe(200);
    const b = await consume("idem-consume-b", "beta"); // switched off on the plan
    expect(b.status).toBe(429);
    expect(b.body).toEqual({ error: "Feature not enabled", code: "feature_not_enabled" });
    const again = await consume("idem-consume-a", "api-calls");
    expect(again.body.data).toMatchObject({ eventId: a.body.data.eventId, replayed: true });
  });
});

describe("POST /events tenant isolation", () => {
  test("another team's comp_ id is 400 No company, whether or not that team's company is cached; nothing is written", async () => {
    const other = await createTeamFixture(t, "Other company team");
    const theirs = (await t.call("POST", "/events", { token: other.keys.legacy, body: { event_type: "identify", company: { id: "their-co" } } })).body
      .data.companyId;
    // Their company is now in this instance's cache (under their tenant); ours must not see it.
    expect((await t.call("GET", `/entitlements?company=${theirs}`, { token: other.keys.secret })).status).toBe(200);
    const before = await countEvents("true");
    for (const body of [
      { event_type: "track", name: "not-a-feature", company: { id: theirs } },
      { event_type: "track", name: "not-a-feature", company: { id: theirs }, user: { id: "u-cross" } },
      { event_type: "track", name: "api-calls", company: { id: theirs } },
    ]) {
      const res = await t.call("POST", "/events", { token: api, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Validation failed", details: { "body.company.id": `No company ${theirs}` } });
    }
    expect(await countEvents("true")).toBe(before);
    const [links] = await t.db.sql`select count(*)::int as n from company_memberships where company_id = ${theirs}`;
    expect(links!.n).toBe(0);
  });
});

describe("POST /events validation", () => {
  test.each([
    [{ event_type: "click", name: "x", company: { id: "c" } }, "body.event_type"],
    [{ event_type: "track", company: { id: "c" } }, "body.name"],
    [{ event_type: "track", name: "x", company: {} }, "body.company"],
    [{ event_type: "track", name: "x", company: { id: "c" }, user: {} }, "body.user"],
  ])("%j -> 400 naming %s", async (body, field) => {
    const res = await t.call("POST", "/events", { token: api, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBeString();
    expect(Object.keys(res.body.details)).toContain(field);
  });

  test.each([
    [{ event_type: "identify", company: { id: "   " } }, "body.company.id"],
    [{ event_type: "identify", company: { id: "blank-keys-co", wallet: "\t" } }, "body.company.wallet"],
    [{ event_type: "identify", company: { id: "blank-keys-co", name: " \n " } }, "body.company.name"],
    [{ event_type: "identify", company: { id: "blank-keys-co" }, user: { id: "  " } }, "body.user.id"],
    [{ event_type: "identify", company: { id: "blank-keys-co" }, user: { idp_user_id: " " } }, "body.user.idp_user_id"],
  ])("a key or name of only whitespace is refused like an empty one: %j", async (body, field) => {
    const res = await t.call("POST", "/events", { token: api, body });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual({ [field]: "Expected a string of 1 to 200 characters, not all whitespace" });
    const [written] = await t.db
      .sql`select count(*)::int as n from companies where team_id = ${team.teamId} and (external_id = 'blank-keys-co' or trim(external_id) = '')`;
    expect(written!.n).toBe(0);
  });
});

describe("POST /events: input PostgreSQL cannot store", () => {
  test("traits nested 100,000 deep are a 400, not a 500, and nothing is written", async () => {
    const raw = `{"event_type":"identify","company":{"id":"deep-co"},"traits":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`;
    const res = await t.call("POST", "/events", { token: api, rawBody: raw, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(Object.values(res.body.details)).toEqual(["Nested more than 32 levels deep"]);
    const [created] = await t.db.sql`select count(*)::int as n from companies where external_id = 'deep-co'`;
    expect(created!.n).toBe(0);
  });
});

describe("POST /events with an embed token", () => {
  test("acts for the token's company; another company is 403 and nothing is written", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "embed-co", catalog.planId);
    const minted = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "embed-co" } } });
    const token = minted.body.token;
    const own = await t.call("POST", "/events", { token, body: { event_type: "track", name: "api-calls" } });
    expect(own.status).toBe(200);
    expect(own.body.data.companyId).toBe(companyId);
    const byId = await t.call("POST", "/events", { token, body: { event_type: "track", name: "api-calls", company: { id: "embed-co" } } });
    expect(byId.status).toBe(200);
    const before = await countEvents("true");
    const other = await t.call("POST", "/events", { token, body: { event_type: "track", name: "api-calls", company: { id: "someone-else" } } });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ error: expect.any(String), code: "wrong_company" });
    expect(await countEvents("true")).toBe(before);
    const [created] = await t.db.sql`select count(*)::int as n from companies where external_id = 'someone-else'`;
    expect(created!.n).toBe(0);
  });
});

describe("POST /events with an embed token: the company is the server's to describe", () => {
  test("name, wallet, email or traits of the company from a browser are 403 and change nothing", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "embed-facts-co", catalog.planId);
    const token = (await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "embed-facts-co" } } })).body.token;
    const bulk = async () => (await t.call("GET", "/check?company=embed-facts-co&feature=bulk", { token: team.keys.secret })).body.data.access;
    expect(await bulk()).toBe(false); // a trait rule: seats >= 10
    const [before] = await t.db.sql`select name, email, wallet_address, traits::text, last_seen_at from companies where id = ${companyId}`;
    const eventsBefore = await countEvents("company_id = $2", companyId);
    for (const body of [
      { event_type: "identify", traits: { seats: 99 } }, // top-level traits with no user describe the company
      { event_type: "identify", company: { id: "embed-facts-co", traits: { seats: 99 } } },
      { event_type: "identify", company: { id: "embed-facts-co", name: "Renamed by a browser" } },
      { event_type: "track", name: "page_viewed", company: { id: "embed-facts-co", wallet: "0xclaimed" } },
      { event_type: "track", name: "api-calls", company: { id: "embed-facts-co", email: "claimed@corp.test" } },
    ]) {
      const res = await t.call("POST", "/events", { token, body });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: "An embed token cannot change its company's name, wallet, email or traits: send them from your server",
        code: "wrong_credential_kind",
      });
    }
    const [after] = await t.db.sql`select name, email, wallet_address, traits::text, last_seen_at from companies where id = ${companyId}`;
    expect(after).toEqual(before!);
    expect(await countEvents("company_id = $2", companyId)).toBe(eventsBefore);
    expect(await bulk()).toBe(false);
    // An empty traits object describes nothing: it is not refused, and the traits stay as they were.
    for (const body of [
      { event_type: "identify", traits: {} },
      { event_type: "identify", company: { id: "embed-facts-co", traits: {} } },
    ]) {
      expect((await t.call("POST", "/events", { token, body })).status).toBe(200);
    }
    const [unchanged] = await t.db.sql`select traits::text from companies where id = ${companyId}`;
    expect(unchanged!.traits).toBe(before!.traits);
    // Its user's traits are the browser's to send, top-level ones included; the company's server key still sets its traits.
    const userToken = (
      await t.call("POST", "/access-tokens", { token: team.keys.secret, body: { company: { id: "embed-facts-co" }, user: { id: "facts-user" } } })
    ).body.token;
    const own = await t.call("POST", "/events", { token: userToken, body: { event_type: "identify", traits: { theme: "dark" } } });
    expect(own.status).toBe(200);
    const [user] = await t.db.sql`select traits from users where id = ${own.body.data.userId}`;
    expect(user!.traits).toEqual({ theme: "dark" });
    expect(
      (await t.call("POST", "/events", { token: api, body: { event_type: "identify", company: { id: "embed-facts-co", traits: { seats: 12 } } } }))
        .status,
    ).toBe(200);
    expect(await bulk()).toBe(true);
  });
});

describe("POST /events with an embed token: users", () => {
  test("a user of another company is 403 wrong_company, by any of their keys, and is left as it was", async () => {
    await createCompanyOnPlan(t, api, team.teamId, "embed-users-co", catalog.planId);
    await createCompanyOnPlan(t, api, team.teamId, "embed-victim-co", catalog.planId);
    const victim = await t.call("POST", "/events", {
      token: api,
      body: { event_type: "identify", company: { id: "embed-victim-co" }, user: { id: "victim-user", email: "victim@corp.test", name: "Victim" } },
    });
    const token = (await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "embed-users-co" } } })).body.token;
    const [before] = await t.db.sql`select name, traits::text, last_seen_at from users where id = ${victim.body.data.userId}`;
    for (const body of [
      { event_type: "identify", user: { email: "victim@corp.test", name: "renamed" }, traits: { role: "attacker-set" } },
      { event_type: "identify", user: { id: "victim-user" } },
      { event_type: "track", name: "page_viewed", user: { id: "victim-user" } },
      { event_type: "track", name: "api-calls", user: { email: "VICTIM@corp.test" } },
    ]) {
      const res = await t.call("POST", "/events", { token, body });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "This token is scoped to another company", code: "wrong_company" });
    }
    const [after] = await t.db.sql`select name, traits::text, last_seen_at from users where id = ${victim.body.data.userId}`;
    expect(after).toEqual(before!);
    const [links] = await t.db.sql`select count(*)::int as n from company_memberships where user_id = ${victim.body.data.userId}`;
    expect(links!.n).toBe(1);
  });

  test("its own company's users and new users are fine; a new one joins the token's company", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "embed-own-users-co", catalog.planId);
    await t.call("POST", "/events", {
      token: api,
      body: { event_type: "identify", company: { id: "embed-own-users-co" }, user: { id: "member-user" } },
    });
    const token = (await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "embed-own-users-co" } } })).body.token;
    const member = await t.call("POST", "/events", { token, body: { event_type: "identify", user: { id: "member-user", name: "Member" } } });
    expect(member.status).toBe(200);
    const fresh = await t.call("POST", "/events", { token, body: { event_type: "track", name: "page_viewed", user: { id: "brand-new-user" } } });
    expect(fresh.status).toBe(200);
    const [link] = await t.db.sql`select company_id from company_memberships where user_id = ${fresh.body.data.userId}`;
    expect(link!.company_id).toBe(companyId);
  });
});

describe("POST /events: a refused track writes nothing about who it is about", () => {
  const snapshot = async () => {
    const companies = await t.db
      .sql`select id, external_id, wallet_address, traits::text, last_seen_at from companies where team_id = ${team.teamId} order by id`;
    const users = await t.db.sql`select id, external_id, email, traits::text, last_seen_at from users where team_id = ${team.teamId} order by id`;
    const links = await t.db.sql`select company_id, user_id from company_memberships where team_id = ${team.teamId} order by 1, 2`;
    return JSON.stringify({ companies, users, links });
  };

  test("over quota, out of credits, feature off, or an unknown company: the refusal only", async () => {
    await createCompanyOnPlan(t, api, team.teamId, "refused-quota-co", catalog.planId);
    for (let i = 0; i < 5; i++) expect((await track("refused-quota-co", "api-calls")).status).toBe(200);
    await createCompanyOnPlan(t, api, team.teamId, "refused-credit-co", catalog.planId, 1n);
    const before = await snapshot();
    const facts = { traits: { plan: "x" }, user: { id: "refused-user", email: "refused@corp.test" } };
    const cases: [Record<string, unknown>, string, number][] = [
      [{ id: "refused-quota-co", wallet: "0xAAA0000000000000000000000000000000000001" }, "api-calls", 429],
      [{ id: "refused-credit-co", traits: { tier: "gold" } }, "ai-tokens", 402],
      [{ id: "refused-quota-co" }, "beta", 429],
      [{ id: "refused-brand-new-co" }, "api-calls", 429],
      [{ wallet: "0xBBB0000000000000000000000000000000000002" }, "sso", 429],
    ];
    for (const [company, name, status] of cases) {
      const res = await t.call("POST", "/events", { token: api, body: { event_type: "track", name, company, ...facts } });
      expect(res.status).toBe(status);
    }
    expect(await snapshot()).toBe(before);
  });

  test("a use that goes ahead writes them as before", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "accepted-facts-co", catalog.planId);
    const res = await t.call("POST", "/events", {
      token: api,
      body: { event_type: "track", name: "api-calls", company: { id: "accepted-facts-co", traits: { tier: "gold" } }, user: { id: "accepted-user" } },
    });
    expect(res.status).toBe(200);
    const [company] = await t.db.sql`select traits from companies where id = ${companyId}`;
    expect(company!.traits).toMatchObject({ tier: "gold" });
    const [link] = await t.db
      .sql`select m.company_id from company_memberships m join users u on u.id = m.user_id where u.external_id = 'accepted-user'`;
    expect(link!.company_id).toBe(companyId);
    expect(res.body.data.userId).toStartWith("user_");
  });
});

describe("GET /events", () => {
  test("lists accepted track events newest first, filtered by companyId and eventType", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "list-co", catalog.planId);
    await track("list-co", "first", { traits: { n: 1 } });
    await track("list-co", "second", { traits: { n: 2 } });
    await track("list-co", "beta"); // refused: not listed
    const cookie = `be_session=${team.dashboardCatalog}`;
    const res = await t.call("GET", `/events?companyId=${companyId}`, { cookie });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.data.map((e: { name: string }) => e.name)).toEqual(["second", "first"]);
    expect(res.body.data[0]).toEqual({
      id: expect.stringMatching(/^evt_/),
      eventType: "track",
      name: "second",
      companyId,
      userId: null,
      traits: { n: 2 },
      sentAt: expect.any(String),
    });
    const identify = await t.call("GET", `/events?companyId=${companyId}&eventType=identify`, { cookie });
    expect(identify.body).toEqual({ data: [], count: 0, nextCursor: null });
    const paged = await t.call("GET", `/events?companyId=${companyId}&limit=1`, { cookie });
    expect(paged.body.count).toBe(1);
    const next = await t.call("GET", `/events?companyId=${companyId}&limit=1&cursor=${encodeURIComponent(paged.body.nextCursor)}`, { cookie });
    expect(next.body.data[0].name).toBe("first");
    // The integrator's own id for the company filters the same way; an unknown one matches nothing.
    const byExternal = await t.call("GET", "/events?companyId=list-co", { cookie });
    expect(byExternal.body.data.map((e: { name: string }) => e.name)).toEqual(["second", "first"]);
    expect((await t.call("GET", "/events?companyId=no-such-co", { cookie })).body).toEqual({ data: [], count: 0, nextCursor: null });
  });

  test("limit over 200 is a 400", async () => {
    const res = await t.call("GET", "/events?limit=201", { cookie: `be_session=${team.dashboardCatalog}` });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual({ "query.limit": expect.any(String) });
  });
});

describe("company details on events and access tokens", () => {
  const tenant = { teamId: team.teamId, environment: "development" as const };
  const checkBulk = async (call: typeof t.call, company: string) =>
    (await call("GET", `/check?company=${company}&feature=bulk`, { token: team.keys.secret })).body.data.access;

  test("a track repeating what is stored keeps every instance's cached company (no reload, no notice)", async () => {
    await createCompanyOnPlan(t, api, team.teamId, "facts-co", catalog.planId);
    const body = { event_type: "identify", company: { id: "facts-co", name: "Facts Co", traits: { seats: 3 } } };
    expect((await t.call("POST", "/events", { token: api, body })).status).toBe(200);
    // The identify's own change notice may still be on its way: let it land (and evict) before caching.
    await Bun.sleep(200);
    const cached = await t.deps.entitlements.company(tenant, "facts-co");
    for (let i = 0; i < 3; i++)
      expect((await track("facts-co", "page_viewed", { company: { id: "facts-co", name: "Facts Co", traits: { seats: 3 } } })).status).toBe(200);
    await Bun.sleep(200); // time for a notice, had one been sent
    expect(t.deps.entitlements.company(tenant, "facts-co")).toBe(cached!);
  });

  test("a track that changes a trait: the next check here sees it, another instance within a second", async () => {
    const peer = await createPeerInstance(t);
    await createCompanyOnPlan(t, api, team.teamId, "facts-trait-co", catalog.planId);
    expect(await checkBulk(t.call, "facts-trait-co")).toBe(false);
    expect(await checkBulk(peer.call, "facts-trait-co")).toBe(false);
    expect((await track("facts-trait-co", "page_viewed", { company: { id: "facts-trait-co", traits: { seats: 12 } } })).status).toBe(200);
    expect(await checkBulk(t.call, "facts-trait-co")).toBe(true);
    const deadline = Date.now() + 1_000;
    while (!(await checkBulk(peer.call, "facts-trait-co")) && Date.now() < deadline) await Bun.sleep(20);
    expect(await checkBulk(peer.call, "facts-trait-co")).toBe(true);
  });

  test("minting an access token with new traits changes the next check at once", async () => {
    await createCompanyOnPlan(t, api, team.teamId, "facts-token-co", catalog.planId);
    expect(await checkBulk(t.call, "facts-token-co")).toBe(false);
    const minted = await t.call("POST", "/api-keys/tokens", {
      token: team.keys.secret,
      body: { company: { id: "facts-token-co", traits: { seats: 12 } } },
    });
    expect(minted.status).toBe(201);
    expect(await checkBulk(t.call, "facts-token-co")).toBe(true);
  });
});
