/**
 * `bun bench/x402.ts` (or `BENCH_SCENARIOS=x402 npm run bench`): the latency of a paid x402 request on anvil, the
 * chain's part (the worker's `check` reads and `settle`: transferWithAuthorization sent, receipt awaited) measured
 * apart from our own (header, terms and offer match, window, claim, grant transaction, the request itself).
 * Figures, never assertions (bench/README.md "x402 verify and settle").
 *
 * A fresh embedded PostgreSQL, anvil with the EIP-3009 test token (test/helpers/chains/x402.ts), the service's real
 * deps (chain worker pool holding the operator key), one team with its pack. Scenarios, serial (latency, not
 * throughput), one JSON line each, then `{"summary": …}`:
 *  - `chain_check`: the worker's check of a fresh authorization (signature, authorizationState, balanceOf);
 *  - `chain_settle`: the worker's settle of a fresh authorization (simulate, estimate, send, receipt);
 *  - `paid_request`: POST /usage/consume carrying a fresh PAYMENT-SIGNATURE, through the app (everything);
 *  - `paid_request_own_work`: the same with a chain stand-in answering check and settle at once: our work alone;
 *  - `unpaid_402_with_terms` and `unpaid_402_without_terms`: the 402 itself, with the pack's terms read and
 *    encoded, and for a team offering none (what the terms add to a refusal).
 *
 * Environment: BENCH_PAYMENTS (50).
 */
