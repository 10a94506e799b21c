/** GET /dashboard/audit-log/verification: the chain's verdict for the session's team and environment, and a tampered entry named. */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { browser, newOperator, newTeamWithOwner } from "../helpers/dashboard";

const t = await createTestApp({ TRUST_PROXY: "true" });

test("verified up to the head; an edited entry is reported as the first broken link; audit:read is required", async () => {
  const { teamId, owner } = await newTeamWithOwner(t);
  const o = await browser(t, owner.email);
  for (const name of ["One", "Two", "Three"]) expect((await o.write("POST", "/dashboard/api-keys", { name, type: "secret" })).status).toBe(201);
  const ok = await o.read("/dashboard/audit-log/verification");
  expect(ok.status).toBe(200);
  expect(ok.headers.get("cache-control")).toBe("no-store");
  const chain = await t.db
    .sql`select id, chain_seq, hash from audit_log where team_id = ${teamId} and environment = 'development' order by chain_seq`;
  expect(ok.body.data).toEqual({ ok: true, entries: chain.length, head: { chainSeq: chain.length, hash: chain.at(-1)!.hash } });

  // Someone with write access to the database edits an entry in the middle.
  const victim = chain[2]!;
  await t.db.sql`update audit_log set details = '{"name": "Forged"}' where id = ${victim.id}`;
  const broken = await o.read("/dashboard/audit-log/verification");
  expect(broken.status).toBe(200);
  expect(broken.body.data).toMatchObject({ ok: false, entries: 2, brokenAt: { id: victim.id, chainSeq: 3 }, reason: "hash_mismatch" });
  expect(broken.body.data.detail).toContain("edited");
  // The production log is another chain, untouched.
  await o.write("POST", "/dashboard/session/environment", { environment: "production" });
  expect((await o.read("/dashboard/audit-log/verification")).body.data.ok).toBe(true);

  const reader = await newOperator(t, teamId, ["catalog:read"]);
  const refused = await (await browser(t, reader.email)).read("/dashboard/audit-log/verification");
  expect(refused.status).toBe(403);
  expect(refused.body.code).toBe("missing_permission");
});
