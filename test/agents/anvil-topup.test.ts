/**
 * Auto-topup end to end on anvil: the funding wallet approves the operator, the dashboard registers that approval
 * as the funding mandate, POST /agent/dispatch configures targets, and the monitor's tick reads every balance in
 * one Multicall3 eth_call and sends exactly `topupAmount` to a target below its threshold, once per crossing. The
 * chain and the database agree at every step; each refusal (daily cap, mandate) records a failed dispatch with the
 * chain unchanged; two instances ticking at once send once; a lost send is settled from the chain, never resent.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { decodeEventLog, erc20Abi } from "viem";
import { ChainPool } from "../../src/chains/pool";
import type { TopupOperation } from "../../src/chains/topup-types";
import { createSql } from "../../src/db/client";
import { enqueueJob } from "../../src/jobs/enqueue";
import { fundingConsentMessage } from "../../src/modules/agents/consent";
import { dispatchTopup } from "../../src/modules/agents/dispatch";
import { tickNetwork, type MonitorDeps } from "../../src/modules/agents/monitor";
import { recoverDispatches } from "../../src/modules/agents/recover";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { OPERATOR } from "../../src/modules/teams/roles";
import { createEndpoint } from "../../src/modules/webhooks/endpoints/manage";
import { schedules } from "../../src/tasks";
import { createTestApp } from "../helpers/app";
import { anvilTopupBed } from "../helpers/chains/anvil-topups";
import { fundingBody } from "../helpers/agent-funding";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs } from "../helpers/jobs";

const USDC = 1_000_000n;
const bed = await anvilTopupBed();
afterAll(() => bed.stop());
const t = await createTestApp({ CHAIN_REGISTRY_FILE: bed.registryFile, SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey });
const team = await createTeamFixture(t);
const tenant = { teamId: team.teamId, environment: "development" as const };
await createEndpoint({ sql: t.db.sql, clock: t.clock, config: t.config }, tenant, OPERATOR, {
  url: "https://example.com/hook",
  eventTypes: ["agent.topup.dispatched", "agent.topup.failed"],
});

const deps = (over: Partial<MonitorDeps> = {}): MonitorDeps => ({
  ...t.deps.subscriptions,
  now: () => new Date(t.clock.now()),
  batchSize: 500,
  ...over,
});
const tick = (over: Partial<MonitorDeps> = {}) => tickNetwork(deps(over), "anvil");
const [a, b, c, d, e] = bed.targets as [
  (typeof bed.targets)[0],
  (typeof bed.targets)[0],
  (typeof bed.targets)[0],
  (typeof bed.targets)[0],
  (typeof bed.targets)[0],
];

const configure = async (target: string, threshold: bigint, amount: bigint) => {
  const res = await t.call("POST", "/agent/dispatch", {
    token: team.keys.secret,
    body: { minBalanceThreshold: String(threshold), topupAmount: String(amount), targetWallet: target, chainId: 31337 },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; armed: boolean };
};
const dispatches = async (configId: string) => [
  ...(await t.db.sql<{ status: string; reason: string | null; tx_hash: string | null; amount: string; crossing: string }[]>`
    select status, reason, tx_hash, amount::text, crossing::text from agent_topup_dispatches where config_id = ${configId} order by crossing`),
];
// Read from the table: the dashboard session of the fixture expires when a test moves the clock a day on.
const mandate = async () =>
  (await t.db.sql`select remaining_amount::text as "remainingAmount" from agent_funding_mandates where team_id = ${team.teamId}`)[0]!;
const armed = async (configId: string) => (await t.db.sql`select armed from agent_topup_configs where id = ${configId}`)[0]!.armed as boolean;
const events = async (type: string) =>
  (await t.db.sql`select body from webhook_messages where team_id = ${team.teamId} and event_type = ${type} order by created_at, id`).map(
    (r) => JSON.parse(r.body as string).data.dispatch,
  );

await bed.mint(bed.funder.address, 1_000n * USDC);
await bed.approve(100n * USDC);
await bed.mint(b.address, 5n * USDC);
let configA: { id: string };
let configB: { id: string };

const signed = (o: Partial<Parameters<typeof fundingBody>[0]> = {}) =>
  fundingBody({
    chains: t.config.chains,
    tenant,
    network: "anvil",
    wallet: bed.funder,
    dailyCap: 50n * USDC,
    issuedAt: new Date(t.clock.now()),
    ...o,
  });
const registered = async () => (await t.db.sql`select count(*)::int as n from agent_funding_mandates`)[0]!.n;

describe("funding mandate", () => {
  test("the funding wallet's consent must name this team, environment, network, token and cap, signed by it, recently", async () => {
    const other = await createTeamFixture(t, "Another");
    const otherTenant = { teamId: other.teamId, environment: "development" as const };
    const forAlpha = await signed();
    const cases: [unknown, string][] = [
      [await signed({ signer: e }), "body.consent.signature"], // signed by another wallet
      [{ ...forAlpha, dailyCap: String(500n * USDC) }, "body.consent.signature"], // another cap than consented to
      [{ ...forAlpha, total: String(10n ** 16n) }, "body.consent.signature"], // another total than consented to
      [await signed({ issuedAt: new Date(t.clock.now() - 11 * 60_000) }), "body.consent.issuedAt"],
      [{ ...forAlpha, consent: { ...forAlpha.consent, nonce: "short" } }, "body.consent.nonce"],
    ];
    for (const [body, field] of cases) {
      const res = await t.call("PUT", "/dashboard/agent-funding/anvil", { token: team.dashboardAdmin, body });
      expect({ field, status: res.status }).toEqual({ field, status: 400 });
      expect(Object.keys(res.body.details)).toEqual([field]);
    }
    // A consent given to this team, replayed by another: the text names the team, so it does not verify there.
    const replayed = await t.call("PUT", "/dashboard/agent-funding/anvil", { token: other.dashboardAdmin, body: forAlpha });
    expect(replayed.status).toBe(400);
    expect(replayed.body.details["body.consent.signature"]).toContain(`Team: ${other.teamId}`);
    const own = await t.call("PUT", "/dashboard/agent-funding/anvil", {
      token: other.dashboardAdmin,
      body: await signed({ tenant: otherTenant, signer: e }),
    });
    expect(own.status).toBe(400); // its own team, but not the funding wallet's signature
    expect(await registered()).toBe(0);
  });

  test("a wallet that approved nothing is refused (400) and nothing is recorded", async () => {
    const res = await t.call("PUT", "/dashboard/agent-funding/anvil", {
      token: team.dashboardAdmin,
      body: await signed({ wallet: e }),
    });
    expect(res.status).toBe(400);
    expect(res.body.details["body.fundingWallet"]).toContain(bed.operator.address);
    expect((await t.call("GET", "/dashboard/agent-funding", { token: team.dashboardAdmin })).body.data).toEqual([]);
  });

  test("the consent names a lifetime total, with whole tokens beside the units; the mandate authorizes no more than it, whatever the allowance", async () => {
    const body = await signed({ total: 30n * USDC });
    const text = fundingConsentMessage(
      { tenant, network: bed.network, token: bed.token, wallet: bed.funder.address, dailyCap: 50n * USDC, total: 30n * USDC },
      body.consent.issuedAt,
      body.consent.nonce,
    );
    expect(text).toContain("\nTotal: 30000000 (30 USDC at 6 decimals)\n");
    expect(text).toContain("\nDaily cap: 50000000 (50 USDC at 6 decimals)\n");
    const allowance = await bed.allowance();
    expect(allowance).toBe(100n * USDC);
    const res = await t.call("PUT", "/dashboard/agent-funding/anvil", { token: team.dashboardAdmin, body });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ authorizedAmount: String(30n * USDC), remainingAmount: String(30n * USDC), signedTotal: body.total });
    expect(await bed.allowance()).toBe(allowance); // a read, nothing sent
  });

  test("registering reads the on-chain approval: authorized and remaining are what the chain allows", async () => {
    const res = await t.call("PUT", "/dashboard/agent-funding/anvil", { token: team.dashboardAdmin, body: await signed() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      network: "anvil",
      chainId: 31337,
      token: "USDC",
      fundingWallet: bed.funder.address,
      operator: bed.operator.address,
      authorizedAmount: String(100n * USDC),
      remainingAmount: String(100n * USDC),
      dailyCap: String(50n * USDC),
      status: "ACTIVE",
    });
  });
});

describe("the monitor on anvil", () => {
  test("below the threshold: one tick reads every balance in one multicall and sends exactly topupAmount; chain and rows agree", async () => {
    configA = await configure(a.address, 10n * USDC, 4n * USDC);
    configB = await configure(b.address, 1n * USDC, 2n * USDC);
    const [funderBefore, aBefore, bBefore] = [
      await bed.balanceOf(bed.funder.address),
      await bed.balanceOf(a.address),
      await bed.balanceOf(b.address),
    ];
    const mark = bed.rpc.calls.length;
    const report = await tick();
    expect(report).toMatchObject({ configs: 2, balanceRequests: 1, failedReads: 0, outcomes: { confirmed: 1 } });
    expect(bed.multicalls(mark)).toBe(1);
    // No balance read per wallet: the only eth_call to the token is the one send's simulation.
    expect(bed.rpc.calls.slice(mark).filter((call) => call.to === bed.usdc.toLowerCase()).length).toBe(1);

    expect(await bed.balanceOf(a.address)).toBe(aBefore + 4n * USDC);
    expect(await bed.balanceOf(bed.funder.address)).toBe(funderBefore - 4n * USDC);
    expect(await bed.balanceOf(b.address)).toBe(bBefore);
    const [row] = await dispatches(configA.id);
    expect(row).toMatchObject({ status: "confirmed", reason: null, amount: String(4n * USDC), crossing: "1" });
    const receipt = await bed.anvil.client.getTransactionReceipt({ hash: row!.tx_hash as `0x${string}` });
    expect(receipt.from.toLowerCase()).toBe(bed.operator.address.toLowerCase());
    const transfer = decodeEventLog({ abi: erc20Abi, eventName: "Transfer", data: receipt.logs[0]!.data, topics: receipt.logs[0]!.topics });
    expect(transfer.args).toEqual({ from: bed.funder.address, to: a.address, value: 4n * USDC });
    expect((await mandate()).remainingAmount).toBe(String(96n * USDC));
    expect(await bed.allowance()).toBe(96n * USDC);
    expect(await dispatches(configB.id)).toEqual([]);
    const [sent] = await events("agent.topup.dispatched");
    expect(sent).toMatchObject({ configId: configA.id, status: "confirmed", txHash: row!.tx_hash, amount: String(4n * USDC), chainId: 31337 });
    const listed = await t.call("GET", `/dashboard/agent-topups?configId=${configA.id}`, { token: team.dashboardAdmin });
    expect(listed.body).toMatchObject({ count: 1, nextCursor: null });
    expect(listed.body.data[0]).toMatchObject({ status: "confirmed", txHash: row!.tx_hash, balanceSeen: "0", fundingWallet: bed.funder.address });
  });

  test("still below at the next tick: no second top-up until a tick saw the balance at or above the threshold", async () => {
    const before = await bed.balances();
    expect((await tick()).outcomes).toEqual({});
    expect(await bed.balances()).toEqual(before);
    expect(await dispatches(configA.id)).toHaveLength(1);
    expect(await armed(configA.id)).toBe(false);

    await bed.mint(a.address, 6n * USDC); // 10: at the threshold
    expect((await tick()).rearmed).toBe(1);
    expect(await armed(configA.id)).toBe(true);
    expect(await dispatches(configA.id)).toHaveLength(1);

    await bed.spend(a, 7n * USDC); // 3: a new crossing
    const aBefore = await bed.balanceOf(a.address);
    expect((await tick()).outcomes).toEqual({ confirmed: 1 });
    expect(await bed.balanceOf(a.address)).toBe(aBefore + 4n * USDC);
    expect((await dispatches(configA.id)).map((r) => [r.crossing, r.status])).toEqual([
      ["1", "confirmed"],
      ["2", "confirmed"],
    ]);
    expect((await mandate()).remainingAmount).toBe(String(92n * USDC));
  });

  test("over the daily cap: a failed dispatch and agent.topup.failed, the chain unchanged; from the next UTC midnight it goes", async () => {
    const config = await configure(c.address, 1n * USDC, 45n * USDC); // 8 sent today + 45 > 50
    const before = await bed.balances();
    expect((await tick()).outcomes).toEqual({ refused: 1 });
    expect(await bed.balances()).toEqual(before);
    expect(await dispatches(config.id)).toMatchObject([{ status: "failed", reason: "daily_cap_exceeded", tx_hash: null }]);
    expect((await mandate()).remainingAmount).toBe(String(92n * USDC));
    expect((await events("agent.topup.failed")).at(-1)).toMatchObject({ configId: config.id, reason: "daily_cap_exceeded", status: "failed" });
    expect((await tick()).outcomes).toEqual({}); // refused once per crossing, not every minute

    t.clock.advance(86_400_000); // the next UTC day: the refused crossing is tried again by itself
    expect((await tick()).outcomes).toEqual({ confirmed: 1 });
    expect((await dispatches(config.id)).map((r) => [r.crossing, r.status])).toEqual([
      ["1", "failed"],
      ["2", "confirmed"],
    ]);
    expect(await bed.balanceOf(c.address)).toBe(45n * USDC);
    expect((await mandate()).remainingAmount).toBe(String(47n * USDC));
  });

  test("beyond what is left of the mandate: a failed dispatch, the chain unchanged", async () => {
    const config = await configure(d.address, 1n * USDC, 48n * USDC);
    const before = await bed.balances();
    expect((await tick()).outcomes).toEqual({ refused: 1 });
    expect(await bed.balances()).toEqual(before);
    expect(await dispatches(config.id)).toMatchObject([{ status: "failed", reason: "mandate_exhausted" }]);
    expect((await mandate()).remainingAmount).toBe(String(47n * USDC));
    expect(await bed.allowance()).toBe(47n * USDC);
  });

  test("two instances ticking at once send one top-up", async () => {
    const config = await configure(e.address, 1n * USDC, 1n * USDC);
    const sql = createSql(t.db.url, { max: 4 });
    const pool = new ChainPool({ size: 1, jobTimeoutMs: 20_000, operatorKeys: t.config.operatorKeys });
    try {
      const [one, two] = await Promise.all([tick(), tick({ sql, pool })]);
      expect((one.outcomes.confirmed ?? 0) + (two.outcomes.confirmed ?? 0)).toBe(1);
      // The race itself, both having read the configuration armed and its balance below: one claim wins.
      await bed.spend(e, 1n * USDC);
      await bed.mint(e.address, 1n * USDC);
      await tick(); // seen at its threshold: armed again
      await bed.spend(e, 1n * USDC);
      const [monitored] = await t.db.sql`select id, team_id, environment, token_symbol, target_wallet, min_balance_threshold::text,
        topup_amount::text, armed from agent_topup_configs where id = ${config.id}`;
      const crossing = { network: bed.network, token: bed.token, config: monitored as never, balance: 0n, fromBlock: null };
      const outcomes = await Promise.all([dispatchTopup(deps(), crossing), dispatchTopup(deps({ sql, pool }), crossing)]);
      expect(outcomes.sort()).toEqual(["claimed_elsewhere", "confirmed"]);
    } finally {
      await pool.close();
      await sql.end({ timeout: 5 });
    }
    expect(await bed.balanceOf(e.address)).toBe(1n * USDC);
    expect(await dispatches(config.id)).toMatchObject([
      { status: "confirmed", crossing: "1" },
      { status: "confirmed", crossing: "2" },
    ]);
  });
});

describe("recovery of a send whose outcome was lost", () => {
  /**
   * The service's pool, except that a send's answer is lost. "sent": after the transaction went out; "unseen": it
   * never reached the node the service asked (a load-balanced endpoint's other node may still have it), and the
   * signed transaction is kept here; "dropped": it never went out and its nonce was given back (what a worker that
   * is replaced does: the new one counts from the node).
   */
  const held: `0x${string}`[] = [];
  const losing = (how: "sent" | "unseen" | "dropped") => {
    const pool = t.deps.subscriptions.pool;
    return {
      topup: async (operation: TopupOperation) => {
        if (operation.op !== "send") return pool.topup(operation as never);
        if (how === "sent") await pool.topup(operation);
        if (how === "unseen") held.push(operation.request.signed!.envelope as `0x${string}`);
        if (how === "dropped") await pool.topup({ op: "release", request: operation.request });
        return { ok: false, reason: "timeout", detail: "the answer was lost" };
      },
    } as unknown as ChainPool;
  };
  const recorded = async (configId: string) =>
    (
      await t.db.sql<{ tx_hash: string | null; operator_nonce: string | null }[]>`
        select tx_hash, operator_nonce::text from agent_topup_dispatches where config_id = ${configId} order by crossing desc limit 1`
    )[0]!;
  const recover = () => recoverDispatches(deps(), t.config.agentTopup.recoverAfterMs);
  const operatorNonce = () => bed.anvil.client.getTransactionCount({ address: bed.operator.address });

  test("sent but unanswered: pending until recovery finds its transaction by the reference; never sent twice", async () => {
    t.clock.advance(86_400_000); // a new UTC day: the cap has room again
    await bed.mint(a.address, 10n * USDC);
    await tick(); // at or above: armed again
    await bed.spend(a, (await bed.balanceOf(a.address)) - 1n);
    const aBefore = await bed.balanceOf(a.address);
    const nonce = await operatorNonce();
    expect((await tick({ pool: losing("sent") })).outcomes).toEqual({ pending: 1 });
    expect(await bed.balanceOf(a.address)).toBe(aBefore + 4n * USDC);
    // The hash and nonce were recorded before the broadcast.
    const before = await recorded(configA.id);
    expect(before.operator_nonce).toBe(String(nonce));
    expect((await dispatches(configA.id)).at(-1)).toMatchObject({ status: "pending", tx_hash: before.tx_hash });
    expect((await mandate()).remainingAmount).toBe(String(41n * USDC));

    expect(await recover()).toEqual({ confirmed: 0, failed: 0, unknown: 0 }); // not stale yet
    t.clock.advance(t.config.agentTopup.recoverAfterMs + 1);
    expect(await recover()).toEqual({ confirmed: 1, failed: 0, unknown: 0 });
    const last = (await dispatches(configA.id)).at(-1)!;
    expect(last).toMatchObject({ status: "confirmed", tx_hash: before.tx_hash });
    const receipt = await bed.anvil.client.getTransactionReceipt({ hash: last.tx_hash as `0x${string}` });
    expect(receipt.status).toBe("success");
    expect(await bed.balanceOf(a.address)).toBe(aBefore + 4n * USDC); // once
    expect((await mandate()).remainingAmount).toBe(String(41n * USDC));
  });

  test("signed and recorded but unseen by the node asked: pending while the operator's mined nonce has not passed it, confirmed when it lands late", async () => {
    await bed.spend(b, await bed.balanceOf(b.address)); // 0, below its threshold of 1
    const before = await bed.balances();
    expect((await tick({ pool: losing("unseen") })).outcomes).toEqual({ pending: 1 });
    expect((await mandate()).remainingAmount).toBe(String(39n * USDC));
    t.clock.advance(t.config.agentTopup.recoverAfterMs + 1);
    // Nothing on chain yet and no pending transaction the node knows of: still not proof that it never went out.
    expect(await recover()).toEqual({ confirmed: 0, failed: 0, unknown: 1 });
    expect(await dispatches(configB.id)).toMatchObject([{ status: "pending" }]);
    expect((await mandate()).remainingAmount).toBe(String(39n * USDC)); // not made whole
    expect(await bed.balances()).toEqual(before);

    const hash = await bed.anvil.client.sendRawTransaction({ serializedTransaction: held.pop()! }); // it lands after all
    expect((await bed.anvil.client.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await recover()).toEqual({ confirmed: 1, failed: 0, unknown: 0 });
    expect(await dispatches(configB.id)).toMatchObject([{ status: "confirmed", tx_hash: hash }]);
    expect(await bed.balanceOf(b.address)).toBe(2n * USDC);
    expect((await mandate()).remainingAmount).toBe(String(39n * USDC)); // DB and chain agree
  });

  test("never sent: once the operator's mined nonce passed the recorded one without it, recovery fails it (not_sent) and gives the mandate its amount back", async () => {
    await tick(); // b at 2: armed again
    await bed.spend(b, await bed.balanceOf(b.address));
    const nonce = await operatorNonce();
    expect((await tick({ pool: losing("dropped") })).outcomes).toEqual({ pending: 1 });
    expect((await recorded(configB.id)).operator_nonce).toBe(String(nonce));
    expect((await mandate()).remainingAmount).toBe(String(37n * USDC));
    t.clock.advance(t.config.agentTopup.recoverAfterMs + 1);
    expect(await recover()).toEqual({ confirmed: 0, failed: 0, unknown: 1 }); // its nonce is not used yet
    const bBefore = await bed.balanceOf(b.address);

    // Another top-up takes the nonce: now the recorded transaction can never land.
    await bed.mint(a.address, 10n * USDC);
    await tick();
    await bed.spend(a, 8n * USDC);
    expect((await tick()).outcomes).toEqual({ confirmed: 1 });
    expect(await operatorNonce()).toBe(nonce + 1);
    expect((await mandate()).remainingAmount).toBe(String(33n * USDC));
    expect(await recover()).toEqual({ confirmed: 0, failed: 1, unknown: 0 });
    expect((await dispatches(configB.id)).at(-1)).toMatchObject({ status: "failed", reason: "not_sent", tx_hash: null });
    expect((await mandate()).remainingAmount).toBe(String(35n * USDC));
    expect(await bed.balanceOf(b.address)).toBe(bBefore);
  });
});

