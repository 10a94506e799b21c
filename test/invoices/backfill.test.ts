/**
 * The checkout backfill: every paid session without an invoice gets its PAID invoice, in batches, once.
 * Sessions are paid as the settlement before invoices recorded them (session PAID, a payment row with no
 * invoice), so no chain is needed.
 */
import { expect, test } from "bun:test";
import { createTestApp, TEST_SECRETS } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { newId } from "../../src/lib/ids";
import { OPERATOR } from "../../src/modules/teams/roles";
import { backfillCheckoutInvoices, tenantsToBackfill } from "../../src/modules/invoices/payments/backfill";
import { invoicePaymentCommands } from "../../src/cli/invoice-payments";

const registryFile = `${process.cwd()}/.data/test/backfill-${crypto.randomUUID()}.json`;
const token = { symbol: "USDC", decimals: 6, contract: `0x${"1".repeat(40)}` };
await Bun.write(
  registryFile,
  JSON.stringify([
    { id: "old-chain", family: "evm", testnet: true, chainId: 31997, rpcUrl: "http://127.0.0.1:9", confirmations: 1, tokens: [token] },
    { id: "gone-chain", family: "evm", testnet: true, chainId: 31996, rpcUrl: "http://127.0.0.1:9", confirmations: 1, tokens: [token] },
  ]),
);
const t = await createTestApp({ CHAIN_REGISTRY_FILE: registryFile });
const deps = { sql: t.db.sql, chains: t.config.chains, actor: OPERATOR, now: () => new Date(t.clock.now()) };
const payer = `0x${"3".repeat(40)}`;

