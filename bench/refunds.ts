/**
 * Recording refunds: our own work once a proof is in hand. `refundInvoice` (src/modules/invoices/refunds/refund.ts)
 * runs as POST /invoices/{id}/refunds runs it, with a chain verifier that answers at once with a proof (the
 * chain's time is the network's, not ours): the invoice read, the field checks, the limit, the settlement wallet,
 * the replay lookups, then one transaction under the invoice's lock writing refund, credit note (numbered),
 * invoice amounts, the webhook message, its delivery and job, and two audit entries.
 *
 *   bun bench/refunds.ts     BENCH_REFUNDS (400), BENCH_CLIENTS (16), BENCH_ROUNDS (3)
 *
 * Scenarios, one JSON line each (median round; BENCH_REFUNDS fired at once over BENCH_CLIENTS connections):
 * `baseline_insert` (the floor: a transaction inserting one refund row, nothing else), `one_invoice` (every
 * refund on one invoice: they queue on its lock), `one_team` (each on its own invoice of one team: they queue
 * on the team's credit-note series and audit chain), `spread` (each in its own team), `spread_record_only` (the
 * same without the checks before the transaction: recordRefund alone). A fresh embedded PostgreSQL, removed afterwards.
 */
import { rm } from "node:fs/promises";
import { createSql, type Sql, type TransactionSql } from "../src/db/client";
import { migrateDatabase } from "../src/db/migrate";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { BUILT_IN_NETWORKS, ChainRegistry } from "../src/lib/networks";
import type { PaymentExpectation, PaymentVerdict } from "../src/chains/types";
import { newId } from "../src/lib/ids";
import type { Tenant } from "../src/lib/tenant";
import { createTeam } from "../src/modules/teams/team";
import { createEndpoint } from "../src/modules/webhooks/endpoints/manage";
import { createInvoice } from "../src/modules/invoices/lifecycle/transitions";
import { applyPayment } from "../src/modules/invoices/payments/settle";
import { refundInvoice } from "../src/modules/invoices/refunds/refund";
import { recordRefund, type ProvenRefund } from "../src/modules/invoices/refunds/record";
import { freePort, log } from "./procs";

const env = process.env;
const refunds = Number(env.BENCH_REFUNDS ?? 400);
const clients = Number(env.BENCH_CLIENTS ?? 16);
const rounds = Number(env.BENCH_ROUNDS ?? 3);
const ACTOR = { kind: "operator", id: "bench", requestId: null };
const NETWORK = "base-sepolia";
const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";
const CUSTOMER = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const registry = new ChainRegistry(BUILT_IN_NETWORKS);
const clock = { now: () => Date.now() };
const hex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

/** The chain's answer, given at once: the transfer the refund names, sent by the settlement wallet. */
const instantChain = {
  verifyPayment: async (e: PaymentExpectation): Promise<PaymentVerdict> => ({
    ok: true,
    transfers: [{ transferIndex: 0, amount: e.amount, payer: WALLET, payerDebited: true }],
    blockNumber: 1n,
    blockHash: `0x${hex(32)}`,
  }),
};

/** A team with its settlement wallet and a webhook endpoint (so each refund writes its webhook too). */
async function benchTeam(sql: Sql, name: string): Promise<Tenant> {
  const tenant: Tenant = { teamId: (await createTeam(sql, name)).id, environment: "development" };
  await sql`insert into settlement_wallets (team_id, environment, network, wallet) values (${tenant.teamId}, 'development', ${NETWORK}, ${WALLET})`;
  const config = { tokenSigningSecret: "bench-token-signing-secret-0123456789abcdef", webhookAllowHttp: false, webhookAllowPrivateAddresses: false };
  await createEndpoint({ sql, clock, config }, tenant, ACTOR, { url: "https://example.com/hook" });
  return tenant;
}

/** An invoice issued and paid in full (10^6 USDC), as a verified payment leaves it. */
async function paidInvoice(sql: Sql, tenant: Tenant): Promise<string> {
  return sql.begin(async (tx) => {
    const c = { tx, tenant, actor: ACTOR, chains: registry, now: new Date(), emailEnabled: false };
    const total = 10n ** 12n;
    const invoice = await createInvoice(
      c,
      { currency: "USDC", network: NETWORK, lines: [{ description: "Seats", quantity: 1n, unitAmount: total, taxRate: 0n }] },
      { issue: true },
    );
    const paymentId = newId("pay");
    await tx`insert into payments (id, team_id, environment, invoice_id, applied_micro, excess_micro, network, tx_hash, transfer_index, amount, token_symbol, payer, block_number)
             values (${paymentId}, ${tenant.teamId}, 'development', ${invoice.id}, 0, 0, ${NETWORK}, ${`0x${hex(32)}`}, 0, ${total.toString()}, 'USDC', ${CUSTOMER}, 1)`;
    await applyPayment(c, invoice.id, { id: paymentId, amount: total, network: NETWORK });
    return invoice.id;
  });
}

