/**
 * The Idempotency-Key header on state-changing routes: a retry gets the first response and writes nothing
 * more; another request under the key is 422; a key still running is 409; keys are per credential and
 * environment; refusals before the handler, 400s and 5xx are not kept; keys expire and are pruned.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp, type CallResult } from "../helpers/app";
import { createTeamFixture, newKey } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { randomToken } from "../../src/lib/ids";
import { pruneExpiredKeys } from "../../src/http/idempotency/repo";
import { RETENTION_MS, STALE_CLAIM_MS, requestFingerprint } from "../../src/http/idempotency/rules";

const t = await createTestApp({ RATE_LIMIT_ENABLED: "false" });
const team = await createTeamFixture(t, "Idempotency");
const sql = t.db.sql;

const freshKey = () => `idem-${randomToken(16)}`;
const mintBody = (companyId = `co-${randomToken(8)}`) => ({ company: { id: companyId, name: "Acme" } });
const mint = (key: string | null, body: unknown = mintBody(), token = team.keys.secret, path = "/api-keys/tokens") =>
  t.call("POST", path, { token, body, headers: key === null ? {} : { "idempotency-key": key } });
const rowsFor = async (key: string) => [
  ...(await sql`select environment, scope, status, response_status from idempotency_keys where key = ${key} order by environment`),
];
const replayed = (res: CallResult) => res.headers.get("idempotent-replayed");

/** The first response and its replay agree on everything but the request id and the replay marker. */
async function expectReplayOf(retry: CallResult, first: CallResult) {
  expect(replayed(first)).toBeNull();
  expect(replayed(retry)).toBe("true");
  expect(retry.status).toBe(first.status);
  expect(retry.body).toEqual(first.body);
  expect(retry.headers.get("content-type")).toBe(first.headers.get("content-type"));
  expect(retry.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
  // The retry's log line (written after the response, so looked for a moment) carries the status it answered.
  const logLine = () => t.logs.map((l) => JSON.parse(l)).find((l) => l.msg === "request" && l.requestId === retry.headers.get("x-request-id"));
  for (let i = 0; i < 50 && !logLine(); i++) {
    await Bun.sleep(10);
    t.logger.flush();
  }
  expect(logLine()?.status).toBe(retry.status);
}

async function newCompany() {
  const res = await mint(null);
  expect(res.status).toBe(201);
  return res.body.companyId as string;
}

describe("replay: the same key and request", () => {
  test("POST /api-keys/tokens 201 is replayed with the same token, and only keyed requests are", async () => {
    const key = freshKey();
    const body = mintBody();
    const first = await mint(key, body);
    expect(first.status).toBe(201);
    const retry = await mint(key, body);
    await expectReplayOf(retry, first);
    const unkeyed = await mint(null, body);
    expect(unkeyed.status).toBe(201);
    expect(unkeyed.body.token).not.toBe(first.body.token);
    expect(await rowsFor(key)).toEqual([{ environment: "development", scope: team.keyIds.secret!, status: "complete", response_status: 201 }]);
    // The kept answer carries a live token: it is stored sealed, never in clear.
    const [stored] = await sql`select response_body from idempotency_keys where key = ${key}`;
    const text = new TextDecoder("latin1").decode(stored!.response_body);
    expect(text).not.toContain(first.body.token);
    expect(text).not.toContain(first.body.companyId);
  });

  test("PATCH /companies/{id} 200 is replayed and writes no second audit record", async () => {
    const id = await newCompany();
    const key = freshKey();
    const audits = async () => (await sql`select count(*)::int as n from audit_log where resource_id = ${id} and action = 'company.update'`)[0]!.n;
    const first = await t.call("PATCH", `/companies/${id}`, {
      token: team.keys.secret,
      body: { name: "Acme GmbH" },
      headers: { "idempotency-key": key },
    });
    expect(first.status).toBe(200);
    expect(await audits()).toBe(1);
    const retry = await t.call("PATCH", `/companies/${id}`, {
      token: team.keys.secret,
      body: { name: "Acme GmbH" },
      headers: { "idempotency-key": key },
    });
    await expectReplayOf(retry, first);
    expect(await audits()).toBe(1);
  });

  test("POST /payment-links creates one link however often it is retried", async () => {
    const key = freshKey();
    const body = {
      amount: "25000000",
      network: "base-sepolia",
      acceptedToken: "USDC",
      recipientWallet: "0x000000000000000000000000000000000000dEaD",
    };
    const links = async () => (await sql`select count(*)::int as n from payment_links where team_id = ${team.teamId}`)[0]!.n;
    const before = await links();
    const first = await t.call("POST", "/payment-links", { token: team.keys.secret, body, headers: { "idempotency-key": key } });
    expect(first.status).toBe(201);
    for (let i = 0; i < 3; i++)
      await expectReplayOf(await t.call("POST", "/payment-links", { token: team.keys.secret, body, headers: { "idempotency-key": key } }), first);
    expect(await links()).toBe(before + 1);
  });

  test("a kept 4xx is replayed: PATCH of an unknown company answers 404 again, from the store", async () => {
    const key = freshKey();
    const first = await t.call("PATCH", "/companies/comp_unknown", {
      token: team.keys.secret,
      body: { name: "x" },
      headers: { "idempotency-key": key },
    });
    expect(first.status).toBe(404);
    const retry = await t.call("PATCH", "/companies/comp_unknown", {
      token: team.keys.secret,
      body: { name: "x" },
      headers: { "idempotency-key": key },
    });
    await expectReplayOf(retry, first);
  });

  test("a replay counts as a use of the key: lastUsedAt moves", async () => {
    const made = await newKey(sql, team.teamId, "SECRET", "development", t.clock.now());
    const key = freshKey();
    const body = mintBody();
    expect((await mint(key, body, made.key)).status).toBe(201);
    await t.credentials.flushLastUsed();
    t.clock.advance(60_000);
    expect(replayed(await mint(key, body, made.key))).toBe("true");
    await t.credentials.flushLastUsed();
    const [row] = await sql`select last_used_at from api_keys where id = ${made.id}`;
    expect(row!.last_used_at.getTime()).toBe(t.clock.now());
  });

  test("GET requests ignore the header, even a malformed one, and store nothing", async () => {
    const res = await t.call("GET", "/companies", { token: team.keys.secret, headers: { "idempotency-key": "x".repeat(300) } });
    expect(res.status).toBe(200);
    expect(replayed(res)).toBeNull();
    expect(await rowsFor("x".repeat(300))).toEqual([]);
  });
});

describe("422 idempotency_key_reused: the key with another request", () => {
  test("another body, another path or query, another method: refused with the coded shape, nothing run", async () => {
    const key = freshKey();
    const body = mintBody();
    const first = await mint(key, body);
    expect(first.status).toBe(201);
    const reused = { error: "Idempotency-Key was already used for a different request (method, path or body)", code: "idempotency_key_reused" };
    const companies = async () => (await sql`select count(*)::int as n from companies where team_id = ${team.teamId}`)[0]!.n;
    const before = await companies();
    for (const res of [
      await mint(key, mintBody()),
      await mint(key, body, team.keys.secret, "/api-keys/tokens?ttl=1"),
      await mint(key, body, team.keys.secret, "/access-tokens"),
      await t.call("PATCH", `/companies/${first.body.companyId}`, {
        token: team.keys.secret,
        body: { name: "x" },
        headers: { "idempotency-key": key },
      }),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual(reused);
    }
    // Whitespace counts: the fingerprint is of the raw bytes.
    const spaced = await t.call("POST", "/api-keys/tokens", {
      token: team.keys.secret,
      rawBody: JSON.stringify(body, null, 1),
      headers: { "idempotency-key": key, "content-type": "application/json" },
    });
    expect(spaced.status).toBe(422);
    expect(await companies()).toBe(before);
  });
});

describe("409 idempotency_key_in_use: the key held by a request still running", () => {
  test("a second request while the first waits on a lock is 409; once the first is done, its response is replayed", async () => {
    const id = await newCompany();
    const key = freshKey();
    const patch = () =>
      t.call("PATCH", `/companies/${id}`, { token: team.keys.secret, body: { name: "Locked" }, headers: { "idempotency-key": key } });
    let first: Promise<CallResult> | undefined;
    await sql.begin(async (tx) => {
      await tx`select id from companies where id = ${id} for update`;
      first = patch();
      for (let i = 0; (await tx`select 1 from idempotency_keys where key = ${key}`).length === 0; i++) {
        if (i > 200) throw new Error("the first request never claimed the key");
        await Bun.sleep(10);
      }
      const second = await patch();
      expect(second.status).toBe(409);
      expect(second.body).toEqual({ error: "A request with this Idempotency-Key is still in progress; retry later", code: "idempotency_key_in_use" });
    });
    const done = await first!;
    expect(done.status).toBe(200);
    await expectReplayOf(await patch(), done);
  });

  test("concurrent requests with one key: exactly one runs, the others get 409 or its replay", async () => {
    const key = freshKey();
    const body = mintBody();
    const results = await Promise.all(Array.from({ length: 8 }, () => mint(key, body)));
    const ran = results.filter((r) => r.status === 201 && replayed(r) === null);
    expect(ran).toHaveLength(1);
    for (const r of results) {
      if (r.status === 201) expect(r.body).toEqual(ran[0]!.body);
      else expect(r.body.code).toBe("idempotency_key_in_use");
    }
    expect((await sql`select count(*)::int as n from companies where team_id = ${team.teamId} and external_id = ${body.company.id}`)[0]!.n).toBe(1);
  });

  test("an in-progress claim older than the stale limit (its owner crashed) is taken over by the retry", async () => {
    const body = mintBody();
    const fingerprint = requestFingerprint("POST", "/api/v1/api-keys/tokens", new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer);
    const claimAt = async (key: string, ageMs: number) => {
      const at = new Date(t.clock.now() - ageMs);
      await sql`insert into idempotency_keys (team_id, environment, scope, key, claim, fingerprint, status, created_at, expires_at)
                values (${team.teamId}, 'development', ${team.keyIds.secret!}, ${key}, 'crashed', ${fingerprint}, 'in_progress', ${at}, ${new Date(at.getTime() + RETENTION_MS)})`;
    };
    const fresh = freshKey();
    await claimAt(fresh, STALE_CLAIM_MS - 1000);
    expect((await mint(fresh, body)).status).toBe(409);
    const stale = freshKey();
    await claimAt(stale, STALE_CLAIM_MS + 1000);
    const res = await mint(stale, body);
    expect(res.status).toBe(201);
    expect(replayed(res)).toBeNull();
    expect(await rowsFor(stale)).toEqual([{ environment: "development", scope: team.keyIds.secret!, status: "complete", response_status: 201 }]);
  });
});

describe("scope: per credential and environment", () => {
  test("another credential of the team, or a live key, with the same key runs on its own", async () => {
    const key = freshKey();
    const body = mintBody();
    const bySecret = await mint(key, body);
    const byRestricted = await mint(key, body, team.keys.restricted);
    const byLive = await mint(key, body, team.keys.secretLive);
    for (const res of [bySecret, byRestricted, byLive]) {
      expect(res.status).toBe(201);
      expect(replayed(res)).toBeNull();
    }
    expect(new Set([bySecret.body.token, byRestricted.body.token, byLive.body.token]).size).toBe(3);
    expect((await rowsFor(key)).map((r) => `${r.environment} ${r.scope}`).sort()).toEqual(
      [`development ${team.keyIds.secret}`, `development ${team.keyIds.restricted}`, `production ${team.keyIds.secretLive}`].sort(),
    );
  });

  test("another team's credential with the same key runs on its own", async () => {
    const other = await createTeamFixture(t, "Other team");
    const key = freshKey();
    const body = mintBody();
    const ours = await mint(key, body);
    const theirs = await mint(key, body, other.keys.secret);
    expect(theirs.status).toBe(201);
    expect(replayed(theirs)).toBeNull();
    expect(theirs.body.companyId).not.toBe(ours.body.companyId);
  });
});

describe("what is never kept", () => {
  test("401 and 403 store nothing (and come before a bad header's 400); the key then runs for a valid credential", async () => {
    const key = freshKey();
    const body = mintBody();
    const unauthenticated = await mint(key, body, "sk_test_not_a_real_key");
    expect(unauthenticated.status).toBe(401);
    expect((await mint("", body, "sk_test_not_a_real_key")).status).toBe(401);
    const forbidden = await mint(key, body, team.keys.restrictedNoTokens);
    expect(forbidden.status).toBe(403);
    expect(await rowsFor(key)).toEqual([]);
    const res = await mint(key, body);
    expect(res.status).toBe(201);
    expect(replayed(res)).toBeNull();
  });

  test("400 for a key that is empty, longer than 255 characters or not printable ASCII; 255 is accepted", async () => {
    for (const bad of ["", "x".repeat(256), "a\tb", "clé"]) {
      const res = await mint(bad);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Validation failed", details: { "header.idempotency-key": "Expected 1 to 255 printable ASCII characters" } });
    }
    const longest = `${freshKey()}${"~".repeat(255)}`.slice(0, 255);
    expect((await mint(longest)).status).toBe(201);
  });

  test("a 400 from validation is not kept: the key then runs with the corrected body", async () => {
    const key = freshKey();
    const invalid = await mint(key, { ...mintBody(), ttlSeconds: 5 });
    expect(invalid.status).toBe(400);
    expect(await rowsFor(key)).toEqual([]);
    const res = await mint(key);
    expect(res.status).toBe(201);
    expect(replayed(res)).toBeNull();
  });

  test("a 400 from the handler (after the claim) is not kept either: the key then runs with the corrected body", async () => {
    const id = await newCompany();
    const key = freshKey();
    const patch = (body: unknown) => t.call("PATCH", `/companies/${id}`, { token: team.keys.secret, body, headers: { "idempotency-key": key } });
    const refused = await patch({ activePlanId: "plan_unknown" });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.details)).toEqual(["body.activePlanId"]);
    expect(await rowsFor(key)).toEqual([]);
    const res = await patch({ name: "Corrected" });
    expect(res.status).toBe(200);
    expect(replayed(res)).toBeNull();
  });

  test("a 500 is not kept (the transaction wrote nothing): the retry runs again and succeeds", async () => {
    const id = await newCompany();
    const key = freshKey();
    const patch = () =>
      t.call("PATCH", `/companies/${id}`, { token: team.keys.secret, body: { name: "After the outage" }, headers: { "idempotency-key": key } });
    // A real failure inside the handler's transaction: the database refuses the audit record.
    await sql.unsafe("alter table audit_log add constraint idempotency_test_refuses check (action <> 'company.update') not valid");
    try {
      const failed = await patch();
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({ error: "Internal server error" });
    } finally {
      await sql.unsafe("alter table audit_log drop constraint idempotency_test_refuses");
    }
    expect(await rowsFor(key)).toEqual([]);
    expect((await sql`select name from companies where id = ${id}`)[0]!.name).toBe("Acme");
    const retried = await patch();
    expect(retried.status).toBe(200);
    expect(replayed(retried)).toBeNull();
    expect(retried.body.data.name).toBe("After the outage");
  });
});

