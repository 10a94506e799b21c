/**
 * POST /agent/dispatch and the dashboard's configuration routes: every field checked before anything is written,
 * one configuration per team, environment, wallet and network (a second call updates it), `chainId` on EVM only
 * (never null), and nothing of one team seen or changed by another. Every response is held to the served OpenAPI
 * document (test/helpers/contract.ts, through t.call).
 */
import { describe, expect, test } from "bun:test";
import { mnemonicToAccount } from "viem/accounts";
import { fundingBody } from "../helpers/agent-funding";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";

const t = await createTestApp();
const alpha = await createTeamFixture(t, "Alpha");
const beta = await createTeamFixture(t, "Beta");
const SK = alpha.keys.secret;

const EVM_WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const SOLANA_WALLET = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const SEPOLIA = 11155111;
const good = { minBalanceThreshold: "5000000", topupAmount: "20000000", targetWallet: EVM_WALLET, chainId: SEPOLIA };

const configure = (body: unknown, token = SK) => t.call("POST", "/agent/dispatch", { token, body });
const stored = async () =>
  (await t.db.sql`select id, min_balance_threshold::text, topup_amount::text, enabled from agent_topup_configs order by id`).map((r) => ({ ...r }));
const list = (session = alpha.dashboardAdmin, query = "") => t.call("GET", `/dashboard/agent-dispatch${query}`, { token: session });

