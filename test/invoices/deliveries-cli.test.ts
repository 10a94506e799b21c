/** `invoice send` as an operator runs it: a subprocess over the same service function as the dashboard route. */
import { afterAll, expect, test } from "bun:test";
import { cloneTestDatabase } from "../helpers/db";
import { TEST_SECRETS } from "../helpers/app";
import { issuedInvoice, line } from "../helpers/invoices";
import { BUILT_IN_NETWORKS, ChainRegistry } from "../../src/lib/networks";

const db = await cloneTestDatabase();
afterAll(() => db.drop());

function cli(env: Record<string, string>, ...args: string[]) {
  const { SMTP_URL: _, ...inherited } = process.env;
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...inherited, DATABASE_URL: db.url, ...TEST_SECRETS, ...env } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}
const ok = (env: Record<string, string>, ...args: string[]) => {
  const r = cli(env, ...args);
  expect(r).toMatchObject({ code: 0, err: "" });
  return JSON.parse(r.out).data;
};

test("invoice send: webhook and email rows queued; refusals with the API's codes and the CLI's exit codes", async () => {
  const team = ok({}, "team", "create", "--name", "Sender").id as string;
  const tenant = { teamId: team, environment: "development" as const };
  const invoice = await issuedInvoice(db.sql, new ChainRegistry(BUILT_IN_NETWORKS), tenant, new Date(), [line(2_000_000n)]);
  const hook = ok({}, "webhook", "create", "--team", team, "--url", "https://example.com/invoices", "--events", "invoice.issued").id;

  const byWebhook = ok({}, "invoice", "send", "--team", team, "--id", invoice.id, "--channel", "webhook");
  expect(byWebhook).toEqual([expect.objectContaining({ channel: "webhook", destination: hook, trigger: "manual", status: "PENDING" })]);

  const noSmtp = cli({}, "invoice", "send", "--team", team, "--id", invoice.id);
  expect(noSmtp.code).toBe(1);
  expect(JSON.parse(noSmtp.err)).toMatchObject({ code: "delivery_channel_unavailable" });

  const smtp = { SMTP_URL: "smtp://relay:secret@127.0.0.1:2525" };
  const byEmail = ok(smtp, "invoice", "send", "--team", team, "--id", invoice.id, "--to", "ap@buyer.example");
  expect(byEmail).toEqual([expect.objectContaining({ channel: "email", destination: "ap@buyer.example", status: "PENDING", attempts: 0 })]);

  expect(cli(smtp, "invoice", "send", "--team", team, "--id", invoice.id, "--to", "not-an-address").code).toBe(2);
  expect(cli(smtp, "invoice", "send", "--team", team, "--id", invoice.id, "--channel", "fax").code).toBe(2);
  expect(cli(smtp, "invoice", "send", "--team", team, "--id", "in_missing").code).toBe(1);
}, 120_000);
