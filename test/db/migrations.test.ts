/** Migrations: applied once, idempotent on re-run, safe when two instances start together. */
import { afterAll, expect, test } from "bun:test";
import { createSql } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";
import { randomToken } from "../../src/lib/ids";
import { TEST_SERVER_URL, withDatabase } from "../helpers/setup";

const name = `billing_test_${randomToken(10).toLowerCase()}`;
const admin = createSql(TEST_SERVER_URL, { max: 1 });
await admin.unsafe(`create database ${name}`);
const url = withDatabase(TEST_SERVER_URL, name);
const a = createSql(url, { max: 2 });
const b = createSql(url, { max: 2 });

afterAll(async () => {
  await a.end();
  await b.end();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
});

const schemaSnapshot = async () =>
  a`select table_name, column_name, data_type, is_nullable, column_default
    from information_schema.columns where table_schema = 'public' order by table_name, column_name`.then((rows) => JSON.stringify(rows));

test("two instances migrating an empty database at once: each migration is applied exactly once", async () => {
  const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
  const applied = [...ra.applied, ...rb.applied].sort();
  const files = [...new Bun.Glob("*.sql").scanSync("sql/migrations")].map((f) => f.slice(0, -4)).sort();
  expect(applied).toEqual(files);
  const rows = await a`select version from schema_migrations order by version`;
  expect(rows.map((r) => r.version)).toEqual(files);
});

test("running the migrations again changes nothing", async () => {
  const before = await schemaSnapshot();
  const again = await migrate(a);
  expect(again.applied).toEqual([]);
  expect(await schemaSnapshot()).toBe(before);
});

test("meter_settle keeps its planner settings, and event ids compare bytewise (00007)", async () => {
  // A `create or replace` of the function silently drops its SET clauses: this catches that.
  const [fn] = await a`select proconfig from pg_proc where proname = 'meter_settle'`;
  expect([...fn!.proconfig].sort()).toEqual(["enable_hashjoin=off", "enable_mergejoin=off", "enable_seqscan=off", "plan_cache_mode=force_generic_plan"]);
  const [id] = await a`select collation_name from information_schema.columns where table_name = 'events' and column_name = 'id'`;
  expect(id!.collation_name).toBe("C");
});
