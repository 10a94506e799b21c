/**
 * A checkout under a folder the `postgres` system user cannot enter (root's clone under /root, mode 0700):
 * the embedded database cannot run there, so both the service's launcher and the test suite's setup stop
 * at once with what to do, instead of a raw EACCES stack trace or a run that never ends.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, symlinkSync, chmodSync, mkdirSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { startEmbeddedPostgres } from "../../src/db/embedded";
import { TEST_PG_PORT } from "../helpers/setup";

const asRoot = process.getuid?.() === 0; // only root runs PostgreSQL as another user
const locked = mkdtempSync(`${tmpdir()}/billing-locked-`);
chmodSync(locked, 0o700);
afterAll(() => rmSync(locked, { recursive: true, force: true }));

test.skipIf(!asRoot)("the launcher refuses a data folder the postgres user cannot reach, at once and saying what to do", async () => {
  const began = Date.now();
  const attempt = startEmbeddedPostgres(`${locked}/data`, TEST_PG_PORT + 101, () => {});
  await expect(attempt).rejects.toThrow(/"postgres" system user.*cannot reach .*billing-locked-.*Set DATA_DIR/);
  expect(Date.now() - began).toBeLessThan(5_000);
});

test.skipIf(!asRoot)(
  "the test suite run from such a checkout exits non-zero with the reason instead of hanging",
  async () => {
    // A checkout in the locked folder: the project's files linked in, so only its .data folder is unreachable.
    const clone = `${locked}/clone`;
    mkdirSync(clone);
    for (const entry of ["src", "sql", "test", "node_modules", "package.json", "tsconfig.json"])
      symlinkSync(`${process.cwd()}/${entry}`, `${clone}/${entry}`);
    copyFileSync("bunfig.toml", `${clone}/bunfig.toml`);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), TEST_PG_PORT: String(TEST_PG_PORT + 102) };
    delete env.TEST_DATABASE_URL;
    const run = Bun.spawn([process.execPath, "test", "test/config/config.test.ts"], { cwd: clone, env, stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => run.kill("SIGKILL"), 30_000);
    const [code, err] = await Promise.all([run.exited, new Response(run.stderr).text()]);
    clearTimeout(timer);
    expect(run.signalCode).toBeNull(); // it ended by itself
    expect(code).toBe(1);
    expect(err).toContain("Test database setup failed");
    expect(err).toContain("cannot reach");
  },
  60_000,
);