describe("as the job queue runs it", () => {
  test("each minute the monitor queues one tick per network, and the tick tops up", async () => {
    expect(schedules(t.config)).toContainEqual({ task: "agents.topup_monitor", cron: "* * * * *" });
    expect(schedules(t.config)).toContainEqual({ task: "agents.topup_recover", cron: "* * * * *" });
    await bed.mint(b.address, 5n * USDC);
    await tick(); // armed again
    await bed.spend(b, 5n * USDC);
    await enqueueJob(t.db.sql, "agents.topup_monitor", {});
    const ran = await drainJobs(t, { "webhook.attempt": async () => {} });
    expect(ran.failed).toEqual([]);
    expect(ran.completed.filter((j) => j.task === "agents.topup_tick").map((j) => j.payload)).toEqual([{ network: "anvil" }]);
    expect(await bed.balanceOf(b.address)).toBe(2n * USDC);
  });
});

describe("the funding mandate on the dashboard", () => {
  test("another team sees none of it and cannot revoke it; revoked, the next crossing fails (mandate_revoked) with the chain unchanged", async () => {
    const other = await createTeamFixture(t, "Other");
    expect((await t.call("GET", "/dashboard/agent-funding", { token: other.dashboardAdmin })).body).toEqual({ data: [], count: 0, nextCursor: null });
    expect((await t.call("DELETE", "/dashboard/agent-funding/anvil", { token: other.dashboardAdmin })).status).toBe(404);
    expect((await t.call("GET", "/dashboard/agent-topups", { token: other.dashboardAdmin })).body.count).toBe(0);
    // The fixture's session expired as the clock moved on: a new one for the same team.
    const { session } = await createDashboardSession(t.db.sql, { ...tenant, userEmail: "ops@test.dev", roles: ["billing:write"] }, t.clock.now());
    const revoked = await t.call("DELETE", "/dashboard/agent-funding/anvil", { token: session });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ status: "REVOKED", network: "anvil" });
    await bed.mint(b.address, 5n * USDC);
    await tick();
    await bed.spend(b, await bed.balanceOf(b.address));
    const before = await bed.balances();
    expect((await tick()).outcomes).toEqual({ refused: 1 });
    expect(await bed.balances()).toEqual(before);
    expect((await dispatches(configB.id)).at(-1)).toMatchObject({ status: "failed", reason: "mandate_revoked" });
  });
});

