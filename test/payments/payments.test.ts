/**
 * Payment links and checkout sessions through the HTTP API, paid on a real anvil node with a solc-compiled
 * ERC-20: each status with its exact body, the replay guard, expiry, the sweeper, and what a paid session buys.
 */
import { describe, expect, test } from "bun:test";
import { erc20Abi, type Address, type Hex } from "viem";
import { foundry } from "viem/chains";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { account, deploy, startAnvil, testContracts } from "../helpers/chains/anvil";
import { sweepOnce, CONFIRMATION_GRACE_MS } from "../../src/modules/payments/sweeper";
import { listDueSessions } from "../../src/modules/payments/repo";

const anvil = await startAnvil();
const contracts = await testContracts();
const usdc = await deploy(anvil, contracts.TestToken, ["Test USD", "USDC"]);
const payer = account(1);
const merchant = account(2).address;
await anvil.client.waitForTransactionReceipt({
  hash: await anvil.client.writeContract({
    address: usdc,
    abi: contracts.TestToken.abi,
    functionName: "mint",
    args: [payer.address, 10n ** 12n],
    account: account(0),
    chain: foundry,
  }),
});

const closedPort = (() => {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
})();
const registryFile = `${process.cwd()}/.data/test/registry-${crypto.randomUUID()}.json`;
const usdcToken = { symbol: "USDC", decimals: 6, contract: usdc };
await Bun.write(
  registryFile,
  JSON.stringify([
    { id: "anvil", family: "evm", testnet: true, chainId: 31337, rpcUrl: anvil.rpcUrl, confirmations: 2, tokens: [usdcToken] },
    {
      id: "anvil-down",
      family: "evm",
      testnet: true,
      chainId: 31338,
      rpcUrl: `http://127.0.0.1:${closedPort}`,
      confirmations: 2,
      tokens: [usdcToken],
    },
  ]),
);

const t = await createTestApp({ CHAIN_REGISTRY_FILE: registryFile, RATE_LIMIT_ENABLED: "false", CHAIN_JOB_TIMEOUT_MS: "5000" });
t.closers.push(() => anvil.stop());
const team = await createTeamFixture(t, "Payments");
const other = await createTeamFixture(t, "Other");
const catalog = await createCatalogFixture(t, team.teamId);
const secret = team.keys.secret;

async function pay(to: Address, amount: bigint): Promise<Hex> {
  const hash = await anvil.client.writeContract({
    address: usdc,
    abi: erc20Abi,
    functionName: "transfer",
    args: [to, amount],
    account: payer,
    chain: foundry,
  });
  await anvil.client.waitForTransactionReceipt({ hash });
  return hash;
}
const confirm = () => anvil.client.mine({ blocks: 1 });

const linkBody = (over: Record<string, unknown> = {}) => ({
  amount: "25000000",
  network: "anvil",
  acceptedToken: "USDC",
  recipientWallet: merchant,
  ...over,
});
async function link(over: Record<string, unknown> = {}) {
  const res = await t.call("POST", "/payment-links", { token: secret, body: linkBody(over) });
  expect(res.status).toBe(201);
  return res.body.paymentLink;
}
async function session(linkId: string, body: Record<string, unknown> = {}) {
  const res = await t.call("POST", "/checkout-sessions", { token: secret, body: { paymentLinkId: linkId, ...body } });
  expect(res.status).toBe(201);
  return res.body.checkoutSession;
}
const submit = (id: string, txHash: string, token = secret) => t.call("POST", `/checkout-sessions/${id}/payments`, { token, body: { txHash } });
const read = async (id: string) => (await t.call("GET", `/checkout-sessions/${id}`, { token: team.keys.legacy })).body.checkoutSession;

