/** GET/POST /dashboard/api-keys and DELETE /dashboard/api-keys/{id}: keys made and revoked from the dashboard, as the spec says. */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { browser, newTeamWithOwner } from "../helpers/dashboard";

const t = await createTestApp({ TRUST_PROXY: "true" });
const raws: string[] = [];

test("201: the raw key is in the create response only; it authenticates; the list never shows it; revoking stops it at once", async () => {
  const { teamId, owner } = await newTeamWithOwner(t);
  const o = await browser(t, owner.email);
  const created = await o.write("POST", "/dashboard/api-keys", {
    name: "Backend",
    type: "restricted",
    permissions: ["customers.read"],
    description: "server",
    expiresAt: new Date(t.clock.now() + 86_400_000).toISOString(),
  });
  expect(created.status).toBe(201);
  expect(created.headers.get("cache-control")).toBe("no-store");
  const key = created.body.data;
  raws.push(key.key);
  expect(key).toMatchObject({
    name: "Backend",
    type: "RESTRICTED",
    permissions: ["customers.read"],
    environmentMode: "DEVELOPMENT",
    description: "server",
  });
  expect(key.key).toStartWith("rk_test_");
  expect(key.prefix).toBe(key.key.slice(0, 16));
  expect((await t.call("GET", "/companies", { token: key.key })).status).toBe(200);
  const list = await o.read("/dashboard/api-keys");
  expect(list.status).toBe(200);
  expect(list.body.data.map((k: { id: string }) => k.id)).toContain(key.id);
  expect(JSON.stringify(list.body)).not.toContain(key.key);
  const revoked = await o.write("DELETE", `/dashboard/api-keys/${key.id}`);
  expect(revoked.status).toBe(200);
  expect(revoked.body.data.revokedAt).toEqual(expect.any(String));
  const refused = await t.call("GET", "/companies", { token: key.key });
  expect(refused.status).toBe(401);
  expect(refused.body.code).toBe("revoked_credentials");
  const audited = await t.db.sql<{ action: string; actor_id: string }[]>`
    select action, actor_id from audit_log where team_id = ${teamId} and resource_id = ${key.id} order by seq`;
  expect([...audited]).toEqual([
    { action: "api_key.create", actor_id: owner.id },
    { action: "api_key.revoke", actor_id: owner.id },
  ]);
});

test("400 for a restricted key without permissions or an expiry in the past; 404 revoking another team's key", async () => {
  const { owner } = await newTeamWithOwner(t);
  const other = await newTeamWithOwner(t);
  const o = await browser(t, owner.email);
  const p = await browser(t, other.owner.email);
  expect((await o.write("POST", "/dashboard/api-keys", { name: "r", type: "restricted" })).status).toBe(400);
  const past = await o.write("POST", "/dashboard/api-keys", { name: "s", type: "secret", expiresAt: new Date(t.clock.now() - 1000).toISOString() });
  expect(past.status).toBe(400);
  const theirs = (await p.write("POST", "/dashboard/api-keys", { name: "theirs", type: "secret" })).body.data;
  raws.push(theirs.key);
  expect((await o.write("DELETE", `/dashboard/api-keys/${theirs.id}`)).status).toBe(404);
  expect((await t.call("GET", "/companies", { token: theirs.key })).status).toBe(200);
});

test("a retry under the same Idempotency-Key answers the first response, and the raw key is stored sealed, never in clear", async () => {
  const { owner } = await newTeamWithOwner(t);
  const o = await browser(t, owner.email);
  const send = () =>
    t.call("POST", "/dashboard/api-keys", {
      cookie: `be_session=${o.session}`,
      headers: { "x-csrf-token": o.csrf, "idempotency-key": "create-key-1" },
      body: { name: "once", type: "secret" },
    });
  const first = await send();
  const second = await send();
  expect(second.body.data.id).toBe(first.body.data.id);
  expect(second.headers.get("idempotent-replayed")).toBe("true");
  const stored = await t.db.sql`select response_body::text as body from idempotency_keys`;
  expect(JSON.stringify(stored)).not.toContain(first.body.data.key);
  raws.push(first.body.data.key);
});

test("no raw key appears in the logs", () => {
  t.logger.flush();
  const text = t.logs.join("\n");
  for (const raw of raws) expect(text).not.toContain(raw);
});
