/** Shutdown: every step runs even when one fails, so queued writes are still flushed. */
import { afterAll, expect, test } from "bun:test";
import { startAppDeps } from "../../src/app-deps";
import { loadConfig } from "../../src/config";
import { newTestClock } from "../helpers/clock";
import { Logger } from "../../src/lib/logger";
import { cloneTestDatabase } from "../helpers/db";
import { TEST_SECRETS } from "../helpers/app";
import { createKey } from "../../src/modules/teams/keys";
import { createTeam } from "../../src/modules/teams/team";

const db = await cloneTestDatabase();
afterAll(() => db.drop());

test("a failing shutdown step does not skip the ones after it, and its error is raised", async () => {
  const config = await loadConfig({
    DATA_DIR: `${process.cwd()}/.data/test`,
    DATABASE_URL: db.url,
    LOG_LEVEL: "silent",
    CHECKOUT_SWEEP_INTERVAL_MS: "0",
    ...TEST_SECRETS,
  });
  const clock = newTestClock();
  const deps = await startAppDeps(db.sql, config, clock, new Logger("silent", () => {}));
  const team = await createTeam(db.sql, "Shutdown");
  const key = await createKey(db.sql, { teamId: team.id, environment: "development", type: "SECRET", name: "k" }, clock.now());
  await deps.credentials.keyByRaw(key.key); // a key is marked used once the store has resolved it
  deps.credentials.markUsed(key.id); // flushed by the credentials step, which comes after the entitlements one
  deps.entitlements.stop = () => Promise.reject(new Error("entitlements failed to stop"));
  await expect(deps.stop()).rejects.toThrow("entitlements failed to stop");
  const [row] = await db.sql`select last_used_at from api_keys where id = ${key.id}`;
  expect(row!.last_used_at).not.toBeNull();
});