describe("POST /agent/dispatch", () => {
  test("201 with the configuration: chainId and network of the EVM network, the registry token, enabled and armed", async () => {
    const res = await configure(good);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^atc_/),
      minBalanceThreshold: "5000000",
      topupAmount: "20000000",
      targetWallet: EVM_WALLET,
      chainId: SEPOLIA,
      network: "sepolia",
      token: "USDC",
      enabled: true,
      armed: true,
      createdAt: new Date(t.clock.now()).toISOString(),
      updatedAt: new Date(t.clock.now()).toISOString(),
    });
  });

  test("a Solana target is named by network; the answer leaves chainId out, never null", async () => {
    const res = await configure({ minBalanceThreshold: "1000", topupAmount: "5000", targetWallet: SOLANA_WALLET, network: "solana-devnet" });
    expect(res.status).toBe(201);
    expect(res.body.data.network).toBe("solana-devnet");
    expect("chainId" in res.body.data).toBe(false);
    const listed = (await list()).body.data.find((c: { network: string }) => c.network === "solana-devnet");
    expect("chainId" in listed).toBe(false);
  });

  test("a second call for the same wallet and network updates it (whatever the address's case) and enables it again", async () => {
    const first = (await configure({ ...good, targetWallet: "0x90F79bf6EB2c4f870365E785982E1f101E93b906" })).body.data;
    const disabled = await t.call("POST", `/dashboard/agent-dispatch/${first.id}/disable`, { token: alpha.dashboardAdmin });
    expect(disabled.body.data.enabled).toBe(false);
    t.clock.advance(1000);
    const second = await configure({
      ...good,
      targetWallet: "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
      topupAmount: "7",
      minBalanceThreshold: "3",
    });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({
      id: first.id,
      topupAmount: "7",
      minBalanceThreshold: "3",
      enabled: true,
      armed: true,
      createdAt: first.createdAt,
    });
    expect(second.body.data.updatedAt).not.toBe(first.updatedAt);
    expect((await stored()).filter((r) => r.id === first.id)).toHaveLength(1);
  });

  test("an identical second call (an integrator ensuring its configuration) answers 200 and leaves a disarmed configuration disarmed; changed terms re-arm it", async () => {
    const wallet = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
    const created = await configure({ ...good, targetWallet: wallet });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    // What a dispatch leaves: disarmed until the balance is seen back at or above the threshold.
    await t.db.sql`update agent_topup_configs set armed = false where id = ${id}`;
    for (let call = 0; call < 2; call++) {
      const again = await configure({ ...good, targetWallet: wallet });
      expect([again.status, again.body.data.id, again.body.data.armed]).toEqual([200, id, false]);
    }
    const changed = await configure({ ...good, targetWallet: wallet, topupAmount: "30000000" });
    expect([changed.status, changed.body.data.armed]).toEqual([200, true]);
    await t.db.sql`update agent_topup_configs set armed = false where id = ${id}`;
    await t.call("POST", `/dashboard/agent-dispatch/${id}/disable`, { token: alpha.dashboardAdmin });
    const enabled = await configure({ ...good, targetWallet: wallet, topupAmount: "30000000" });
    expect([enabled.status, enabled.body.data.enabled, enabled.body.data.armed]).toEqual([200, true, true]);
  });

  test("the same wallet on another network is another configuration; chainId and network may be given together when they agree", async () => {
    const res = await configure({ ...good, chainId: 84532, network: "base-sepolia" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ network: "base-sepolia", chainId: 84532 });
  });

  test("chainId written as a string of digits is read as that integer, as every integer field of a JSON body is; any other spelling is a 400", async () => {
    const wallet = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
    const res = await configure({ ...good, targetWallet: wallet, chainId: String(SEPOLIA) });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ chainId: SEPOLIA, network: "sepolia" });
    for (const chainId of ["0xaa36a7", "1.1155111e7", " 11155111", "+11155111"]) {
      const refused = await configure({ ...good, targetWallet: wallet, chainId });
      expect({ chainId, status: refused.status }).toEqual({ chainId, status: 400 });
      expect(Object.keys(refused.body.details)).toContain("body.chainId");
    }
  });

  test("bad input is a 400 naming each field, and nothing is written", async () => {
    const before = await stored();
    const cases: [unknown, string][] = [
      [{ ...good, minBalanceThreshold: "0" }, "body.minBalanceThreshold"],
      [{ ...good, topupAmount: "-5" }, "body.topupAmount"],
      [{ ...good, topupAmount: "1.5" }, "body.topupAmount"],
      [{ ...good, topupAmount: 20 }, "body.topupAmount"],
      [{ ...good, topupAmount: "1".repeat(39) }, "body.topupAmount"],
      [{ ...good, chainId: "0x1" }, "body.chainId"],
      [{ ...good, chainId: 999_999 }, "body.chainId"],
      [{ ...good, chainId: 1 }, "body.chainId"], // a main network with a development key
      [{ ...good, chainId: undefined }, "body.chainId"],
      [{ ...good, chainId: 84532, network: "sepolia" }, "body.network"],
      [
        { ...good, chainId: undefined, network: "stellar-testnet", targetWallet: "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN" },
        "body.network",
      ],
      [{ ...good, chainId: undefined, network: "nowhere" }, "body.network"],
      [{ ...good, token: "ETH" }, "body.token"],
      [{ ...good, token: "DAI" }, "body.token"],
      [{ ...good, targetWallet: "0x1234" }, "body.targetWallet"],
      [{ ...good, targetWallet: "0x70997970c51812dc3a010c7d01b50e0d17dc79C8" }, "body.targetWallet"], // a broken checksum
      [
        { ...good, chainId: undefined, network: "solana-devnet", targetWallet: SOLANA_WALLET, topupAmount: "18446744073709551616" },
        "body.topupAmount",
      ],
      [{ ...good, chainId: undefined, network: "solana-devnet" }, "body.targetWallet"],
    ];
    for (const [body, field] of cases) {
      const res = await configure(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(Object.keys(res.body.details)).toContain(field);
    }
    expect(await stored()).toEqual(before);
  });
});

