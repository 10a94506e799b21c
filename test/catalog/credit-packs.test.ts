/**
 * Credit packs on the dashboard (catalog:read / catalog:write): created with every problem named at once and nothing
 * written, 409 for a taken key or a second offered pack, archived (never deleted), audited, per tenant; and which
 * pack an insufficient-credit 402 offers (the live, enabled pack flagged offerOnPaymentRequired, priced where the
 * team has a settlement wallet).
 */
import { describe, expect, test } from "bun:test";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { OPERATOR } from "../../src/modules/teams/roles";
import { createPeerInstance, createTestApp, TEST_SECRETS } from "../helpers/app";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { createTeamFixture } from "../helpers/fixtures";

const t = await createTestApp();
const team = await createTeamFixture(t, "Packs");
const other = await createTeamFixture(t, "Other packs");
const sql = t.db.sql;
const tenant = { teamId: team.teamId, environment: "development" as const };
const dash = (method: string, path: string, body?: unknown, token = team.dashboardAdmin) =>
  t.call(method, `/dashboard/credit-packs${path}`, { token, body });
const BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const WALLET = "0x2222222222222222222222222222222222222222";
const price = (extra: Record<string, unknown> = {}) => ({ network: "base-sepolia", token: "USDC", amount: "2500000", ...extra });
const packCount = async () => (await sql`select count(*)::int as n from credit_packs where team_id = ${team.teamId}`)[0]!.n as number;

const catalog = await createCatalogFixture(t, team.teamId);
await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "pack-co", catalog.planId);
/** The terms on the company's insufficient-credit 402 (null: none), and the body, which never changes. */
const offeredTerms = async () => {
  const res = await t.call("POST", "/usage/consume", { token: team.keys.secret, body: { company: "pack-co", feature: "ai-tokens" } });
  expect(res.status).toBe(402);
  expect(res.body).toEqual({ error: "Insufficient credits", code: "insufficient_credits" });
  const header = res.headers.get("payment-required");
  return header === null ? null : decodePaymentRequiredHeader(header);
};

describe("create, read, list, archive", () => {
  test("a pack as created: credits and prices as strings, the asset resolved from the registry; audited", async () => {
    const res = await dash("POST", "", { key: "small", name: "Small pack", credits: "500", prices: [price()] });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^cpk_/),
      key: "small",
      name: "Small pack",
      credits: "500",
      prices: [{ network: "base-sepolia", token: "USDC", asset: BASE_SEPOLIA_USDC, amount: "2500000" }],
      offerOnPaymentRequired: false,
      enabled: true,
      archived: false,
      archivedAt: null,
      createdAt: new Date(t.clock.now()).toISOString(),
    });
    const id = res.body.data.id;
    expect((await dash("GET", `/${id}`)).body.data).toEqual(res.body.data);
    expect((await dash("GET", "")).body.data.map((p: { id: string }) => p.id)).toContain(id);
    const archived = await dash("DELETE", `/${id}`);
    expect(archived.body.data).toMatchObject({ archived: true, archivedAt: new Date(t.clock.now()).toISOString() });
    expect((await dash("DELETE", `/${id}`)).body.data.archivedAt).toBe(archived.body.data.archivedAt);
    expect((await dash("GET", "")).body.data.map((p: { id: string }) => p.id)).not.toContain(id);
    expect((await dash("GET", "?includeArchived=true")).body.data.map((p: { id: string }) => p.id)).toContain(id);
    const audit = await sql`select action from audit_log where team_id = ${team.teamId} and resource_id = ${id} order by seq`;
    expect(audit.map((a) => a.action)).toEqual(["credit_pack.create", "credit_pack.archive", "credit_pack.archive"]);
  });

  test("every problem at once, nothing written: key, credits, unknown or main or non-EVM network, a token without EIP-3009, a pair twice", async () => {
    const before = await packCount();
    const res = await dash("POST", "", {
      key: "bad key!",
      credits: "0",
      prices: [
        price({ network: "nowhere" }),
        price({ network: "base" }),
        price({ network: "solana-devnet" }),
        price({ token: "ETH" }),
        price(),
        price({ token: BASE_SEPOLIA_USDC.toLowerCase() }),
      ],
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details).sort()).toEqual(["body.credits", "body.key"]);
    const typed = await dash("POST", "", {
      key: "typed",
      credits: "10",
      prices: [
        price({ network: "nowhere" }),
        price({ network: "base" }),
        price({ network: "solana-devnet" }),
        price({ token: "ETH" }),
        price(),
        price({ token: BASE_SEPOLIA_USDC.toLowerCase() }),
      ],
    });
    expect(typed.status).toBe(400);
    expect(typed.body.details).toEqual({
      "body.prices[0].network": expect.stringContaining("EVM network"),
      "body.prices[1].network": expect.stringContaining("EVM network"),
      "body.prices[2].network": expect.stringContaining("EVM network"),
      "body.prices[3].token": expect.stringContaining("EIP-3009"),
      "body.prices[5]": "USDC on base-sepolia is priced twice",
    });
    // 78 digits pass the pattern, but one past 2^256 - 1 is no amount a token can move.
    const tooBig = await dash("POST", "", { key: "too-big", credits: "10", prices: [price({ amount: (2n ** 256n).toString() })] });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.details).toEqual({ "body.prices[0].amount": "Expected a positive integer string of at most 2^256 - 1" });
    expect((await dash("POST", "", { key: "max", credits: "10", prices: [price({ amount: (2n ** 256n - 1n).toString() })] })).status).toBe(201);
    expect(await packCount()).toBe(before + 1);
  });

  test("409: a key taken in any case; a second live offered pack (archiving the first frees it)", async () => {
    expect((await dash("POST", "", { key: "dup", credits: "1", prices: [price()] })).status).toBe(201);
    expect((await dash("POST", "", { key: "DUP", credits: "1", prices: [price()] })).status).toBe(409);
    const first = await dash("POST", "", { key: "offer-a", credits: "1", prices: [price()], offerOnPaymentRequired: true });
    expect(first.status).toBe(201);
    const second = await dash("POST", "", { key: "offer-b", credits: "1", prices: [price()], offerOnPaymentRequired: true });
    expect(second.status).toBe(409);
    expect(second.body.error).toContain("archive it first");
    await dash("DELETE", `/${first.body.data.id}`);
    expect((await dash("POST", "", { key: "offer-b", credits: "1", prices: [price()], offerOnPaymentRequired: true })).status).toBe(201);
    await sql`update credit_packs set archived_at = now() where team_id = ${team.teamId}`;
  });

  test("another team sees none of them", async () => {
    const mine = (await dash("POST", "", { key: "private", credits: "1", prices: [price()] })).body.data.id;
    expect((await dash("GET", `/${mine}`, undefined, other.dashboardAdmin)).status).toBe(404);
    expect((await dash("DELETE", `/${mine}`, undefined, other.dashboardAdmin)).status).toBe(404);
    expect((await dash("GET", "", undefined, other.dashboardAdmin)).body.data).toEqual([]);
  });
});

