/** The `webhook …` CLI commands as an operator runs them: subprocesses over the same service functions as the routes. */
import { afterAll, expect, test } from "bun:test";
import { cloneTestDatabase } from "../helpers/db";
import { TEST_SECRETS } from "../helpers/app";

const db = await cloneTestDatabase();
afterAll(() => db.drop());

function cli(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: db.url, ...TEST_SECRETS } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}
const ok = (...args: string[]) => {
  const r = cli(...args);
  expect(r).toMatchObject({ code: 0, err: "" });
  return JSON.parse(r.out).data;
};

test("webhook create, list, update, rotate, secret, test, deliveries, replay and delete", () => {
  const team = ok("team", "create", "--name", "Hooks").id;
  const created = ok("webhook", "create", "--team", team, "--url", "https://example.com/cli", "--events", "company.created");
  expect(created.secret).toStartWith("whsec_");
  const id = created.id;
  const listed = ok("webhook", "list", "--team", team);
  expect(listed.map((e: { id: string }) => e.id)).toEqual([id]);
  expect(JSON.stringify(listed)).not.toContain(created.secret.slice(6));
  expect(ok("webhook", "update", "--team", team, "--id", id, "--enabled", "false").enabled).toBe(false);
  expect(ok("webhook", "update", "--team", team, "--id", id, "--enabled", "true").enabled).toBe(true);
  const rotated = ok("webhook", "rotate", "--team", team, "--id", id, "--overlap-seconds", "60");
  expect(ok("webhook", "secret", "--team", team, "--id", id)).toMatchObject({ secret: rotated.secret, previousSecret: created.secret });
  const sent = ok("webhook", "test", "--team", team, "--id", id);
  const deliveries = ok("webhook", "deliveries", "--team", team, "--id", id);
  expect(deliveries).toEqual([expect.objectContaining({ id: sent.deliveryId, messageId: sent.messageId, status: "pending" })]);
  expect(ok("webhook", "replay", "--team", team, "--delivery", sent.deliveryId).messageId).toBe(sent.messageId);
  expect(cli("webhook", "replay", "--team", team).code).toBe(2);
  expect(cli("webhook", "create", "--team", team, "--url", "http://example.com/x").code).toBe(2);
  expect(ok("webhook", "delete", "--team", team, "--id", id).id).toBe(id);
  expect(cli("webhook", "delete", "--team", team, "--id", id).code).toBe(1);
}, 120_000);