describe("batching", () => {
  test("the read is chunked by AGENT_TOPUP_BATCH_SIZE: one Multicall3 eth_call per chunk, never one call per wallet", async () => {
    const mark = bed.rpc.calls.length;
    const report = await tick({ batchSize: 2 });
    expect(report.configs).toBe(5);
    expect(report.balanceRequests).toBe(3);
    const calls = bed.rpc.calls.slice(mark);
    expect(bed.multicalls(mark)).toBe(3);
    expect(calls.filter((c) => c.method === "eth_call" && c.to === bed.usdc.toLowerCase())).toEqual([]);
  });
});

describe("the chain's own refusal", () => {
  test("the funder lowered its approval below the mandate's remaining amount: the send is refused before it goes out, failed, the mandate made whole, the chain unchanged", async () => {
    const { session } = await createDashboardSession(t.db.sql, { ...tenant, userEmail: "ops2@test.dev", roles: ["billing:write"] }, t.clock.now());
    await bed.approve(50n * USDC);
    const registered = await t.call("PUT", "/dashboard/agent-funding/anvil", { token: session, body: await signed() });
    expect(registered.body.data).toMatchObject({ status: "ACTIVE", remainingAmount: String(50n * USDC) });
    await bed.approve(1n * USDC); // the funder's own change of mind, on chain
    await bed.mint(b.address, 5n * USDC);
    await tick();
    await bed.spend(b, 5n * USDC);
    const before = await bed.balances();
    const nonce = await bed.anvil.client.getTransactionCount({ address: bed.operator.address });
    expect((await tick()).outcomes).toEqual({ failed: 1 });
    expect(await bed.balances()).toEqual(before);
    expect(await bed.anvil.client.getTransactionCount({ address: bed.operator.address })).toBe(nonce); // nothing sent
    expect((await dispatches(configB.id)).at(-1)).toMatchObject({ status: "failed", reason: "insufficient_allowance", tx_hash: null });
    expect((await mandate()).remainingAmount).toBe(String(50n * USDC));
    const failed = (await events("agent.topup.failed")).filter((d: { reason: string }) => d.reason === "insufficient_allowance");
    expect(failed).toMatchObject([{ configId: configB.id, status: "failed", txHash: null }]);
  });
  test("a refusal other than the daily cap is tried again after a backoff that doubles, chain unchanged each time, until the cause is fixed", async () => {
    const retry = async () =>
      (await t.db.sql`select rearm_at, refusals from agent_topup_configs where id = ${configB.id}`)[0] as { rearm_at: Date; refusals: number };
    const now = () => t.clock.now();
    expect(await retry()).toMatchObject({ refusals: 1 });
    expect((await retry()).rearm_at.getTime()).toBe(now() + 5 * 60_000);
    const before = await bed.balances();
    const nonce = await bed.anvil.client.getTransactionCount({ address: bed.operator.address });
    expect((await tick()).outcomes).toEqual({}); // not before its time
    t.clock.advance(5 * 60_000);
    // Still short of allowance: refused again, in simulation. (Another configuration's earlier refusal, retried
    // after its own backoff, is refused again by the mandate: nothing sent either.)
    expect((await tick()).outcomes).toEqual({ failed: 1, refused: 1 });
    expect(await bed.balances()).toEqual(before);
    expect(await bed.anvil.client.getTransactionCount({ address: bed.operator.address })).toBe(nonce);
    expect(await retry()).toMatchObject({ refusals: 2 });
    expect((await retry()).rearm_at.getTime()).toBe(now() + 10 * 60_000);
    t.clock.advance(5 * 60_000);
    expect((await tick()).outcomes).toEqual({});

    await bed.approve(50n * USDC); // the funder fixes it on chain
    t.clock.advance(5 * 60_000);
    expect((await tick()).outcomes).toMatchObject({ confirmed: 1 });
    expect(await bed.balanceOf(b.address)).toBe(2n * USDC);
    expect(await retry()).toMatchObject({ refusals: 0 });
    expect((await dispatches(configB.id)).slice(-3).map((r) => [r.status, r.reason])).toEqual([
      ["failed", "insufficient_allowance"],
      ["failed", "insufficient_allowance"],
      ["confirmed", null],
    ]);
  });
});

describe("the operator key used from elsewhere", () => {
  test("a transaction sent with the key by another process between two top-ups: the next one is signed with the node's count and lands", async () => {
    await bed.mint(b.address, 5n * USDC);
    await tick(); // armed again
    await bed.spend(b, await bed.balanceOf(b.address));
    const before = await bed.anvil.client.getTransactionCount({ address: bed.operator.address });
    const elsewhere = await bed.anvil.client.sendTransaction({ account: bed.operator, to: bed.operator.address, value: 0n, chain: null });
    await bed.anvil.client.waitForTransactionReceipt({ hash: elsewhere });
    expect((await tick()).outcomes).toEqual({ confirmed: 1 });
    expect(await bed.balanceOf(b.address)).toBe(2n * USDC);
    expect(await bed.anvil.client.getTransactionCount({ address: bed.operator.address })).toBe(before + 2);
  });
});
