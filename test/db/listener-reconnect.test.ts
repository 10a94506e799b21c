/**
 * Notices sent while an instance's listener is disconnected are lost, so every reconnection of the
 * listener clears the caches it keeps current (credentials, catalogs, companies). These tests make
 * changes that send no notice at all (plain SQL), drop the listener's connection, and expect the
 * instance to answer from the database once it has reconnected: only the clear can explain it.
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";

const t = await createTestApp();
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId);
await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "reconnect-co", catalog.planId);

/** Ends the backend of this instance's LISTEN connection, as a network drop or a database restart would. */
async function dropListener(): Promise<void> {
  const ended = await t.db.sql`
    select pg_terminate_backend(pid) as ended from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen %'`;
  expect(ended.length).toBeGreaterThan(0);
  expect(ended.every((r) => r.ended === true)).toBe(true);
}

/** Calls until `done` holds (the listener reconnects within moments), for at most three seconds. */
async function eventually<T>(call: () => Promise<T>, done: (r: T) => boolean): Promise<T> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const result = await call();
    if (done(result) || Date.now() > deadline) return result;
    await Bun.sleep(50);
  }
}

const checkSso = () => t.call("GET", "/check?company=reconnect-co&feature=sso", { token: team.keys.secret });

test("a key revoked without a notice is refused once the listener has reconnected", async () => {
  expect((await checkSso()).status).toBe(200); // the key is now cached
  await t.db.sql`update api_keys set revoked_at = now() where id = ${team.keyIds.secret!}`; // no NOTIFY
  expect((await checkSso()).status).toBe(200); // still the cached key: nothing told this instance
  await dropListener();
  const res = await eventually(checkSso, (r) => r.status === 401);
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ code: "revoked_credentials" });
});

test("a plan change made without a notice shows once the listener has reconnected", async () => {
  // Another key with entitlements.read: the first test revoked the secret one.
  const check = () => t.call("GET", "/check?company=reconnect-co&feature=sso", { token: team.keys.restrictedNoTokens });
  expect((await check()).body.data.access).toBe(true); // company and catalog now cached
  await t.db.sql`update companies set active_plan_id = null where team_id = ${team.teamId} and external_id = 'reconnect-co'`; // no NOTIFY
  expect((await check()).body.data.access).toBe(true);
  await dropListener();
  const res = await eventually(check, (r) => r.body.data?.access === false);
  expect(res.status).toBe(200);
  expect(res.body.data.access).toBe(false);
});