type Target = { tenant: Tenant; invoiceId: string };

const proven = (): ProvenRefund => ({
  amount: 1_000_000n,
  reason: "Bench refund",
  network: NETWORK,
  txHash: `0x${hex(32)}`,
  senderWallet: WALLET,
  recipientWallet: CUSTOMER,
  tokenSymbol: "USDC",
  tokenAmount: 1_000_000n,
  blockNumber: 1n,
});

async function round(work: (i: number) => Promise<unknown>): Promise<{ ms: number; p99Ms: number }> {
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: refunds }, async (_, i) => {
      const start = performance.now();
      await work(i);
      latencies.push(performance.now() - start);
    }),
  );
  latencies.sort((a, b) => a - b);
  return { ms: performance.now() - t0, p99Ms: latencies[Math.floor(latencies.length * 0.99)]! };
}

/** The floor: the refund row alone, in a transaction of its own (a commit, as every refund pays). */
const insertRefundRow = (tx: TransactionSql, tenant: Tenant, invoiceId: string) =>
  tx`insert into refunds (id, team_id, environment, invoice_id, amount, token_symbol, token_amount, network, tx_hash, sender_wallet,
       recipient_wallet, reason, block_number)
     values (${newId("re")}, ${tenant.teamId}, 'development', ${invoiceId}, 1000000, 'USDC', 1000000, ${NETWORK}, ${`0x${hex(32)}`},
       ${WALLET}, ${CUSTOMER}, 'Bench', 1)`;

const refundOn = (sql: Sql) => (target: Target) =>
  refundInvoice({ sql, registry, pool: instantChain }, { tenant: target.tenant, actor: ACTOR, now: new Date() }, target.invoiceId, {
    amount: "1",
    reason: "Bench refund",
    txHash: `0x${hex(32)}`,
    recipientWallet: CUSTOMER,
  });

const dir = `${new URL("..", import.meta.url).pathname}.data/bench-refunds-${Date.now()}`;
const db = await startEmbeddedPostgres(dir, freePort(54380), () => {});
const sql = createSql(db.url, { max: clients });
try {
  await migrateDatabase(sql, db.url);
  log(`refunds: setting up ${refunds} teams and invoices`);
  const main = await benchTeam(sql, "Bench refunds");
  const single = await paidInvoice(sql, main);
  const ownInvoices: Target[] = [];
  for (let i = 0; i < refunds; i++) ownInvoices.push({ tenant: main, invoiceId: await paidInvoice(sql, main) });
  const ownTeams: Target[] = [];
  for (let i = 0; i < refunds; i++) {
    const tenant = await benchTeam(sql, `Bench refunds ${i}`);
    ownTeams.push({ tenant, invoiceId: await paidInvoice(sql, tenant) });
  }
  const refund = refundOn(sql);
  const scenarios: [string, (i: number) => Promise<unknown>][] = [
    ["baseline_insert", (i) => sql.begin((tx) => insertRefundRow(tx, main, ownInvoices[i]!.invoiceId))],
    ["one_invoice", () => refund({ tenant: main, invoiceId: single })],
    ["one_team", (i) => refund(ownInvoices[i]!)],
    ["spread", (i) => refund(ownTeams[i]!)],
    // The same, without the checks before the transaction (invoice, wallet, replay lookups): recordRefund alone.
    [
      "spread_record_only",
      (i) => sql.begin((tx) => recordRefund({ tx, tenant: ownTeams[i]!.tenant, actor: ACTOR, now: new Date() }, ownTeams[i]!.invoiceId, proven())),
    ],
  ];
  const figures: Record<string, number> = {};
  for (const [scenario, work] of scenarios) {
    log(`refunds: ${scenario}, ${rounds} rounds of ${refunds} at once over ${clients} connections`);
    await round(work); // warm-up
    const results = [];
    for (let r = 0; r < rounds; r++) results.push(await round(work));
    results.sort((a, b) => a.ms - b.ms);
    const median = results[Math.floor(results.length / 2)]!;
    figures[scenario] = (refunds * 1000) / median.ms;
    console.log(
      JSON.stringify({
        scenario,
        refunds,
        clients,
        roundMs: Math.round(median.ms),
        refundsPerS: Math.round(figures[scenario]!),
        p99Ms: Math.round(median.p99Ms * 10) / 10,
      }),
    );
  }
  const ratio = (s: string) => Math.round((figures[s]! / figures.baseline_insert!) * 1000) / 1000;
  const summary = Object.fromEntries(scenarios.slice(1).map(([scenario]) => [`${scenario}_vs_baseline`, ratio(scenario)]));
  console.log(JSON.stringify({ summary }));
} finally {
  await sql.end();
  await db.stop();
  await rm(dir, { recursive: true, force: true });
}
