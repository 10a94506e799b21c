/** Raw secrets never reach the database; lastUsedAt is kept current through batched writes. */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture, newKey } from "../helpers/fixtures";

const t = await createTestApp();
const team = await createTeamFixture(t);

async function everyRowAsText(): Promise<string> {
  const tables = await t.db.sql<{ table_name: string }[]>`select table_name from information_schema.tables where table_schema = 'public'`;
  let dump = "";
  for (const { table_name } of tables) {
    const rows = await t.db.sql.unsafe(`select t::text as row from "${table_name}" t`);
    dump += rows.map((r) => r.row).join("\n");
  }
  return dump;
}

test("no raw key, session or token is stored anywhere; the prefix and the SHA-256 are", async () => {
  const minted = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "storage-co" } } });
  const jwt = await t.call("POST", "/access-tokens", {
    token: team.keys.legacy,
    body: { company: { id: "storage-co" }, user: { id: "storage-user" } },
  });
  const dump = await everyRowAsText();
  for (const secret of [...Object.values(team.keys), team.dashboardAdmin, team.dashboardCatalog, minted.body.token, jwt.body.token]) {
    expect(dump.includes(secret)).toBe(false);
  }
  const hash = new Bun.CryptoHasher("sha256").update(team.keys.secret).digest("hex");
  const [row] = await t.db.sql`select prefix, key_hash from api_keys where id = ${team.keyIds.secret!}`;
  expect(row).toEqual({ prefix: team.keys.secret.slice(0, 16), key_hash: hash });
});

test("lastUsedAt follows successful calls", async () => {
  const [before] = await t.db.sql`select last_used_at from api_keys where id = ${team.keyIds.restricted!}`;
  expect(before!.last_used_at).toBeNull();
  for (let i = 0; i < 5; i++) expect((await t.call("GET", "/companies", { token: team.keys.restricted })).status).toBe(200);
  await t.credentials.flushLastUsed();
  const [after] = await t.db.sql`select last_used_at from api_keys where id = ${team.keyIds.restricted!}`;
  expect(after!.last_used_at.getTime()).toBe(t.clock.now());
});

test("uses are held in memory until a flush: no write per request", async () => {
  // A store of its own, never started: no flusher runs beside the test (the app's flushes every second, which a
  // loaded machine's five calls can outlast).
  const { CredentialStore } = await import("../../src/auth/credential-store");
  const store = new CredentialStore(t.db.sql, t.clock, 30_000);
  const id = team.keyIds.restricted!;
  await t.db.sql`update api_keys set last_used_at = null where id = ${id}`;
  for (let i = 0; i < 5; i++) {
    await store.keyByRaw(team.keys.restricted!);
    store.markUsed(id); // as the auth plugin does after each successful call
  }
  const [unflushed] = await t.db.sql`select last_used_at from api_keys where id = ${id}`;
  expect(unflushed!.last_used_at).toBeNull();
  await store.flushLastUsed();
  const [after] = await t.db.sql`select last_used_at from api_keys where id = ${id}`;
  expect(after!.last_used_at.getTime()).toBe(t.clock.now());
});

test("a refused (403) or invalid (400, though it spends rate limit) call does not count as use", async () => {
  for (const [token, id, path, status] of [
    [team.keys.publishable, team.keyIds.publishable!, "/companies", 403],
    [team.keys.secretLive, team.keyIds.secretLive!, "/companies?limit=0", 400],
  ] as const) {
    await t.credentials.flushLastUsed();
    expect((await t.call("GET", path, { token })).status).toBe(status);
    await t.credentials.flushLastUsed();
    const [row] = await t.db.sql`select last_used_at from api_keys where id = ${id}`;
    expect(row!.last_used_at).toBeNull();
  }
});

test("a failed lastUsedAt flush keeps the batch for the next one", async () => {
  const { CredentialStore } = await import("../../src/auth/credential-store");
  const { createSql } = await import("../../src/db/client");
  const store = new CredentialStore(t.db.sql, t.clock, 30_000);
  await store.keyByRaw(team.keys.legacy!); // a key is marked used once the store has resolved it
  const closed = createSql(t.db.url, { max: 1 });
  await closed.end();
  (store as unknown as { sql: unknown }).sql = closed;
  store.markUsed(team.keyIds.legacy!);
  await expect(store.flushLastUsed()).rejects.toThrow();
  // Same store, pool swapped for a live one: the retained batch is written.
  (store as unknown as { sql: unknown }).sql = t.db.sql;
  await store.flushLastUsed();
  const [row] = await t.db.sql`select last_used_at from api_keys where id = ${team.keyIds.legacy!}`;
  expect(row!.last_used_at.getTime()).toBe(t.clock.now());
});

test("concurrent lookups of a key not in memory share one load; after a revocation no lookup answers from a read made before it", async () => {
  const { key, id } = await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now());
  const first = t.credentials.keyByRaw(key);
  expect(first).toBeInstanceOf(Promise);
  expect(t.credentials.keyByRaw(key)).toBe(first);
  // The revocation commits (and is announced) while that load may still be reading the row.
  await t.db.sql`update api_keys set revoked_at = now() where id = ${id}`;
  t.credentials.evict(id);
  const later = await t.credentials.keyByRaw(key);
  expect(later?.id).toBe(id);
  expect(later?.revokedAt).not.toBeNull();
  expect((await first)?.id).toBe(id);
});
