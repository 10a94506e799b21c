/**
 * Auto-topup end to end on Solana (a litesvm ledger behind a JSON-RPC node): the funding wallet approved the
 * operator as SPL delegate, the dashboard registers that delegation as the funding mandate, and the monitor's tick
 * reads every target's token account in one getMultipleAccounts and sends exactly `topupAmount` by the delegate's
 * transfer (creating the target's token account), once per crossing. Chain and database agree; a daily cap refusal
 * leaves the chain unchanged; two instances send once; a send that never landed is failed by recovery.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Keypair, LAMPORTS_PER_SOL } from "@solana/web3.js";
import { rm } from "node:fs/promises";
import { ChainPool } from "../../src/chains/pool";
import type { TopupOperation, TopupSend } from "../../src/chains/topup-types";
import { createSql } from "../../src/db/client";
import { createPlanRecord } from "../../src/modules/catalog/plans/edit";
import { dispatchTopup } from "../../src/modules/agents/dispatch";
import { tickNetwork, type MonitorDeps } from "../../src/modules/agents/monitor";
import { recoverDispatches } from "../../src/modules/agents/recover";
import { createTestApp } from "../helpers/app";
import { startSolanaSubscriptionChain, usdc } from "../helpers/chains/solana-subscriptions";
import { fundingBody } from "../helpers/agent-funding";
import { insertDueSubscriptions } from "../helpers/due-subscriptions";
import { createTeamFixture } from "../helpers/fixtures";

const chain = startSolanaSubscriptionChain({ balance: usdc(1_000), approved: usdc(100) });
afterAll(() => chain.stop());
const registryFile = `${process.cwd()}/.data/test/topups-solana-${crypto.randomUUID()}.json`;
await Bun.write(registryFile, JSON.stringify([chain.network]));
afterAll(() => rm(registryFile, { force: true }));
const t = await createTestApp({ CHAIN_REGISTRY_FILE: registryFile, ...(chain.operatorKeys as Record<string, string>) });
const team = await createTeamFixture(t);
const funder = chain.payer;
const NETWORK = chain.network.id;
const actor = { kind: "test", id: "test", requestId: null };

const deps = (over: Partial<MonitorDeps> = {}): MonitorDeps => ({
  ...t.deps.subscriptions,
  now: () => new Date(t.clock.now()),
  batchSize: 500,
  ...over,
});
const tick = (over: Partial<MonitorDeps> = {}) => tickNetwork(deps(over), NETWORK);
const configure = async (target: Keypair, threshold: bigint, amount: bigint) => {
  const res = await t.call("POST", "/agent/dispatch", {
    token: team.keys.secret,
    body: { minBalanceThreshold: String(threshold), topupAmount: String(amount), targetWallet: target.publicKey.toBase58(), network: NETWORK },
  });
  expect(res.status).toBe(201);
  expect("chainId" in res.body.data).toBe(false);
  return res.body.data as { id: string };
};
const dispatches = async (configId: string) => [
  ...(await t.db.sql<{ status: string; reason: string | null; tx_hash: string | null; crossing: string }[]>`
    select status, reason, tx_hash, crossing::text from agent_topup_dispatches where config_id = ${configId} order by crossing`),
];
const remaining = async () =>
  (await t.db.sql`select remaining_amount::text from agent_funding_mandates where team_id = ${team.teamId}`)[0]!.remaining_amount;
const delegated = () => chain.tokenAccount(funder.publicKey)!.delegatedAmount;
/** A wallet with SOL for its own fees (so it can spend), and no token account yet. */
const wallet = () => {
  const key = Keypair.generate();
  chain.ledger.fund(key.publicKey, BigInt(LAMPORTS_PER_SOL));
  return key;
};
const [a, c, e] = [wallet(), wallet(), wallet()];
const b = chain.newPayer(usdc(20), 0n); // holds 20: above its threshold
const every = () => [funder, a, b, c, e].map((k) => chain.balance(k.publicKey));
let configA: { id: string };