describe("POST /events: the header and the body's idempotencyKey together", () => {
  test("the header replays the whole response; the body key keeps metering exactly-once under another header key", async () => {
    const catalog = await createCatalogFixture(t, team.teamId);
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, `co-${randomToken(8)}`, catalog.planId);
    const bodyKey = `evt-${randomToken(8)}`;
    const track = (headerKey: string, idempotencyKey = bodyKey) =>
      t.call("POST", "/events", {
        token: team.keys.legacy,
        body: { event_type: "track", name: "api-calls", company: { id: companyId }, idempotencyKey },
        headers: { "idempotency-key": headerKey },
      });
    const counted = async () => (await sql`select count(*)::int as n from events where company_id = ${companyId} and outcome = 'accepted'`)[0]!.n;
    const headerKey = freshKey();
    const first = await track(headerKey);
    expect(first.status).toBe(200);
    await expectReplayOf(await track(headerKey), first);
    const otherHeader = await track(freshKey());
    expect(otherHeader.status).toBe(200);
    expect(replayed(otherHeader)).toBeNull();
    expect(otherHeader.body).toEqual(first.body);
    expect(await counted()).toBe(1);
    const reused = await track(headerKey, `evt-${randomToken(8)}`);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe("idempotency_key_reused");
    expect(await counted()).toBe(1);
  });
});

