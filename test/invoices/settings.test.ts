/**
 * Settlement wallets and invoice settings over the dashboard routes (and, at the end, the CLI): what is
 * stored and answered, each bad field named in one 400 with nothing written, the environment's networks
 * only, audited changes, tenants apart, and the payment terms reaching the invoices issued afterwards.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp, TEST_SECRETS } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { issuedInvoice, line } from "../helpers/invoices";
import { createDashboardSession } from "../../src/modules/teams/automation-session";

const t = await createTestApp();
const team = await createTeamFixture(t, "Settings");
const other = await createTeamFixture(t, "Other settings");
const admin = { token: team.dashboardAdmin };
const dev = { teamId: team.teamId, environment: "development" as const };
const production = {
  token: (
    await createDashboardSession(
      t.db.sql,
      { teamId: team.teamId, environment: "production", userEmail: "admin@test.dev", roles: ["admin"] },
      t.clock.now(),
    )
  ).session,
};
const reader = {
  token: (
    await createDashboardSession(
      t.db.sql,
      { teamId: team.teamId, environment: "development", userEmail: "reader@test.dev", roles: ["billing:read"] },
      t.clock.now(),
    )
  ).session,
};
// An EIP-55 address with letters in both cases (its checksum matters) and the same address with one letter's case flipped.
const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";
const TYPO = "0x52908400098527886e0F7030069857D2E4169EE7";
const WALLET2 = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"; // EIP-55's own example
const STELLAR = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

const wallets = async (as = admin) => (await t.call("GET", "/dashboard/settlement-wallets", as)).body;
const audits = async (action: string) =>
  (await t.db.sql`select resource_id, details from audit_log where team_id = ${team.teamId} and action = ${action} order by chain_seq`).map((r) => ({
    ...r,
  }));

describe("settlement wallets", () => {
  test("PUT sets a network's wallet (tokens as the registry spells them), GET lists it, PUT again replaces it; audited", async () => {
    const put = await t.call("PUT", "/dashboard/settlement-wallets/base-sepolia", {
      ...admin,
      body: { wallet: WALLET, tokens: ["usdc", "ETH"] },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ network: "base-sepolia", wallet: WALLET, tokens: ["USDC", "ETH"] });
    expect(await wallets(reader)).toEqual({ data: [put.body.data], count: 1, nextCursor: null });

    const replaced = await t.call("PUT", "/dashboard/settlement-wallets/base-sepolia", { ...admin, body: { wallet: WALLET2 } });
    expect(replaced.body.data).toMatchObject({ wallet: WALLET2, tokens: [], createdAt: put.body.data.createdAt });
    expect(await audits("settlement_wallet.set")).toEqual([
      { resource_id: "base-sepolia", details: { wallet: WALLET, tokens: ["USDC", "ETH"] } },
      { resource_id: "base-sepolia", details: { wallet: WALLET2, tokens: [] } },
    ]);
    // Another team, and the other environment, see none of it.
    expect((await wallets({ token: other.dashboardAdmin })).data).toEqual([]);
    expect((await wallets(production)).data).toEqual([]);
  });

  test("400 names every bad field (checksum typo, token of another network) and writes nothing; networks of the family only", async () => {
    const before = await wallets();
    const bad = await t.call("PUT", "/dashboard/settlement-wallets/sepolia", { ...admin, body: { wallet: TYPO, tokens: ["USDC", "XLM"] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: "Validation failed",
      details: { "body.wallet": "Not a valid evm address", "body.tokens[1]": "Not a token of sepolia; one of: USDC, ETH" },
    });
    const stellarOnEvm = await t.call("PUT", "/dashboard/settlement-wallets/sepolia", { ...admin, body: { wallet: STELLAR } });
    expect(stellarOnEvm.body.details).toEqual({ "body.wallet": "Not a valid evm address" });
    const ok = await t.call("PUT", "/dashboard/settlement-wallets/stellar-testnet", { ...admin, body: { wallet: STELLAR } });
    expect(ok.status).toBe(200);
    await t.call("DELETE", "/dashboard/settlement-wallets/stellar-testnet", admin);
    expect(await wallets()).toEqual(before);
  });

  test("400 for an EVM address without its checksum (all lowercase), a burn address, a token given twice; nothing written", async () => {
    const before = await wallets();
    const refusals: [string, { wallet: string; tokens?: string[] }, Record<string, string>][] = [
      [
        "sepolia",
        { wallet: WALLET.toLowerCase() },
        {
          "body.wallet":
            "Expected the address in its EIP-55 checksum form (mixed case, as wallets show it): without the checksum a typo goes unnoticed",
        },
      ],
      [
        "sepolia",
        { wallet: `0x${"0".repeat(40)}` },
        { "body.wallet": "A burn address: nobody can spend what arrives there; expected the team's own wallet" },
      ],
      ["sepolia", { wallet: "0x000000000000000000000000000000000000dEaD" }, { "body.wallet": expect.stringMatching(/^A burn address/) }],
      ["solana-devnet", { wallet: "11111111111111111111111111111111" }, { "body.wallet": expect.stringMatching(/^A burn address/) }],
      ["sepolia", { wallet: WALLET, tokens: ["USDC", "eth", "usdc"] }, { "body.tokens[2]": "USDC is given twice; list each token once" }],
    ];
    for (const [network, body, details] of refusals) {
      const res = await t.call("PUT", `/dashboard/settlement-wallets/${network}`, { ...admin, body });
      expect({ network, body, status: res.status, answer: res.body }).toEqual({
        network,
        body,
        status: 400,
        answer: { error: "Validation failed", details },
      });
    }
    expect(await wallets()).toEqual(before);
  });

  test("400 for an unknown network, and for a network the session's environment does not settle on", async () => {
    const unknown = await t.call("PUT", "/dashboard/settlement-wallets/nowhere", { ...admin, body: { wallet: WALLET } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details["path.network"]).toStartWith("Unknown network; one of: sepolia, base-sepolia");
    const main = await t.call("PUT", "/dashboard/settlement-wallets/base", { ...admin, body: { wallet: WALLET } });
    expect(main.body.details["path.network"]).toStartWith("Development settles only on test networks; one of:");
    const testnet = await t.call("PUT", "/dashboard/settlement-wallets/base-sepolia", { ...production, body: { wallet: WALLET } });
    expect(testnet.body.details["path.network"]).toStartWith("Production settles only on main networks; one of: ethereum, base");
    expect((await t.call("PUT", "/dashboard/settlement-wallets/base", { ...production, body: { wallet: WALLET } })).status).toBe(200);
  });

  test("DELETE answers the removed wallet, then 404; another team's wallet is not theirs to remove", async () => {
    await t.call("PUT", "/dashboard/settlement-wallets/solana-devnet", { ...admin, body: { wallet: "So11111111111111111111111111111111111111112" } });
    const theirs = await t.call("DELETE", "/dashboard/settlement-wallets/solana-devnet", { token: other.dashboardAdmin });
    expect(theirs.status).toBe(404);
    const removed = await t.call("DELETE", "/dashboard/settlement-wallets/solana-devnet", admin);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ network: "solana-devnet", wallet: "So11111111111111111111111111111111111111112" });
    expect((await t.call("DELETE", "/dashboard/settlement-wallets/solana-devnet", admin)).body).toEqual({
      error: "No settlement wallet on solana-devnet",
    });
    expect((await audits("settlement_wallet.remove")).map((a) => a.resource_id)).toEqual(["stellar-testnet", "solana-devnet"]);
  });

  test("billing:read reads but does not write", async () => {
    const res = await t.call("PUT", "/dashboard/settlement-wallets/sepolia", { ...reader, body: { wallet: WALLET } });
    expect(res.body).toEqual({ error: "Dashboard role 'billing:write' is required", code: "missing_permission" });
  });
});

describe("invoice settings", () => {
  test("defaults until set; PUT is partial (omitted keep, null clears); new invoices take the payment terms", async () => {
    const fresh = await t.call("GET", "/dashboard/invoice-settings", { token: other.dashboardAdmin });
    expect(fresh.body.data).toEqual({
      sellerName: null,
      sellerAddress: null,
      sellerTaxId: null,
      sellerEmail: null,
      paymentTermsDays: 30,
      footer: null,
      emailOnIssue: true,
    });
    const set = await t.call("PUT", "/dashboard/invoice-settings", {
      ...admin,
      body: { sellerName: "Acme Ltd", sellerEmail: "billing@acme.example", paymentTermsDays: 14, footer: "Thanks", emailOnIssue: false },
    });
    expect(set.status).toBe(200);
    const cleared = await t.call("PUT", "/dashboard/invoice-settings", { ...admin, body: { footer: null, sellerTaxId: "GB123" } });
    expect(cleared.body.data).toEqual({
      sellerName: "Acme Ltd",
      sellerAddress: null,
      sellerTaxId: "GB123",
      sellerEmail: "billing@acme.example",
      paymentTermsDays: 14,
      footer: null,
      emailOnIssue: false,
    });
    expect((await t.call("GET", "/dashboard/invoice-settings", reader)).body.data).toEqual(cleared.body.data);
    expect((await t.call("GET", "/dashboard/invoice-settings", production)).body.data.paymentTermsDays).toBe(30);

    const now = new Date(t.clock.now());
    const invoice = await issuedInvoice(t.db.sql, t.config.chains, dev, now, [line(1_000_000n)]);
    expect(invoice.due_at!.getTime() - now.getTime()).toBe(14 * 86_400_000);
    expect((await audits("invoice_settings.update")).map((a) => a.details)).toEqual([
      { fields: ["emailOnIssue", "footer", "paymentTermsDays", "sellerEmail", "sellerName"] },
      { fields: ["footer", "sellerTaxId"] },
    ]);
  });

  test("400 names each bad field and changes nothing", async () => {
    const before = (await t.call("GET", "/dashboard/invoice-settings", admin)).body.data;
    const bad = await t.call("PUT", "/dashboard/invoice-settings", {
      ...admin,
      body: { paymentTermsDays: 366, sellerEmail: "not-an-email", sellerName: "   " },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details).sort()).toEqual(["body.paymentTermsDays", "body.sellerEmail", "body.sellerName"]);
    expect((await t.call("GET", "/dashboard/invoice-settings", admin)).body.data).toEqual(before);
  });

  test("concurrent partial updates each keep the other's field", async () => {
    const session = { token: other.dashboardAdmin };
    await Promise.all([
      t.call("PUT", "/dashboard/invoice-settings", { ...session, body: { sellerName: "Other Co" } }),
      t.call("PUT", "/dashboard/invoice-settings", { ...session, body: { footer: "Other footer" } }),
      t.call("PUT", "/dashboard/invoice-settings", { ...session, body: { paymentTermsDays: 7 } }),
    ]);
    expect((await t.call("GET", "/dashboard/invoice-settings", session)).body.data).toMatchObject({
      sellerName: "Other Co",
      footer: "Other footer",
      paymentTermsDays: 7,
    });
  });
});

test("CLI: settlement-wallet set/list/remove and invoice-settings set/show print the routes' records; bad input exits 2", () => {
  const cli = (...args: string[]) => {
    const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: t.db.url, ...TEST_SECRETS } });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };
  const teamId = other.teamId;
  const set = cli("settlement-wallet", "set", "--team", teamId, "--network", "sepolia", "--wallet", WALLET, "--tokens", "usdc");
  expect(set).toMatchObject({ code: 0, err: "" });
  expect(JSON.parse(set.out).data).toMatchObject({ network: "sepolia", wallet: WALLET, tokens: ["USDC"] });
  expect(JSON.parse(cli("settlement-wallet", "list", "--team", teamId).out)).toMatchObject({ data: [{ network: "sepolia" }], count: 1 });
  const typo = cli("settlement-wallet", "set", "--team", teamId, "--network", "sepolia", "--wallet", TYPO);
  expect(typo.code).toBe(2);
  expect(JSON.parse(typo.err)).toEqual({ error: "Validation failed", details: { "body.wallet": "Not a valid evm address" } });
  expect(cli("settlement-wallet", "remove", "--team", teamId, "--network", "sepolia").code).toBe(0);

  const settings = cli("invoice-settings", "set", "--team", teamId, "--seller-name", "CLI Co", "--payment-terms-days", "45", "--footer", "");
  expect(settings.code).toBe(0);
  expect(JSON.parse(settings.out).data).toMatchObject({ sellerName: "CLI Co", paymentTermsDays: 45, footer: null });
  expect(JSON.parse(cli("invoice-settings", "show", "--team", teamId).out).data.paymentTermsDays).toBe(45);
  const tooLong = cli("invoice-settings", "set", "--team", teamId, "--payment-terms-days", "400", "--seller-email", "nope");
  expect(tooLong.code).toBe(2);
  expect(Object.keys(JSON.parse(tooLong.err).details).sort()).toEqual(["body.paymentTermsDays", "body.sellerEmail"]);
}, 60_000);

describe("a wallet receives for one tenant", () => {
  const wallet = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
  test("another team cannot register it, nor name it (in any case) as a payment link's recipient", async () => {
    expect((await t.call("PUT", "/dashboard/settlement-wallets/base-sepolia", { ...admin, body: { wallet } })).status).toBe(200);
    // (Settlement wallets are written in their checksum form, so any other spelling is already a 400.)
    const taken = await t.call("PUT", "/dashboard/settlement-wallets/base-sepolia", { token: other.dashboardAdmin, body: { wallet } });
    expect([taken.status, taken.body.error]).toEqual([409, "This wallet already receives for another team or environment on base-sepolia"]);
    for (const recipientWallet of [wallet, wallet.toLowerCase()]) {
      const link = await t.call("POST", "/payment-links", {
        token: other.keys.secret,
        body: { amount: "1000000", network: "base-sepolia", acceptedToken: "USDC", recipientWallet },
      });
      expect([link.status, Object.keys(link.body.details)]).toEqual([400, ["body.recipientWallet"]]);
    }
    // The owner's own links may pay it, and setting it again changes nothing.
    const own = await t.call("POST", "/payment-links", {
      token: team.keys.secret,
      body: { amount: "1000000", network: "base-sepolia", acceptedToken: "USDC", recipientWallet: wallet },
    });
    expect(own.status).toBe(201);
    expect((await t.call("PUT", "/dashboard/settlement-wallets/base-sepolia", { ...admin, body: { wallet } })).status).toBe(200);
  });
});