/** A session paid as before invoices existed: PAID at `paidAt`, its payment recorded without an invoice. */
async function paidSession(teamId: string, key: string, amount = "5000000", network = "old-chain", paidAt = new Date("2025-11-03T10:00:00Z")) {
  const link = (
    await t.call("POST", "/payment-links", {
      token: key,
      body: { amount, network: "old-chain", acceptedToken: "USDC", recipientWallet: `0x${"2".repeat(40)}`, description: "Old sale" },
    })
  ).body.paymentLink;
  const s = (await t.call("POST", "/checkout-sessions", { token: key, body: { paymentLinkId: link.id } })).body.checkoutSession;
  const txHash = `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  await t.db.sql`update checkout_sessions set status = 'PAID', tx_hash = ${txHash}, paid_at = ${paidAt}, network = ${network},
                 customer_wallet = ${payer} where id = ${s.id}`;
  await t.db
    .sql`insert into payments (id, team_id, environment, checkout_session_id, network, tx_hash, transfer_index, amount, token_symbol, payer, block_number)
                 values (${newId("pay")}, ${teamId}, 'development', ${s.id}, ${network}, ${txHash}, 0, ${amount}, 'USDC', ${payer}, 1)`;
  return s.id as string;
}

const invoicesOf = (teamId: string) =>
  t.db.sql`select i.source_id, i.status, i.number, i.sequence, i.total, i.amount_paid, i.paid_at, i.metadata, p.applied_micro
           from invoices i join payments p on p.invoice_id = i.id where i.team_id = ${teamId} order by i.sequence`;

test("invoices every paid session without one, a batch per transaction; a second run makes nothing", async () => {
  const team = await createTeamFixture(t, "Backfill");
  const paidAt = new Date("2025-11-03T10:00:00Z");
  const sessions = [];
  for (let i = 0; i < 5; i++) sessions.push(await paidSession(team.teamId, team.keys.secret, `${i + 1}000000`));
  const tenant = { teamId: team.teamId, environment: "development" as const };

  const first = await backfillCheckoutInvoices(deps, tenant, 2);
  expect(first).toEqual({ ...tenant, created: 5, batches: 3, skipped: [] });
  const rows = await invoicesOf(team.teamId);
  expect(rows.map((r) => r.source_id)).toEqual(sessions);
  expect(rows.map((r) => r.sequence)).toEqual([1n, 2n, 3n, 4n, 5n]); // gapless, in the sessions' order
  for (const [i, r] of rows.entries())
    expect(r).toMatchObject({
      status: "PAID",
      total: BigInt(`${i + 1}000000`),
      amount_paid: BigInt(`${i + 1}000000`),
      applied_micro: BigInt(`${i + 1}000000`),
      paid_at: paidAt,
      metadata: { checkoutSessionId: sessions[i], backfilled: true },
    });

  expect(await backfillCheckoutInvoices(deps, tenant, 2)).toEqual({ ...tenant, created: 0, batches: 0, skipped: [] });
  expect((await invoicesOf(team.teamId)).length).toBe(5);
});

test("two runs at once make each invoice once", async () => {
  const team = await createTeamFixture(t, "Backfill race");
  for (let i = 0; i < 6; i++) await paidSession(team.teamId, team.keys.secret);
  const tenant = { teamId: team.teamId, environment: "development" as const };
  const [a, b] = await Promise.all([backfillCheckoutInvoices(deps, tenant, 2), backfillCheckoutInvoices(deps, tenant, 3)]);
  expect(a.created + b.created).toBe(6);
  expect([...a.skipped, ...b.skipped]).toEqual([]);
  const rows = await invoicesOf(team.teamId);
  expect(rows.map((r) => r.sequence)).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
  expect(new Set(rows.map((r) => r.source_id)).size).toBe(6);
});

test("a session that cannot be invoiced is reported and skipped; the rest of its batch is made", async () => {
  const team = await createTeamFixture(t, "Backfill skip");
  const good = await paidSession(team.teamId, team.keys.secret);
  // Its network is not one the environment settles on any more (a registry entry since removed).
  const orphan = await paidSession(team.teamId, team.keys.secret, "5000000", "removed-chain");
  const after = await paidSession(team.teamId, team.keys.secret);
  const tenant = { teamId: team.teamId, environment: "development" as const };
  expect(await tenantsToBackfill(t.db.sql)).toContainEqual(tenant);
  const result = await backfillCheckoutInvoices(deps, tenant);
  expect(result.created).toBe(2);
  expect(result.skipped).toEqual([
    { checkoutSessionId: orphan, error: "Validation failed: body.network: Expected a network this environment settles USDC on" },
  ]);
  expect(await tenantsToBackfill(t.db.sql)).toContainEqual(tenant); // the orphan still lacks one
  expect((await invoicesOf(team.teamId)).map((r) => r.source_id)).toEqual([good, after]);
});

test("CLI: invoice backfill-checkouts --team prints what it made; run again, nothing", () => {
  const cli = (...args: string[]) => {
    const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], {
      env: { ...process.env, DATABASE_URL: t.db.url, CHAIN_REGISTRY_FILE: registryFile, ...TEST_SECRETS },
    });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };
  return (async () => {
    const team = await createTeamFixture(t, "Backfill CLI");
    await paidSession(team.teamId, team.keys.secret);
    await paidSession(team.teamId, team.keys.secret);
    const first = cli("invoice", "backfill-checkouts", "--team", team.teamId);
    expect(first).toMatchObject({ code: 0, err: "" });
    expect(JSON.parse(first.out).data).toEqual({
      created: 2,
      skipped: 0,
      tenants: [
        { teamId: team.teamId, environment: "development", created: 2, batches: 1, skipped: [] },
        { teamId: team.teamId, environment: "production", created: 0, batches: 0, skipped: [] },
      ],
    });
    expect(JSON.parse(cli("invoice", "backfill-checkouts", "--team", team.teamId, "--environment", "development").out).data.created).toBe(0);
    expect(cli("invoice", "backfill-checkouts", "--environment", "staging").code).toBe(2);
  })();
}, 60_000);

test("CLI: invoices are issued at the command's clock (its context's now), not the machine's", async () => {
  const team = await createTeamFixture(t, "Backfill clock");
  await paidSession(team.teamId, team.keys.secret);
  const command = invoicePaymentCommands.find((c) => c.name === "invoice backfill-checkouts")!;
  const now = Date.parse("2031-05-06T07:08:09Z");
  const ctx = { sql: t.db.sql, databaseUrl: t.db.url, config: t.config, now, baseUrl: "http://localhost/api/v1" };
  await command.run(ctx, command.parse({ team: team.teamId, environment: "development" }));
  const rows = await t.db.sql`select issued_at from invoices where team_id = ${team.teamId}`;
  expect(rows.map((r) => r.issued_at.toISOString())).toEqual(["2031-05-06T07:08:09.000Z"]);
});