describe("expiry", () => {
  // Last in the file: it moves the clock a day on.
  test("after 24 h the key runs again, even for another request; the prune deletes expired keys only", async () => {
    const key = freshKey();
    expect((await mint(key)).status).toBe(201);
    t.clock.advance(RETENTION_MS - 1);
    expect((await mint(key)).status).toBe(422);
    t.clock.advance(1);
    const again = await mint(key);
    expect(again.status).toBe(201);
    expect(replayed(again)).toBeNull();

    t.clock.advance(1);
    const live = freshKey();
    expect((await mint(live)).status).toBe(201);
    t.clock.advance(RETENTION_MS);
    const expiring = (await sql`select count(*)::int as n from idempotency_keys where expires_at <= ${new Date(t.clock.now())}`)[0]!.n;
    expect(expiring).toBeGreaterThan(1);
    expect(await pruneExpiredKeys(sql, t.clock.now() - 1)).toBe(expiring - 1); // `live` expires exactly now
    expect(await rowsFor(live)).toHaveLength(1);
    expect(await pruneExpiredKeys(sql, t.clock.now())).toBe(1);
    expect((await sql`select count(*)::int as n from idempotency_keys where expires_at <= ${new Date(t.clock.now())}`)[0]!.n).toBe(0);
  });
});