describe("dashboard configuration routes", () => {
  test("GET /dashboard/agent-dispatch pages with the spec's {data, count, nextCursor}", async () => {
    const all = (await list()).body;
    expect(all.count).toBe(all.data.length);
    expect(all.count).toBeGreaterThanOrEqual(3);
    const first = await list(alpha.dashboardAdmin, "?limit=2");
    const cursor: string = first.body.nextCursor;
    expect([first.body.count, typeof cursor]).toEqual([2, "string"]);
    const second = await list(alpha.dashboardAdmin, `?limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(second.status).toBe(200);
    expect([...first.body.data, ...second.body.data].map((c: { id: string }) => c.id)).toEqual(
      all.data.slice(0, 2 + second.body.count).map((c: { id: string }) => c.id),
    );
  });

  test("another team sees none of it and can neither disable nor delete it (404, unchanged)", async () => {
    const mine = (await configure({ ...good, targetWallet: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65" })).body.data;
    expect((await list(beta.dashboardAdmin)).body.data).toEqual([]);
    expect((await t.call("POST", `/dashboard/agent-dispatch/${mine.id}/disable`, { token: beta.dashboardAdmin })).status).toBe(404);
    expect((await t.call("DELETE", `/dashboard/agent-dispatch/${mine.id}`, { token: beta.dashboardAdmin })).status).toBe(404);
    const again = (await list()).body.data.find((c: { id: string }) => c.id === mine.id);
    expect(again).toMatchObject({ enabled: true });
    // Beta's own configuration of the same wallet is Beta's alone.
    const theirs = await configure({ ...good, targetWallet: mine.targetWallet }, beta.keys.secret);
    expect(theirs.body.data.id).not.toBe(mine.id);
  });

  test("disable keeps it listed as disabled; delete removes it and answers it as it was", async () => {
    const c = (await configure({ ...good, targetWallet: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc" })).body.data;
    const disabled = await t.call("POST", `/dashboard/agent-dispatch/${c.id}/disable`, { token: alpha.dashboardAdmin });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toMatchObject({ id: c.id, enabled: false });
    const deleted = await t.call("DELETE", `/dashboard/agent-dispatch/${c.id}`, { token: alpha.dashboardAdmin });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(c.id);
    expect((await list()).body.data.some((x: { id: string }) => x.id === c.id)).toBe(false);
    expect((await t.call("DELETE", `/dashboard/agent-dispatch/${c.id}`, { token: alpha.dashboardAdmin })).status).toBe(404);
  });

  test("each change is in the audit log", async () => {
    const actions = (await t.db.sql`select action from audit_log where team_id = ${alpha.teamId}`).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["agent_dispatch.configure", "agent_dispatch.disable", "agent_dispatch.delete"]));
  });
});

describe("dashboard funding mandate routes", () => {
  const put = (network: string, body: unknown) => t.call("PUT", `/dashboard/agent-funding/${network}`, { token: alpha.dashboardAdmin, body });
  const funding = async () => (await t.db.sql`select count(*)::int as n from agent_funding_mandates`)[0]!.n;
  // Well-formed, never checked: each case is refused on its field first.
  const consent = { issuedAt: new Date(t.clock.now()).toISOString(), nonce: "nonce-nonce-nonce-1", signature: `0x${"1b".repeat(65)}` };

  test("bad input is a 400 naming the field, checked before any chain read; nothing is recorded", async () => {
    const cases: [string, unknown, string][] = [
      ["sepolia", { fundingWallet: EVM_WALLET, dailyCap: "0", total: "5", consent }, "body.dailyCap"],
      ["sepolia", { fundingWallet: EVM_WALLET, dailyCap: 5, total: "5", consent }, "body.dailyCap"],
      ["sepolia", { fundingWallet: "0x12", dailyCap: "5", total: "5", consent }, "body.fundingWallet"],
      ["sepolia", { fundingWallet: EVM_WALLET, dailyCap: "5", total: "5", token: "ETH", consent }, "body.token"],
      ["ethereum", { fundingWallet: EVM_WALLET, dailyCap: "5", total: "5", consent }, "path.network"],
      ["stellar-testnet", { fundingWallet: EVM_WALLET, dailyCap: "5", total: "5", consent }, "path.network"],
      ["nowhere", { fundingWallet: EVM_WALLET, dailyCap: "5", total: "5", consent }, "path.network"],
      ["solana-devnet", { fundingWallet: SOLANA_WALLET, dailyCap: "18446744073709551616", total: "5", consent }, "body.dailyCap"],
      ["sepolia", { fundingWallet: EVM_WALLET, dailyCap: "5", consent }, "body.total"],
      ["sepolia", { fundingWallet: EVM_WALLET, dailyCap: "5", total: "0", consent }, "body.total"],
      ["solana-devnet", { fundingWallet: SOLANA_WALLET, dailyCap: "5", total: "18446744073709551616", consent }, "body.total"],
    ];
    for (const [network, body, field] of cases) {
      const res = await put(network, body);
      expect({ network, body, status: res.status }).toEqual({ network, body, status: 400 });
      expect(Object.keys(res.body.details)).toContain(field);
    }
    expect(await funding()).toBe(0);
  });

  test("a family without an operator key is a 409 and records nothing", async () => {
    const wallet = mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: 1 }); // EVM_WALLET
    const tenant = { teamId: alpha.teamId, environment: "development" as const };
    const res = await put(
      "sepolia",
      await fundingBody({ chains: t.config.chains, tenant, network: "sepolia", wallet, dailyCap: 5n, issuedAt: new Date(t.clock.now()) }),
    );
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("operator key");
    expect(await funding()).toBe(0);
  });
});