describe("auto-topup on Solana", () => {
  test("a funding wallet whose token account backs a live subscription (any team's) is refused with 409: it has one delegate and one amount", async () => {
    const tenant = { teamId: team.teamId, environment: "development" as const };
    const other = { teamId: (await createTeamFixture(t, "Subscriber's merchant")).teamId, environment: "development" as const };
    const plan = await createPlanRecord({ sql: t.db.sql, chains: t.config.chains, now: () => new Date(t.clock.now()) }, other, actor, {
      name: "Pro",
      prices: [{ billingPeriod: "monthly", amount: "10", currency: "USDC" }],
    });
    const [sub] = await insertDueSubscriptions(
      t.db.sql,
      [{ tenant: other, planId: plan.id, payee: chain.payee.publicKey.toBase58(), network: NETWORK }],
      1,
      {
        anchor: new Date(t.clock.now()),
      },
    );
    await t.db.sql`update subscriptions set payment_account = ${funder.publicKey.toBase58()} where id = ${sub!.id}`;
    const body = () =>
      fundingBody({ chains: t.config.chains, tenant, network: NETWORK, wallet: funder, dailyCap: usdc(50), issuedAt: new Date(t.clock.now()) });
    const delegation = delegated();
    const refused = await t.call("PUT", `/dashboard/agent-funding/${NETWORK}`, { token: team.dashboardAdmin, body: await body() });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("payment_account_in_use");
    expect(refused.body.error).toContain("backs a live subscription");
    expect((await t.db.sql`select count(*)::int as n from agent_funding_mandates`)[0]!.n).toBe(0);
    expect(delegated()).toBe(delegation); // the chain unchanged
    // Once the subscription is canceled, the account is free to fund top-ups (the next test registers it).
    await t.db.sql`update subscriptions set status = 'CANCELED', canceled_at = now(), next_attempt_at = null where id = ${sub!.id}`;
  });

  test("the funding mandate is the delegation read from the chain, with the wallet's signed consent; the answer leaves chainId out", async () => {
    const tenant = { teamId: team.teamId, environment: "development" as const };
    const at = new Date(t.clock.now());
    const body = (signer = funder) =>
      fundingBody({ chains: t.config.chains, tenant, network: NETWORK, wallet: funder, signer, dailyCap: usdc(50), issuedAt: at });
    const forged = await t.call("PUT", `/dashboard/agent-funding/${NETWORK}`, { token: team.dashboardAdmin, body: await body(Keypair.generate()) });
    expect(forged.status).toBe(400);
    expect(Object.keys(forged.body.details)).toEqual(["body.consent.signature"]);
    const res = await t.call("PUT", `/dashboard/agent-funding/${NETWORK}`, { token: team.dashboardAdmin, body: await body() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      operator: chain.operator.publicKey.toBase58(),
      authorizedAmount: String(usdc(100)),
      remainingAmount: String(usdc(100)),
    });
    expect("chainId" in res.body.data).toBe(false);
  });

  test("below the threshold: one getMultipleAccounts reads them all, and the delegate sends exactly topupAmount", async () => {
    configA = await configure(a, usdc(10), usdc(4));
    await configure(b, usdc(5), usdc(1));
    const before = every();
    const mark = chain.rpc.calls.length;
    const report = await tick();
    expect(report).toMatchObject({ configs: 2, balanceRequests: 1, failedReads: 0, outcomes: { confirmed: 1 } });
    const calls = chain.rpc.calls.slice(mark);
    // One batched read for the balances, one inside the one send (its parties' accounts); never one per wallet.
    expect(calls.filter((m) => m === "getMultipleAccounts")).toHaveLength(2);
    expect(calls.filter((m) => m === "getAccountInfo")).toHaveLength(0);
    expect(every()).toEqual([before[0]! - usdc(4), usdc(4), before[2]!, 0n, 0n]);
    expect(delegated()).toBe(usdc(96));
    const [row] = await dispatches(configA.id);
    expect(row).toMatchObject({ status: "confirmed", crossing: "1" });
    expect(chain.rpc.executed.some((x) => x.signature === row!.tx_hash)).toBe(true);
    expect(await remaining()).toBe(String(usdc(96)));
  });

  test("once per crossing: still below sends nothing; seen at the threshold, the next fall sends again", async () => {
    const before = every();
    expect((await tick()).outcomes).toEqual({});
    expect(every()).toEqual(before);
    chain.transfer(chain.payer, a.publicKey, usdc(6)); // 10
    expect((await tick()).rearmed).toBe(1);
    chain.transfer(a, chain.issuer.publicKey, usdc(8)); // 2
    expect((await tick()).outcomes).toEqual({ confirmed: 1 });
    expect(chain.balance(a.publicKey)).toBe(usdc(6));
    expect((await dispatches(configA.id)).map((r) => r.status)).toEqual(["confirmed", "confirmed"]);
    expect(await remaining()).toBe(String(usdc(92)));
    expect(delegated()).toBe(usdc(92));
  });

  test("over the daily cap: failed, the chain unchanged", async () => {
    const config = await configure(c, usdc(1), usdc(43)); // 8 today + 43 > 50
    const before = every();
    expect((await tick()).outcomes).toEqual({ refused: 1 });
    expect(every()).toEqual(before);
    expect(delegated()).toBe(usdc(92));
    expect(await dispatches(config.id)).toMatchObject([{ status: "failed", reason: "daily_cap_exceeded", tx_hash: null }]);
  });

  test("two instances dispatching one crossing at once: one transfer", async () => {
    const config = await configure(e, usdc(1), usdc(1));
    const [monitored] = await t.db.sql`select id, team_id, environment, token_symbol, target_wallet, min_balance_threshold::text,
      topup_amount::text, armed from agent_topup_configs where id = ${config.id}`;
    const crossing = { network: chain.network, token: chain.token, config: monitored as never, balance: 0n, fromBlock: null };
    const sql = createSql(t.db.url, { max: 4 });
    const pool = new ChainPool({ size: 1, jobTimeoutMs: 20_000, operatorKeys: chain.operatorKeys });
    try {
      const outcomes = await Promise.all([dispatchTopup(deps(), crossing), dispatchTopup(deps({ sql, pool }), crossing)]);
      expect(outcomes.sort()).toEqual(["claimed_elsewhere", "confirmed"]);
    } finally {
      await pool.close();
      await sql.end({ timeout: 5 });
    }
    expect(chain.balance(e.publicKey)).toBe(usdc(1));
  });

  test("a send that never landed stays pending; recovery finds nothing under its reference and fails it, the mandate made whole", async () => {
    chain.transfer(chain.payer, a.publicKey, usdc(4)); // 10
    await tick();
    chain.transfer(a, chain.issuer.publicKey, usdc(9)); // 1
    const before = every();
    chain.rpc.loseNextSend("transaction");
    expect((await tick()).outcomes).toEqual({ pending: 1 });
    expect(every()).toEqual(before);
    expect(await remaining()).toBe(String(usdc(87)));
    t.clock.advance(t.config.agentTopup.recoverAfterMs + 1);
    expect(await recoverDispatches(deps(), t.config.agentTopup.recoverAfterMs)).toEqual({ confirmed: 0, failed: 1, unknown: 0 });
    expect((await dispatches(configA.id)).at(-1)).toMatchObject({ status: "failed", reason: "not_sent" });
    expect(await remaining()).toBe(String(usdc(91)));
    expect(every()).toEqual(before);
  });

  test("a send not landed yet whose blockhash is still valid stays pending; sent late with its recorded blockhash, recovery confirms it", async () => {
    t.clock.advance(86_400_000); // a new UTC day: the cap has room again
    const f = wallet();
    const config = await configure(f, usdc(1), usdc(2));
    const [monitored] = await t.db.sql`select id, team_id, environment, token_symbol, target_wallet, min_balance_threshold::text,
      topup_amount::text, armed from agent_topup_configs where id = ${config.id}`;
    const crossing = { network: chain.network, token: chain.token, config: monitored as never, balance: 0n, fromBlock: null };
    const pool = t.deps.subscriptions.pool;
    let held: TopupSend | undefined;
    // The send's answer is lost before the transaction reached the node: a node may still get it while its blockhash lives.
    const losing = {
      topup: async (operation: TopupOperation) => {
        if (operation.op !== "send") return pool.topup(operation as never);
        held = operation.request;
        return { ok: false, reason: "timeout", detail: "the answer was lost" };
      },
    } as unknown as ChainPool;
    const before = every();
    const remainingBefore = BigInt(await remaining());
    expect(await dispatchTopup(deps({ pool: losing }), crossing)).toBe("pending");
    const [row] = await t.db.sql`select last_valid_height::text from agent_topup_dispatches where config_id = ${config.id}`;
    expect(Number(row!.last_valid_height)).toBe(held!.signed!.lastValidBlockHeight!);
    t.clock.advance(t.config.agentTopup.recoverAfterMs + 1);
    expect(await recoverDispatches(deps(), t.config.agentTopup.recoverAfterMs)).toEqual({ confirmed: 0, failed: 0, unknown: 1 });
    expect(await remaining()).toBe(String(remainingBefore - usdc(2))); // not made whole while it may land
    expect(every()).toEqual(before);

    expect(await pool.topup({ op: "send", request: held! })).toMatchObject({ ok: true }); // it lands after all
    expect(await recoverDispatches(deps(), t.config.agentTopup.recoverAfterMs)).toEqual({ confirmed: 1, failed: 0, unknown: 0 });
    expect(await dispatches(config.id)).toMatchObject([{ status: "confirmed" }]);
    expect(chain.balance(f.publicKey)).toBe(usdc(2));
    expect(await remaining()).toBe(String(remainingBefore - usdc(2)));
  });

  test("balances of many wallets: one getMultipleAccounts per 100", async () => {
    const wallets = Array.from({ length: 250 }, () => Keypair.generate().publicKey.toBase58());
    const mark = chain.rpc.calls.length;
    const read = await t.deps.subscriptions.pool.topup({
      op: "balances",
      request: { network: chain.network, token: chain.token, wallets, chunkSize: 500 },
    });
    expect(read).toMatchObject({ ok: true, requests: 3 });
    expect(chain.rpc.calls.slice(mark).filter((m) => m === "getMultipleAccounts")).toHaveLength(3);
    if (read.ok) expect(new Set(read.balances)).toEqual(new Set([0n]));
  });
});