describe("which pack a 402 offers", () => {
  test("none without an offered pack or without a settlement wallet on its network; the offered one; none once archived or if disabled", async () => {
    expect(await offeredTerms()).toBeNull();
    const pack = (await dash("POST", "", { key: "offered", name: "Offered", credits: "100", prices: [price()], offerOnPaymentRequired: true })).body
      .data;
    expect(await offeredTerms()).toBeNull(); // no settlement wallet on base-sepolia yet
    await setSettlementWallet({ sql, registry: t.config.chains }, { tenant, actor: OPERATOR, now: new Date(t.clock.now()) }, "base-sepolia", {
      wallet: WALLET,
    });
    expect((await offeredTerms())?.accepts).toEqual([
      {
        scheme: "exact",
        network: "eip155:84532",
        asset: BASE_SEPOLIA_USDC,
        amount: "2500000",
        payTo: WALLET,
        maxTimeoutSeconds: 300,
        extra: { name: "USDC", version: "2" },
      },
    ]);
    // The resource is named as clients reach the service: PUBLIC_BASE_URL when set.
    expect((await offeredTerms())?.resource).toEqual({
      url: "http://localhost/api/v1/usage/consume",
      description: "Offered: 100 credits",
      mimeType: "application/json",
    });
    const behindProxy = await createPeerInstance(t, { publicBaseUrl: "https://billing.example.com" });
    const res = await behindProxy.call("POST", "/usage/consume", { token: team.keys.secret, body: { company: "pack-co", feature: "ai-tokens" } });
    expect(decodePaymentRequiredHeader(res.headers.get("payment-required")!).resource.url).toBe("https://billing.example.com/api/v1/usage/consume");
    await dash("DELETE", `/${pack.id}`);
    expect(await offeredTerms()).toBeNull();
    await dash("POST", "", { key: "disabled", credits: "100", prices: [price()], offerOnPaymentRequired: true, enabled: false });
    expect(await offeredTerms()).toBeNull();
  });
});

describe("the operator CLI", () => {
  function cli(...args: string[]) {
    const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: t.db.url, ...TEST_SECRETS } });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  }

  test("credit-pack create, list, archive: the same packs and checks as the routes, audited as the operator", () => {
    const created = cli(
      "credit-pack",
      "create",
      "--team",
      other.teamId,
      "--key",
      "cli-pack",
      "--credits",
      "50",
      "--prices",
      "base-sepolia:USDC:500000",
      "--offer",
      "true",
    );
    expect(created).toMatchObject({ code: 0, err: "" });
    const pack = JSON.parse(created.out).data;
    expect(pack).toMatchObject({
      key: "cli-pack",
      credits: "50",
      offerOnPaymentRequired: true,
      prices: [{ network: "base-sepolia", asset: BASE_SEPOLIA_USDC, amount: "500000" }],
    });
    expect(JSON.parse(cli("credit-pack", "list", "--team", other.teamId).out).data.map((p: { id: string }) => p.id)).toEqual([pack.id]);
    const refused = cli("credit-pack", "create", "--team", other.teamId, "--key", "bad", "--credits", "5", "--prices", "solana-devnet:USDC:1");
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain("prices[0].network");
    expect(JSON.parse(cli("credit-pack", "archive", "--team", other.teamId, "--id", pack.id).out).data.archived).toBe(true);
  }, 60_000);
});
