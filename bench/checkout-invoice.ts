/**
 * What issuing the PAID invoice adds to a checkout settlement: the settlement transaction
 * (applyVerdict with a proven verdict, the step after the chain worker) timed with the invoice, then with
 * the invoice hook turned off, on sessions of one team with no webhook endpoint.
 *
 *   bun bench/checkout-invoice.ts     BENCH_SESSIONS (300)
 *
 * One JSON line per scenario: p50 and p99 of one settlement, sequential (the cost of the work, not of
 * contention), after a warm-up of 50.
 */
import { rm } from "node:fs/promises";
import { createSql } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { loadConfig } from "../src/config";
import { startAppDeps } from "../src/app-deps";
import { ManualClock } from "../src/lib/clock";
import { Logger } from "../src/lib/logger";
import { createTeam } from "../src/modules/teams/team";
import { OPERATOR } from "../src/modules/teams/roles";
import { createPaymentLink } from "../src/modules/payments/links";
import { openCheckoutSession } from "../src/modules/payments/sessions";
import { setSessionStatus } from "../src/modules/payments/repo";
import { applyVerdict, type SettlementDeps } from "../src/modules/payments/settle";
import { freePort, log } from "./procs";

const sessions = Number(process.env.BENCH_SESSIONS ?? 300);
const dir = `${new URL("..", import.meta.url).pathname}.data/bench-checkout-invoice-${Date.now()}`;
const db = await startEmbeddedPostgres(dir, freePort(54390), () => {});
const sql = createSql(db.url, { max: 4 });
const registryFile = `${dir}-registry.json`;
await Bun.write(
  registryFile,
  JSON.stringify([
    {
      id: "bench-chain",
      family: "evm",
      testnet: true,
      chainId: 31990,
      rpcUrl: "http://127.0.0.1:9",
      confirmations: 1,
      tokens: [{ symbol: "USDC", decimals: 6, contract: `0x${"1".repeat(40)}` }],
    },
  ]),
);
try {
  await migrate(sql);
  const config = await loadConfig({ DATA_DIR: dir, DATABASE_URL: db.url, CHAIN_REGISTRY_FILE: registryFile, LOG_LEVEL: "warn" });
  const clock = new ManualClock(Date.now());
  const deps = await startAppDeps(sql, config, clock, new Logger("warn", () => {}));
  const tenant = { teamId: (await createTeam(sql, "Bench")).id, environment: "development" as const };
  const link = await createPaymentLink({ sql, registry: config.chains }, tenant, OPERATOR, {
    amount: "1000000",
    network: "bench-chain",
    acceptedToken: "USDC",
    recipientWallet: `0x${"2".repeat(40)}`,
  });
  const hex = () => `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

  /** Settles n fresh sessions one after the other; p50/p99 of one settlement in ms. */
  async function settle(n: number, settlement: SettlementDeps) {
    const waiting: [string, string][] = [];
    for (let i = 0; i < n; i++) {
      const now = new Date(clock.now());
      const s = await openCheckoutSession({ sql, registry: config.chains }, { tenant, actor: OPERATOR, now }, { paymentLinkId: link.id });
      const txHash = hex();
      await setSessionStatus(sql, tenant, s.id, { status: "CONFIRMING", txHash, at: now });
      waiting.push([s.id, txHash]);
    }
    const times: number[] = [];
    for (const [id, txHash] of waiting) {
      const verdict = {
        ok: true as const,
        transfers: [{ transferIndex: 0, amount: 1_000_000n, payer: `0x${"3".repeat(40)}`, payerDebited: true }],
        blockNumber: 7n,
        blockHash: null,
      };
      const start = performance.now();
      const outcome = await applyVerdict(settlement, { tenant, actor: OPERATOR, now: new Date(clock.now()) }, id, { txHash, verdict });
      times.push(performance.now() - start);
      if (outcome.kind !== "paid") throw new Error(`session ${id} not paid: ${outcome.kind}`);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(times.length * q))]! * 100) / 100;
    return { p50Ms: at(0.5), p99Ms: at(0.99) };
  }

  const withoutInvoice = { ...deps.settlement, invoiceSession: async () => {} };
  await settle(50, deps.settlement);
  for (const [scenario, settlement] of [
    ["settle_with_invoice", deps.settlement],
    ["settle_without_invoice", withoutInvoice],
  ] as const) {
    log(`checkout invoice: ${scenario}, ${sessions} settlements`);
    console.log(JSON.stringify({ scenario, sessions, ...(await settle(sessions, settlement)) }));
  }
  await deps.stop();
} finally {
  await sql.end();
  await db.stop();
  await rm(dir, { recursive: true, force: true });
  await rm(registryFile, { force: true });
}
