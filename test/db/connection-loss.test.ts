/**
 * postgres.js losing a connection inside a transaction (patches/postgres+3.4.9.patch): the transaction
 * rejects with a connection error, nothing escapes as an uncaught exception (unpatched, its own rollback
 * was written to the closed socket from a timer and took the process down), the pool's connection comes
 * back at once (unpatched, it stayed wedged until CONNECT_TIMEOUT, 30 s), and a transaction that lost its
 * connection never runs another statement on the connection that replaced it.
 */
import { afterAll, expect, test } from "bun:test";
import { createSql } from "../../src/db/client";
import { isDatabaseUnavailable } from "../../src/db/unavailable";
import { cloneTestDatabase } from "../helpers/db";

const db = await cloneTestDatabase();
// One connection, so every statement after the loss goes to the connection that replaced the lost one.
const sql = createSql(db.url, { max: 1 });
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => void uncaught.push(error);
process.on("uncaughtException", onUncaught);
afterAll(async () => {
  process.off("uncaughtException", onUncaught);
  await sql.end({ timeout: 1 });
  await db.drop();
});
await db.sql`create table loss_probe (id text primary key)`;

const terminate = (pid: number) => db.sql`select pg_terminate_backend(${pid})`;

test("a backend ended mid-query: the transaction rejects as unavailable, nothing escapes, the pool answers again at once", async () => {
  let pid = 0;
  const tx = sql.begin(async (t) => {
    pid = (await t<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
    await t`insert into loss_probe values ('mid-query')`;
    await t`select pg_sleep(5)`;
  });
  while (pid === 0) await Bun.sleep(10);
  await terminate(pid);
  const error = await tx.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isDatabaseUnavailable(error)).toBe(true);
  const began = Date.now();
  expect([...(await sql`select 1 as one`)]).toEqual([{ one: 1 }]);
  expect(Date.now() - began).toBeLessThan(3_000);
  await Bun.sleep(50); // a timer's throw would land here
  expect(uncaught).toEqual([]);
  expect((await db.sql`select id from loss_probe where id = 'mid-query'`).length).toBe(0);
});

test("a transaction whose backend ended between statements runs nothing on the replacement connection", async () => {
  let pid = 0;
  let resume!: () => void;
  const paused = new Promise<void>((r) => (resume = r));
  const late = sql.begin(async (t) => {
    pid = (await t<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
    await paused; // other work, while the connection is lost and replaced
    await t`insert into loss_probe values ('late')`;
  });
  const lateOutcome = late.then(
    () => "committed",
    (e: unknown) => e,
  );
  while (pid === 0) await Bun.sleep(10);
  await terminate(pid);
  // The pool reconnects for the next transaction, which holds the one connection while the late one resumes.
  const other = sql.begin(async (t) => {
    await t`insert into loss_probe values ('other')`;
    resume();
    await Bun.sleep(100);
    await t`insert into loss_probe values ('other-2')`;
  });
  await other;
  expect(isDatabaseUnavailable(await lateOutcome)).toBe(true);
  await Bun.sleep(50);
  expect(uncaught).toEqual([]);
  const rows = await db.sql<{ id: string }[]>`select id from loss_probe where id <> 'mid-query' order by id`;
  expect(rows.map((r) => r.id)).toEqual(["other", "other-2"]);
});