import { rm } from "node:fs/promises";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { createApp, serverFetch } from "../src/app";
import { startAppDeps } from "../src/app-deps";
import type { X402Check, X402Operation, X402Settlement } from "../src/chains/x402-types";
import type { ChainPool } from "../src/chains/pool";
import { loadConfig } from "../src/config";
import { createSql } from "../src/db/client";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { migrate } from "../src/db/migrate";
import { Logger } from "../src/lib/logger";
import { createCreditPack } from "../src/modules/catalog/credit-packs/edit";
import { createFeature } from "../src/modules/catalog/features/edit";
import { setEntitlement } from "../src/modules/catalog/entitlements/edit";
import { createPlan } from "../src/modules/catalog/plans/edit";
import { assignPlan } from "../src/modules/customers/plan";
import { setSettlementWallet } from "../src/modules/invoices/settings/manage";
import { createKey } from "../src/modules/teams/keys";
import { OPERATOR } from "../src/modules/teams/roles";
import { createTeam } from "../src/modules/teams/team";
import { withX402 } from "../src/modules/x402/pay";
import { x402Bed } from "../test/helpers/chains/x402";
import { freePort, log } from "./procs";

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 50);
const PRICE = "1000000";
const dir = `${new URL("..", import.meta.url).pathname}.data/bench-x402-${Date.now()}`;
const print = (figure: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(figure)}\n`);

function stats(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]! * 100) / 100;
  return {
    n: sorted.length,
    p50Ms: at(0.5),
    p90Ms: at(0.9),
    p99Ms: at(0.99),
    meanMs: Math.round((sorted.reduce((a, b) => a + b, 0) / sorted.length) * 100) / 100,
  };
}

async function timed(n: number, one: (i: number) => Promise<void>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await one(i);
    times.push(performance.now() - start);
  }
  return stats(times);
}

const bed = await x402Bed(10_000_000_000_000n);
const db = await startEmbeddedPostgres(dir, freePort(54395), () => {});
const sql = createSql(db.url, { max: 10 });
try {
  await migrate(sql);
  const config = await loadConfig({
    DATA_DIR: dir,
    DATABASE_URL: db.url,
    CHAIN_REGISTRY_FILE: bed.registryFile,
    SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey,
    RATE_LIMIT_ENABLED: "false",
    LOG_LEVEL: "warn",
  });
  // The wall clock: the chain's runs on it, and the authorizations' windows are read against both.
  const clock = { now: () => Date.now() };
  const deps = await startAppDeps(sql, config, clock, new Logger("warn", () => {}));
  const handle = serverFetch(deps, createApp(deps));

  /** A team selling 1,000,000 credits for 1 USDC (so one pack covers every use here), or offering nothing. */
  async function team(name: string, wallet: string | null) {
    const tenant = { teamId: (await createTeam(sql, name)).id, environment: "development" as const };
    const secret = (await createKey(sql, { ...tenant, type: "SECRET", name: "bench" }, Date.now())).key;
    const legacy = (await createKey(sql, { ...tenant, type: "LEGACY", name: "bench" }, Date.now())).key;
    const plan = await createPlan(sql, tenant, { name: "Pro" });
    const feature = await createFeature(sql, tenant, { name: "AI tokens", featureKey: "ai-tokens", featureType: "event" });
    await setEntitlement(sql, tenant, { planId: plan.id, featureId: feature.id, kind: "credit", creditsPerUse: 1n });
    const identify = { event_type: "identify", company: { id: "agent-co", name: "Agent" } };
    await handle(
      new Request("http://localhost/api/v1/events", {
        method: "POST",
        headers: { authorization: `Bearer ${legacy}`, "content-type": "application/json" },
        body: JSON.stringify(identify),
      }),
    );
    await assignPlan(sql, tenant, { company: "agent-co", planId: plan.id }, new Date());
    if (wallet) {
      await setSettlementWallet({ sql, registry: config.chains }, { tenant, actor: OPERATOR, now: new Date() }, "anvil", { wallet });
      const catalog = { sql, chains: config.chains, now: () => new Date() };
      await createCreditPack(catalog, tenant, OPERATOR, {
        key: "bench",
        credits: "1000000",
        prices: [{ network: "anvil", token: "USDC", amount: PRICE }],
        offerOnPaymentRequired: true,
      });
    }
    return { tenant, secret };
  }
  const seller = await team("x402 bench", bed.payee);
  const plain = await team("x402 bench, no pack", null);
  const consume = (key: string, headers: Record<string, string> = {}, i = 0) =>
    new Request("http://localhost/api/v1/usage/consume", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: JSON.stringify({ company: "agent-co", feature: "ai-tokens", idempotencyKey: `bench-${i}-${crypto.randomUUID()}` }),
    });
  const unpaid = await handle(consume(seller.secret));
  const accepted = JSON.parse(Buffer.from(unpaid.headers.get("payment-required")!, "base64").toString()).accepts[0] as PaymentRequirements;
  const paymentHeader = async () =>
    encodePaymentSignatureHeader({ x402Version: 2, accepted, payload: await bed.authorize({ to: bed.payee, value: PRICE }) });
  const expect200 = async (response: Response) => {
    if (response.status !== 200) throw new Error(`expected 200, got ${response.status} ${response.headers.get("payment-required") ?? ""}`);
    await response.arrayBuffer();
  };

  // Warm-up: the worker, its adapter import, the prepared statements.
  for (let i = 0; i < 5; i++) await expect200(await handle(consume(seller.secret, { "payment-signature": await paymentHeader() }, i)));

  const pool = deps.settlement.pool;
  const transfer = async () => {
    const { authorization, signature } = await bed.authorize({ to: bed.payee, value: PRICE });
    return { network: config.chains.get("anvil")!, token: bed.token, authorization, signature };
  };
  const figures: Record<string, ReturnType<typeof stats>> = {};
  const run = async (scenario: string, one: (i: number) => Promise<void>, prepare?: () => Promise<void>) => {
    await prepare?.();
    log(`x402: ${scenario}, ${PAYMENTS} serial`);
    figures[scenario] = await timed(PAYMENTS, one);
    print({ scenario, ...figures[scenario] });
  };

  const checks = await Promise.all(Array.from({ length: PAYMENTS }, transfer));
  await run("chain_check", async (i) => {
    const verdict = await pool.x402({ op: "check", request: checks[i]! });
    if (!verdict.ok || !verdict.signatureValid) throw new Error("check failed");
  });
  const settles = await Promise.all(Array.from({ length: PAYMENTS }, transfer));
  await run("chain_settle", async (i) => {
    const verdict = await pool.x402({ op: "settle", request: settles[i]! });
    if (!verdict.ok) throw new Error(`settle failed: ${verdict.detail}`);
  });
  // Every request through an app whose chain calls are timed as they happen: the chain's share of each request.
  const chainMs: number[] = [];
  let inRequest = 0;
  const timedPool = {
    x402: async (op: X402Operation) => {
      const start = performance.now();
      const answer = await pool.x402(op as never);
      inRequest += performance.now() - start;
      return answer;
    },
  } as unknown as ChainPool;
  const timedDeps = { ...deps };
  timedDeps.paymentGate = (paid, next) =>
    withX402({ sql, clock, settlement: { ...deps.settlement, pool: timedPool }, leaseMs: 40_000, origin: config }, paid, next);
  const timedHandle = serverFetch(timedDeps, createApp(timedDeps));
  const headers = await Promise.all(Array.from({ length: PAYMENTS }, paymentHeader));
  const ourShare: number[] = [];
  await run("paid_request", async (i) => {
    inRequest = 0;
    const start = performance.now();
    await expect200(await timedHandle(consume(seller.secret, { "payment-signature": headers[i]! }, i)));
    chainMs.push(inRequest);
    ourShare.push(performance.now() - start - inRequest);
  });
  figures.paid_request_chain_part = stats(chainMs);
  figures.paid_request_our_part = stats(ourShare);
  print({ scenario: "paid_request_chain_part", ...figures.paid_request_chain_part });
  print({ scenario: "paid_request_our_part", ...figures.paid_request_our_part });
  // The request alone, paid for already: what a use costs without x402.
  await run("consume_with_credits", async (i) => expect200(await handle(consume(seller.secret, {}, i))));

  // Our work alone: the same requests through an app whose chain answers at once.
  let block = 1n;
  const standIn = {
    x402: async (op: X402Operation): Promise<X402Check | X402Settlement> =>
      op.op === "check"
        ? { ok: true, signatureValid: true, nonceUsed: false, balance: 10n ** 30n }
        : { ok: true, txHash: `0x${(block++).toString(16).padStart(64, "0")}`, blockNumber: block, logIndex: 1 },
  } as unknown as ChainPool;
  const ownDeps = { ...deps };
  ownDeps.paymentGate = (paid, next) =>
    withX402({ sql, clock, settlement: { ...deps.settlement, pool: standIn }, leaseMs: 40_000, origin: config }, paid, next);
  const ownHandle = serverFetch(ownDeps, createApp(ownDeps));
  const ownHeaders = await Promise.all(Array.from({ length: PAYMENTS }, paymentHeader));
  await run("paid_request_own_work", async (i) => expect200(await ownHandle(consume(seller.secret, { "payment-signature": ownHeaders[i]! }, i))));

  // The 402 itself: a team whose company has no credits left and no pack, against the seller with no credits.
  await sql`update credit_grants set remaining = 0 where team_id = ${seller.tenant.teamId}`;
  await run("unpaid_402_with_terms", async (i) => {
    const r = await handle(consume(seller.secret, {}, i));
    if (r.status !== 402 || !r.headers.get("payment-required")) throw new Error(`expected a 402 with terms, got ${r.status}`);
    await r.arrayBuffer();
  });
  await run("unpaid_402_without_terms", async (i) => {
    const r = await handle(consume(plain.secret, {}, i));
    if (r.status !== 402 || r.headers.get("payment-required")) throw new Error(`expected a 402 without terms, got ${r.status}`);
    await r.arrayBuffer();
  });

  const p50 = (s: string) => figures[s]!.p50Ms;
  const round = (n: number, digits = 100) => Math.round(n * digits) / digits;
  print({
    summary: {
      paidRequestP50Ms: p50("paid_request"),
      chainPartP50Ms: p50("paid_request_chain_part"),
      ourPartP50Ms: p50("paid_request_our_part"),
      chainShareOfPaidRequest: round(p50("paid_request_chain_part") / p50("paid_request")),
      ownWorkWithInstantChainP50Ms: p50("paid_request_own_work"),
      x402OverPlainConsumeMs: round(p50("paid_request_own_work") - p50("consume_with_credits")),
      paidOverPlainConsume: round(p50("paid_request") / p50("consume_with_credits"), 10),
      termsAddTo402Ms: round(p50("unpaid_402_with_terms") - p50("unpaid_402_without_terms")),
    },
  });
  await deps.stop();
} finally {
  await sql.end({ timeout: 5 });
  await db.stop();
  await bed.stop();
  await rm(dir, { recursive: true, force: true });
}