describe("POST /payment-links", () => {
  test("201 with the link's terms in smallest units and the token's contract", async () => {
    const created = await link({ description: "Pro seats" });
    expect(created).toMatchObject({
      amount: "25000000",
      currency: "USDC",
      acceptedToken: usdc,
      decimals: 6,
      network: "anvil",
      chainId: 31337,
      recipientWallet: merchant,
      companyId: null,
      purpose: "PAYMENT",
      ttlSeconds: 1800,
      description: "Pro seats",
      active: true,
    });
    expect(created.id).toStartWith("plink_");
    const fetched = await t.call("GET", `/payment-links/${created.id}`, { token: secret });
    expect(fetched.body.paymentLink).toEqual(created);
  });

  test("400 names each bad field: unknown network, token, recipient checksum, purpose terms", async () => {
    const unknown = await t.call("POST", "/payment-links", { token: secret, body: linkBody({ network: "nope" }) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details["body.network"]).toStartWith("Unknown network; one of:");
    const bad = await t.call("POST", "/payment-links", {
      token: secret,
      body: linkBody({ acceptedToken: "DAI", recipientWallet: merchant.toLowerCase().replace("0x", "0X"), purpose: "ADDON" }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual({
      "body.acceptedToken": "Not accepted on anvil; one of: USDC",
      "body.recipientWallet": "Not a valid evm address",
      "body.addOnPlanId": "Required when purpose is ADDON",
    });
    // One letter's case flipped: the EIP-55 checksum no longer holds, as after a typo.
    const at = merchant.slice(2).search(/[a-fA-F]/) + 2;
    const flipped = merchant[at] === merchant[at]!.toLowerCase() ? merchant[at]!.toUpperCase() : merchant[at]!.toLowerCase();
    const typo = await t.call("POST", "/payment-links", {
      token: secret,
      body: linkBody({ recipientWallet: merchant.slice(0, at) + flipped + merchant.slice(at + 1) }),
    });
    expect(typo.body.details).toEqual({ "body.recipientWallet": "Not a valid evm address" });
    const amount = await t.call("POST", "/payment-links", { token: secret, body: linkBody({ amount: "1.5" }) });
    expect(amount.status).toBe(400);
  });

  test("400 when a live key names a test network, and the built-in main networks are refused to test keys", async () => {
    const live = await t.call("POST", "/payment-links", { token: team.keys.secretLive, body: linkBody() });
    expect(live.body).toEqual({ error: "Validation failed", details: { "body.network": "Live credentials settle only on main networks" } });
    const main = await t.call("POST", "/payment-links", { token: secret, body: linkBody({ network: "base" }) });
    expect(main.body).toEqual({ error: "Validation failed", details: { "body.network": "Test credentials settle only on test networks" } });
  });

  test("403 without payments.write; publishable keys never", async () => {
    expect((await t.call("POST", "/payment-links", { token: team.keys.restricted, body: linkBody() })).body).toEqual({
      error: "Permission 'payments.write' is required",
      code: "missing_permission",
    });
    expect((await t.call("POST", "/payment-links", { token: team.keys.publishable, body: linkBody() })).status).toBe(403);
  });
});

describe("POST /checkout-sessions", () => {
  test("201 PENDING with the link's terms and a deadline of now + ttl", async () => {
    const l = await link({ ttlSeconds: 600 });
    const s = await session(l.id, { customerWallet: payer.address });
    expect(s).toMatchObject({
      status: "PENDING",
      purpose: "PAYMENT",
      amount: "25000000",
      currency: "USDC",
      acceptedToken: usdc,
      chainId: 31337,
      paymentLinkId: l.id,
      customerWallet: payer.address,
      txHash: null,
      memo: null,
    });
    expect(s.id).toStartWith("cs_");
    expect(Date.parse(s.expiresAt) - Date.parse(s.createdAt)).toBe(600_000);
  });

  test('customerWallet and companyId, typed string by the spec, are "" when unset', async () => {
    const s = await session((await link()).id);
    expect(s).toMatchObject({ customerWallet: "", companyId: "" });
  });

  test("400 for an unknown link or an ADDON link with no company", async () => {
    expect((await t.call("POST", "/checkout-sessions", { token: secret, body: { paymentLinkId: "plink_nope" } })).body).toEqual({
      error: "Validation failed",
      details: { "body.paymentLinkId": "No payment link plink_nope" },
    });
    const addOn = await link({ purpose: "ADDON", addOnPlanId: catalog.addOnId });
    const res = await t.call("POST", "/checkout-sessions", { token: secret, body: { paymentLinkId: addOn.id } });
    expect(res.body).toEqual({
      error: "Validation failed",
      details: { "body.companyId": "Required: the link's purpose ADDON applies to a company" },
    });
  });

  test("400 for a customerWallet that is not an address of the link's chain (bad checksum included); nothing is written", async () => {
    const l = await link();
    const before = await t.db.sql`select count(*)::int as n from checkout_sessions where payment_link_id = ${l.id}`;
    const badChecksum = "0x833589FCD6eDb6E08f4c7C32D4f71b54bdA02913"; // USDC on Base, one letter's case flipped
    for (const customerWallet of ["0x1234", "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H", badChecksum]) {
      const res = await t.call("POST", "/checkout-sessions", { token: secret, body: { paymentLinkId: l.id, customerWallet } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Validation failed", details: { "body.customerWallet": "Not a valid evm address" } });
    }
    expect(await t.db.sql`select count(*)::int as n from checkout_sessions where payment_link_id = ${l.id}`).toEqual(before);
  });
});

describe("POST /checkout-sessions/{id}/payments on anvil", () => {
  test("ADDON end to end: 202 CONFIRMING until final, then 200 PAID and the add-on is active", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "addon-buyer", catalog.planId);
    const check = () => t.call("GET", `/check?company=${companyId}&feature=exports`, { token: secret });
    expect((await check()).body.data.access).toBe(false);

    const l = await link({ purpose: "ADDON", addOnPlanId: catalog.addOnId, companyId });
    const s = await session(l.id);
    const hash = await pay(merchant, 25_000_000n);
    const first = await submit(s.id, hash);
    expect(first.status).toBe(202);
    expect(first.body.checkoutSession).toMatchObject({ status: "CONFIRMING", txHash: hash });
    expect(first.body.verification).toEqual({ reason: "not_final", detail: "1 of 2 confirmations" });

    await confirm();
    const paid = await submit(s.id, hash.toUpperCase().replace("0X", "0x"));
    expect(paid.status).toBe(200);
    expect(paid.body.checkoutSession).toMatchObject({ status: "PAID", txHash: hash, customerWallet: payer.address, companyId, purpose: "ADDON" });
    expect((await check()).body.data.access).toBe(true);
    const [company] = await t.db.sql`select active_add_on_ids from companies where id = ${companyId}`;
    expect(company!.active_add_on_ids).toEqual([catalog.addOnId]);
    const payments = await t.db.sql`select transfer_index, amount, payer from payments where checkout_session_id = ${s.id}`;
    expect([...payments]).toEqual([{ transfer_index: 0, amount: "25000000", payer: payer.address }]);

    // The same submission again answers the same; the add-on is not added twice.
    expect((await submit(s.id, hash)).status).toBe(200);
    expect((await read(s.id)).status).toBe("PAID");
  });

  test("the same hash on another session is 409 payment_replayed and changes nothing", async () => {
    const l = await link();
    const a = await session(l.id);
    const b = await session(l.id);
    const hash = await pay(merchant, 25_000_000n);
    await confirm();
    expect((await submit(a.id, hash)).status).toBe(200);
    const replay = await submit(b.id, hash);
    expect(replay.status).toBe(409);
    expect(replay.body).toEqual({ error: "This transaction already paid for a checkout session", code: "payment_replayed" });
    expect(await read(b.id)).toMatchObject({ status: "PENDING", txHash: null });
    // Nor can another team reuse it: one transaction proves one payment, everywhere.
    const theirs = await t.call("POST", "/payment-links", { token: other.keys.secret, body: linkBody() });
    const theirSession = await t.call("POST", "/checkout-sessions", {
      token: other.keys.secret,
      body: { paymentLinkId: theirs.body.paymentLink.id },
    });
    expect((await submit(theirSession.body.checkoutSession.id, hash, other.keys.secret)).body.code).toBe("payment_replayed");
  });

  test("one transaction raced onto two sessions pays exactly one", async () => {
    const l = await link();
    const a = await session(l.id);
    const b = await session(l.id);
    const hash = await pay(merchant, 25_000_000n);
    await confirm();
    const results = await Promise.all([submit(a.id, hash), submit(b.id, hash)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const statuses = [(await read(a.id)).status, (await read(b.id)).status].sort();
    expect(statuses).toEqual(["PAID", "PENDING"]);
  });

  test("one transaction paying two sessions' recipients settles one; the sweeper reopens the other", async () => {
    const second = account(4).address;
    const a = await session((await link()).id);
    const b = await session((await link({ recipientWallet: second })).id);
    // Each session finds its own first qualifying transfer in this transaction: indexes 0 and 1.
    const hash = await anvil.client.writeContract({
      address: usdc,
      abi: contracts.TestToken.abi,
      functionName: "batchTransfer",
      args: [
        [merchant, second],
        [25_000_000n, 25_000_000n],
      ],
      account: payer,
      chain: foundry,
    });
    await anvil.client.waitForTransactionReceipt({ hash });
    expect((await submit(a.id, hash)).status).toBe(202); // both wait on it: not final yet
    expect((await submit(b.id, hash)).status).toBe(202);
    await confirm();
    const result = await sweepOnce(t.deps.settlement, new Date(t.clock.now() + 5_000)); // the submissions just checked them
    expect(result.paid).toBe(1);
    const states = [await read(a.id), await read(b.id)];
    expect(states.map((s) => s.status).sort()).toEqual(["PAID", "PENDING"]);
    expect(states.find((s) => s.status === "PENDING")!.txHash).toBeNull(); // reopened, not left waiting for ever
    const payments = await t.db.sql`select checkout_session_id from payments where tx_hash = ${hash}`;
    expect(payments.map((p) => p.checkout_session_id)).toEqual([states.find((s) => s.status === "PAID")!.id]);
  });

  test("422 wrong_recipient and amount_too_low fail the session with the reason", async () => {
    const l = await link();
    const s1 = await session(l.id);
    const wrong = await pay(account(3).address, 25_000_000n);
    await confirm();
    const r1 = await submit(s1.id, wrong);
    expect(r1.status).toBe(422);
    expect(r1.body).toEqual({ error: "The token was not sent to the expected recipient", code: "wrong_recipient" });
    expect(await read(s1.id)).toMatchObject({ status: "FAILED", failureReason: "wrong_recipient", txHash: wrong });
    // A failed session is closed.
    expect((await submit(s1.id, wrong)).body.code).toBe("checkout_session_closed");

    const s2 = await session(l.id);
    const short = await pay(merchant, 24_999_999n);
    await confirm();
    const r2 = await submit(s2.id, short);
    expect(r2.status).toBe(422);
    expect(r2.body.code).toBe("amount_too_low");
  });

  test("a session naming its customerWallet is paid only from that wallet: 422 wrong_payer otherwise", async () => {
    const l = await link();
    const mine = await session(l.id, { customerWallet: payer.address.toLowerCase() });
    const hash = await pay(merchant, 25_000_000n);
    await confirm();
    expect((await submit(mine.id, hash)).status).toBe(200);

    const someoneElse = await session(l.id, { customerWallet: account(3).address });
    const theirs = await pay(merchant, 25_000_000n); // sent by `payer`, not by the session's customer
    await confirm();
    expect((await submit(someoneElse.id, theirs)).body).toEqual({
      error: "The payment was not sent from the session's customerWallet",
      code: "wrong_payer",
    });
  });

  test("sessions waiting on the same transaction: the first proven takes it, the other reopens with 409", async () => {
    const l = await link();
    const a = await session(l.id);
    const b = await session(l.id);
    const hash = await pay(merchant, 25_000_000n);
    expect((await submit(a.id, hash)).status).toBe(202); // not final yet: waiting does not reserve the hash
    expect((await submit(b.id, hash)).status).toBe(202);
    await confirm();
    expect((await submit(b.id, hash)).status).toBe(200);
    expect((await submit(a.id, hash)).body.code).toBe("payment_replayed");
    expect(await read(a.id)).toMatchObject({ status: "PENDING", txHash: null });
  });

  test("400 for a malformed hash, 404 for another team's session", async () => {
    const s = await session((await link()).id);
    expect((await submit(s.id, "0x1234")).body).toEqual({
      error: "Validation failed",
      // A hash no network has is refused before the record is read, so the message names every format.
      details: { "body.txHash": expect.stringContaining("0x followed by 64 hex digits") },
    });
    expect((await submit(s.id, `0x${"ab".repeat(32)}`, other.keys.secret)).status).toBe(404);
    expect((await t.call("GET", `/checkout-sessions/${s.id}`, { token: other.keys.legacy })).status).toBe(404);
    expect(await read(s.id)).toMatchObject({ status: "PENDING" });
  });

  test("an RPC endpoint that is down leaves the session CONFIRMING with 202 rpc_unavailable", async () => {
    const s = await session((await link({ network: "anvil-down" })).id);
    const res = await submit(s.id, `0x${"cd".repeat(32)}`);
    expect(res.status).toBe(202);
    expect(res.body.verification.reason).toBe("rpc_unavailable");
    expect(res.body.checkoutSession.status).toBe("CONFIRMING");
  });

  test("CREDITS: a paid session grants its credits", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "credit-buyer", catalog.planId);
    const s = await session((await link({ purpose: "CREDITS", creditAmount: "40", companyId })).id);
    const hash = await pay(merchant, 25_000_000n);
    await confirm();
    expect((await submit(s.id, hash)).status).toBe(200);
    const check = await t.call("GET", `/check?company=${companyId}&feature=ai-tokens`, { token: secret });
    expect(check.body.data).toMatchObject({ access: true, creditBalance: "40" });
  });
});

describe("expiry and the settlement sweeper", () => {
  test("a PENDING session past its deadline is 409 checkout_session_closed and EXPIRED", async () => {
    const s = await session((await link({ ttlSeconds: 60 })).id);
    t.clock.advance(60_000);
    const res = await submit(s.id, `0x${"ef".repeat(32)}`);
    expect(res.body).toEqual({ error: "Checkout session is expired", code: "checkout_session_closed" });
    expect((await read(s.id)).status).toBe("EXPIRED");
  });

  test("after the deadline a waiting session keeps its transaction but takes no other", async () => {
    const s = await session((await link({ ttlSeconds: 60 })).id);
    const hash = await pay(merchant, 25_000_000n);
    expect((await submit(s.id, hash)).status).toBe(202);
    t.clock.advance(60_000);
    expect((await submit(s.id, `0x${"aa".repeat(32)}`)).body).toEqual({ error: "Checkout session is expired", code: "checkout_session_closed" });
    await confirm();
    expect((await submit(s.id, hash)).status).toBe(200); // submitted in time: honoured once final
  });

  test("the sweeper expires open sessions and settles confirming ones", async () => {
    const open = await session((await link({ ttlSeconds: 60 })).id);
    const waiting = await session((await link()).id);
    const hash = await pay(merchant, 25_000_000n);
    expect((await submit(waiting.id, hash)).status).toBe(202);
    await confirm();
    const result = await sweepOnce(t.deps.settlement, new Date(t.clock.now() + 61_000));
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(result.paid).toBeGreaterThanOrEqual(1);
    expect((await read(open.id)).status).toBe("EXPIRED");
    expect((await read(waiting.id)).status).toBe("PAID");
  });

  test("sweeps claim waiting sessions: concurrent sweeps share them, and each is checked again after a tenth of its age (5 to 15 s)", async () => {
    const s = await session((await link({ network: "anvil-down" })).id);
    expect((await submit(s.id, `0x${"34".repeat(32)}`)).status).toBe(202);
    const createdAt = t.clock.now();
    const at = (ms: number) => new Date(createdAt + ms);
    const claims = async (ms: number) => (await listDueSessions(t.db.sql, at(ms), 1000)).filter((row) => row.id === s.id).length;

    expect(await claims(4_999)).toBe(0); // just verified by its submission: 5 s at least
    expect(await claims(61_000)).toBe(1);
    expect(await claims(61_000)).toBe(0); // claimed: another sweep at the same moment leaves it
    expect(await claims(67_700)).toBe(0); // a tenth of its age then (6.77 s) has not passed since 61 s
    const together = await Promise.all([68_000, 68_000, 68_000].map(claims)); // 6.8 s has
    expect(together.sort()).toEqual([0, 0, 1]);
    expect(await claims(1_200_000)).toBe(1); // 20 minutes old: checked at most 15 s apart
    expect(await claims(1_214_999)).toBe(0);
    expect(await claims(1_215_000)).toBe(1);
    expect((await read(s.id)).status).toBe("CONFIRMING"); // claiming moves nothing
  });

  test("a session still unproven an hour past its deadline expires with the last reason", async () => {
    const s = await session((await link({ network: "anvil-down", ttlSeconds: 60 })).id);
    expect((await submit(s.id, `0x${"12".repeat(32)}`)).status).toBe(202);
    await sweepOnce(t.deps.settlement, new Date(t.clock.now() + 61_000));
    expect((await read(s.id)).status).toBe("CONFIRMING"); // submitted in time: still honoured if it turns final
    await sweepOnce(t.deps.settlement, new Date(t.clock.now() + 60_000 + CONFIRMATION_GRACE_MS));
    expect(await read(s.id)).toMatchObject({ status: "EXPIRED", failureReason: "rpc_unavailable" });
  });
});

describe("GET /checkout-sessions", () => {
  test("legacy key and dashboard session read the most recent first; secret keys get 403 (spec rule 7)", async () => {
    const s = await session((await link()).id);
    const list = await t.call("GET", "/checkout-sessions", { token: team.keys.legacy });
    expect(list.status).toBe(200);
    expect(list.body.checkoutSessions[0].id).toBe(s.id);
    expect(list.body.checkoutSessions.length).toBeLessThanOrEqual(100);
    expect((await t.call("GET", "/checkout-sessions", { cookie: `be_session=${team.dashboardAdmin}` })).status).toBe(200);
    expect((await t.call("GET", "/checkout-sessions", { token: secret })).body.code).toBe("wrong_credential_kind");
    const theirs = await t.call("GET", "/checkout-sessions", { token: other.keys.legacy });
    expect(theirs.body.checkoutSessions.some((x: { id: string }) => x.id === s.id)).toBe(false);
  });
});
