/** A tenant is a team AND an environment: a key of one environment is out of reach through the other, even to the operator. */
import { afterAll, expect, test } from "bun:test";
import { queries, run } from "../../src/db/queries";
import { createKey, listKeys, revokeKey } from "../../src/modules/teams/keys";
import { createTeam } from "../../src/modules/teams/team";
import { cloneTestDatabase } from "../helpers/db";

const db = await cloneTestDatabase();
afterAll(() => db.drop());
const Q = queries(["api_key_touch_many"]);

const team = await createTeam(db.sql, "Two environments");
const live = await createKey(db.sql, { teamId: team.id, environment: "production", type: "SECRET", name: "live" }, Date.now());
const test_ = await createKey(db.sql, { teamId: team.id, environment: "development", type: "SECRET", name: "test" }, Date.now());
const lastUsed = async (id: string) => (await db.sql`select last_used_at from api_keys where id = ${id}`)[0]!.last_used_at as Date | null;

test("listing a team's keys names one environment and lists only its keys", async () => {
  expect((await listKeys(db.sql, team.id, "production")).map((k) => k.id)).toEqual([live.id]);
  expect((await listKeys(db.sql, team.id, "development")).map((k) => k.id)).toEqual([test_.id]);
});

test("a production key cannot be revoked through development: 404, and it stays valid", async () => {
  await expect(revokeKey(db.sql, { teamId: team.id, environment: "development" }, live.id)).rejects.toMatchObject({ status: 404 });
  expect((await db.sql`select revoked_at from api_keys where id = ${live.id}`)[0]!.revoked_at).toBeNull();
  expect((await revokeKey(db.sql, { teamId: team.id, environment: "production" }, live.id)).revokedAt).not.toBeNull();
});

test("lastUsedAt of a key is written only when the flush names its own team and environment", async () => {
  const at = new Date().toISOString();
  await run(db.sql, Q.api_key_touch_many, [[team.id], ["development"], [live.id], [at]]);
  await run(db.sql, Q.api_key_touch_many, [["team_other"], ["production"], [live.id], [at]]);
  expect(await lastUsed(live.id)).toBeNull();
  await run(db.sql, Q.api_key_touch_many, [[team.id], ["production"], [live.id], [at]]);
  expect((await lastUsed(live.id))?.toISOString()).toBe(at);
});
