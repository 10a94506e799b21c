/** The embedded launcher shares only its own cluster, never another server that happens to hold the port. */
import { expect, test } from "bun:test";
import { startEmbeddedPostgres } from "../../src/db/embedded";
import { TEST_PG_PORT } from "../helpers/setup";

// The suite's own embedded server (started by test/helpers/setup.ts) answers on TEST_PG_PORT from .data/test/pg.
const SUITE_PORT = TEST_PG_PORT;

test.skipIf(!!process.env.TEST_DATABASE_URL)("the same data folder shares the running server and does not stop it", async () => {
  const shared = await startEmbeddedPostgres(`${process.cwd()}/.data/test`, SUITE_PORT, () => {});
  await shared.stop();
  const again = await startEmbeddedPostgres(`${process.cwd()}/.data/test`, SUITE_PORT, () => {});
  expect(again.url).toContain(`:${SUITE_PORT}/`);
});

test.skipIf(!!process.env.TEST_DATABASE_URL)("another data folder on the same port is refused with the variable to change", async () => {
  const attempt = startEmbeddedPostgres(`${process.cwd()}/.data/test-other`, SUITE_PORT, () => {});
  await expect(attempt).rejects.toThrow(new RegExp(`Port ${SUITE_PORT} is taken by another PostgreSQL .*EMBEDDED_PG_PORT`));
});
