/**
 * POST /dashboard/invoices/{id}/payments on a real anvil node with real ERC-20 transfers: a proven transfer
 * pays the invoice (recorded and applied in one transaction); not final yet is a 202 left to the job queue,
 * which records it once final or audits its refusal; the wrong token, recipient or amount, a hash that
 * already proved a payment or a refund, a missing settlement wallet, the wrong network and an invoice that
 * is not open are each refused with nothing recorded.
 */
import { describe, expect, test } from "bun:test";
import { erc20Abi, type Address, type Hex } from "viem";
import { foundry } from "viem/chains";
import { createTestApp, TEST_SECRETS } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { account, anvilRegistryFile, deploy, mintTokens, startAnvil, testContracts } from "../helpers/chains/anvil";
import { drainJobs, makeJobsDue, queuedJobs } from "../helpers/jobs";
import { inTx, invoiceInput, issuedInvoice, line } from "../helpers/invoices";
import { createInvoice } from "../../src/modules/invoices/lifecycle/transitions";
import { recordRefund } from "../../src/modules/invoices/refunds/record";
import { MAX_ATTEMPTS, verifyQueuedProof } from "../../src/modules/invoices/payments/jobs";

const anvil = await startAnvil();
const contracts = await testContracts();
const usdc = await deploy(anvil, contracts.TestToken, ["Test USD", "USDC"]);
const other = await deploy(anvil, contracts.TestToken, ["Other USD", "OUSD"]);
const payer = account(1);
const merchant = account(2).address;
const stranger = account(3).address;
await mintTokens(anvil, contracts.TestToken, [usdc, other], payer.address, 10n ** 15n);
const registryFile = await anvilRegistryFile(
  anvil,
  "proof-payments",
  [
    { symbol: "USDC", decimals: 6, contract: usdc },
    { symbol: "ETH", decimals: 18, native: true },
  ],
  2,
);
const t = await createTestApp({ CHAIN_REGISTRY_FILE: registryFile, RATE_LIMIT_ENABLED: "false", CHAIN_JOB_TIMEOUT_MS: "5000" });
t.closers.push(() => anvil.stop());
const team = await createTeamFixture(t, "Proofs");
const dev = { teamId: team.teamId, environment: "development" as const };
const admin = { token: team.dashboardAdmin };
expect((await t.call("PUT", "/dashboard/settlement-wallets/anvil", { ...admin, body: { wallet: merchant } })).status).toBe(200);
await t.call("POST", "/events", { token: team.keys.legacy, body: { event_type: "identify", company: { id: "proof-co", name: "Proof Co" } } });

const now = () => new Date(t.clock.now());
const invoice = (extra: Parameters<typeof issuedInvoice>[5] = { network: "anvil" }) =>
  issuedInvoice(t.db.sql, t.config.chains, dev, now(), [line(120_000_000n, 1n, 0n, "Consulting")], extra);

async function transfer(amount: bigint, to: Address = merchant, token: Address = usdc): Promise<Hex> {
  const hash = await anvil.client.writeContract({
    address: token,
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
const submit = (id: string, body: Record<string, unknown>, as: { token: string } = admin) =>
  t.call("POST", `/dashboard/invoices/${id}/payments`, { ...as, body });
const paymentsOf = async (invoiceId: string) => [...(await t.db.sql`select id, tx_hash from payments where invoice_id = ${invoiceId}`)];
const statusOf = async (invoiceId: string) => (await t.db.sql`select status from invoices where id = ${invoiceId}`)[0]!.status;
const audits = async (invoiceId: string) =>
  (await t.db.sql`select action, details from audit_log where resource_id = ${invoiceId} order by chain_seq`).map((a) => ({ ...a }));

describe("proven", () => {
  test("200: recorded and applied, the invoice PAID with the payment (chain, hash, token units); the same proof again answers the same", async () => {
    const inv = await invoice();
    const hash = await transfer(120_000_000n);
    await confirm();
    const res = await submit(inv.id, { txHash: hash });
    expect(res.status).toBe(200);
    expect(res.body.data.payment).toMatchObject({
      network: "anvil",
      txHash: hash,
      currency: "USDC",
      tokenAmount: "120000000",
      amountApplied: "120.000000",
      amountExcess: "0.000000",
      payer: payer.address,
      checkoutSessionId: null,
    });
    expect(res.body.data.invoice).toMatchObject({ id: inv.id, status: "PAID", amountPaid: "120.000000", amountOutstanding: "0.000000" });
    expect(res.body.data.invoice.payments).toEqual([res.body.data.payment]);
    expect((await audits(inv.id)).map((a) => a.action)).toContain("invoice.payment");

    const again = await submit(inv.id, { txHash: hash.toUpperCase().replace("0X", "0x"), network: "anvil" });
    expect(again.status).toBe(200);
    expect(again.body.data.payment.id).toBe(res.body.data.payment.id);
    expect(await paymentsOf(inv.id)).toHaveLength(1);
  });

  test("an invoice without a network takes the proof's, and an overpayment goes to its company's credit balance", async () => {
    const inv = await invoice({ network: null, companyId: "proof-co" });
    const hash = await transfer(130_000_000n);
    await confirm();
    const missing = await submit(inv.id, { txHash: hash });
    expect(missing.body).toEqual({ error: "Validation failed", details: { "body.network": `Required: invoice ${inv.number} names no network yet` } });
    const res = await submit(inv.id, { txHash: hash, network: "anvil" });
    expect(res.status).toBe(200);
    expect(res.body.data.invoice).toMatchObject({ status: "PAID", network: "anvil", amountPaid: "120.000000" });
    expect(res.body.data.payment).toMatchObject({ tokenAmount: "130000000", amountApplied: "120.000000", amountExcess: "10.000000" });
    const balance = await t.db.sql`select amount from customer_balance_entries where invoice_id = ${inv.id}`;
    expect(balance.map((b) => b.amount)).toEqual([10_000_000n]);
  });
});

describe("not provable yet: 202, then the job queue", () => {
  test("not final: nothing recorded, a job queued; once final the job records the payment", async () => {
    const inv = await invoice();
    const hash = await transfer(120_000_000n);
    const res = await submit(inv.id, { txHash: hash });
    expect(res.status).toBe(202);
    expect(res.body.data.verification).toEqual({ reason: "not_final", detail: "1 of 2 confirmations" });
    expect(res.body.data.invoice).toMatchObject({ id: inv.id, status: "ISSUED", payments: [] });
    expect(await paymentsOf(inv.id)).toEqual([]);
    const jobs = (await queuedJobs(t.db.sql)).filter(
      (j) => j.task === "invoices.verify_payment" && (j.payload as { txHash: string }).txHash === hash,
    );
    expect(jobs).toHaveLength(1);

    const early = await drainJobs(t); // still not final: the job fails and waits for its retry
    expect(early.failed.map((f) => f.task)).toContain("invoices.verify_payment");
    expect(await paymentsOf(inv.id)).toEqual([]);

    await confirm();
    await makeJobsDue(t.db.sql);
    const late = await drainJobs(t);
    expect(late.completed.map((c) => c.task)).toContain("invoices.verify_payment");
    expect(await statusOf(inv.id)).toBe("PAID");
    expect((await paymentsOf(inv.id)).map((p) => p.tx_hash)).toEqual([hash]);
    expect((await audits(inv.id)).map((a) => a.action)).toEqual(["invoice.create", "invoice.issue", "invoice.payment_pending", "invoice.payment"]);
  });

  test("a job whose transfer turns out wrong records nothing and audits the refusal", async () => {
    const inv = await invoice();
    // Submitted while the transaction is still unmined (no receipt yet: not provable), then mined.
    await anvil.client.setAutomine(false);
    const hash = await anvil.client.writeContract({
      address: usdc,
      abi: erc20Abi,
      functionName: "transfer",
      args: [stranger, 120_000_000n],
      account: payer,
      chain: foundry,
    });
    const res = await submit(inv.id, { txHash: hash });
    await anvil.client.setAutomine(true);
    expect(res.status).toBe(202);
    expect(["not_found", "not_final"]).toContain(res.body.data.verification.reason);
    await anvil.client.mine({ blocks: 2 });
    await makeJobsDue(t.db.sql);
    await drainJobs(t);
    expect(await paymentsOf(inv.id)).toEqual([]);
    expect(await statusOf(inv.id)).toBe("ISSUED");
    const refused = (await audits(inv.id)).find((a) => a.action === "invoice.payment_refused");
    expect(refused!.details).toMatchObject({ network: "anvil", txHash: hash, code: "wrong_recipient" });
  });

  test("a proof still unproven at the job's last attempt is given up and audited; before that the job is retried", async () => {
    const inv = await invoice();
    const unknown = `0x${"ee".repeat(32)}`; // never mined: not_found for ever
    const payload = { ...dev, invoiceId: inv.id, network: "anvil", txHash: unknown, actor: { kind: "dashboard", id: "op_test", requestId: null } };
    const deps = { sql: t.db.sql, settlement: t.deps.settlement, logger: t.logger, now };
    await expect(verifyQueuedProof(deps, payload, { attempt: 3, maxAttempts: MAX_ATTEMPTS })).rejects.toThrow("not provable yet: not_found");
    expect((await audits(inv.id)).map((a) => a.action)).not.toContain("invoice.payment_refused");
    await verifyQueuedProof(deps, payload, { attempt: MAX_ATTEMPTS, maxAttempts: MAX_ATTEMPTS });
    const refused = (await audits(inv.id)).find((a) => a.action === "invoice.payment_refused")!;
    expect(refused.details).toMatchObject({
      txHash: unknown,
      code: "not_found",
      detail: expect.stringMatching(new RegExp(`^Still unproven after ${MAX_ATTEMPTS} attempts: `)),
    });
    expect(await statusOf(inv.id)).toBe("ISSUED");
  });
});

describe("refused, nothing recorded", () => {
  test("422 wrong token, wrong recipient, too small", async () => {
    const inv = await invoice();
    const cases: [Hex, string][] = [
      [await transfer(120_000_000n, merchant, other), "wrong_token"],
      [await transfer(120_000_000n, stranger), "wrong_recipient"],
      [await transfer(119_999_999n), "amount_too_low"],
    ];
    await confirm();
    for (const [hash, code] of cases) {
      const res = await submit(inv.id, { txHash: hash });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code });
    }
    expect(await paymentsOf(inv.id)).toEqual([]);
    expect(await statusOf(inv.id)).toBe("ISSUED");
  });

  test("409 payment_replayed for a hash that paid another invoice or proved a refund; one hash raced onto two invoices pays one", async () => {
    const [a, b, c, d] = [await invoice(), await invoice(), await invoice(), await invoice()];
    const hash = await transfer(120_000_000n);
    await confirm();
    expect((await submit(a.id, { txHash: hash })).status).toBe(200);
    expect((await submit(b.id, { txHash: hash })).body).toEqual({ error: "This transaction already proved a payment", code: "payment_replayed" });

    // A refund of invoice a, sent back from the settlement wallet (recorded as the refunds route does once proven).
    const refundHash = await anvil.client.writeContract({
      address: usdc,
      abi: erc20Abi,
      functionName: "transfer",
      args: [payer.address, 1_000_000n],
      account: account(2),
      chain: foundry,
    });
    await anvil.client.waitForTransactionReceipt({ hash: refundHash });
    await inTx(t.db.sql, t.config.chains, dev, now(), (ctx) =>
      recordRefund(ctx, a.id, {
        amount: 1_000_000n,
        reason: "Goodwill",
        network: "anvil",
        txHash: refundHash,
        senderWallet: merchant,
        recipientWallet: payer.address,
        tokenSymbol: "USDC",
        tokenAmount: 1_000_000n,
        blockNumber: 1n,
      }),
    );
    expect((await submit(b.id, { txHash: refundHash })).body).toEqual({
      error: "This transaction already proved a refund",
      code: "payment_replayed",
    });

    const raced = await transfer(120_000_000n);
    await confirm();
    const results = await Promise.all([submit(c.id, { txHash: raced }), submit(d.id, { txHash: raced })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await t.db.sql`select count(*)::int as n from payments where tx_hash = ${raced}`)[0]!.n).toBe(1);
    expect([await statusOf(c.id), await statusOf(d.id)].sort()).toEqual(["ISSUED", "PAID"]);
    expect(await paymentsOf(b.id)).toEqual([]);
  });

  test("the same proof submitted three times at once for one invoice: one payment, and every answer is its 200", async () => {
    const e = await invoice();
    const hash = await transfer(120_000_000n);
    await confirm();
    const results = await Promise.all([1, 2, 3].map(() => submit(e.id, { txHash: hash })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await paymentsOf(e.id)).length).toBe(1);
    expect(await statusOf(e.id)).toBe("PAID");
  });

  test("409 settlement_wallet_missing: no wallet on the network, or one that does not take the currency", async () => {
    const team2 = await createTeamFixture(t, "No wallet");
    const tenant2 = { teamId: team2.teamId, environment: "development" as const };
    const inv = await issuedInvoice(t.db.sql, t.config.chains, tenant2, now(), [line(1_000_000n)], { network: "anvil" });
    const hash = `0x${"ab".repeat(32)}`;
    const none = await submit(inv.id, { txHash: hash }, { token: team2.dashboardAdmin });
    expect(none.body).toEqual({
      error: "No settlement wallet takes USDC on anvil; set one with PUT /dashboard/settlement-wallets/anvil",
      code: "settlement_wallet_missing",
    });
    await t.call("PUT", "/dashboard/settlement-wallets/anvil", { token: team2.dashboardAdmin, body: { wallet: merchant, tokens: ["ETH"] } });
    expect((await submit(inv.id, { txHash: hash }, { token: team2.dashboardAdmin })).body.code).toBe("settlement_wallet_missing");
  });

  test("409 invoice_not_payable for a draft or a paid invoice; 400 for another network or a malformed hash; 404 for another team's", async () => {
    const draft = await inTx(t.db.sql, t.config.chains, dev, now(), (ctx) =>
      createInvoice(ctx, invoiceInput([line(1_000_000n)], { network: "anvil" })),
    );
    const hash = `0x${"cd".repeat(32)}`;
    expect((await submit(draft.id, { txHash: hash })).body.code).toBe("invoice_not_payable");
    const inv = await invoice();
    expect((await submit(inv.id, { txHash: hash, network: "sepolia" })).body).toEqual({
      error: "Validation failed",
      details: { "body.network": `Expected anvil: invoice ${inv.number} settles there` },
    });
    expect((await submit(inv.id, { txHash: "0x1234" })).body).toEqual({
      error: "Validation failed",
      // A hash no network has is refused before the record is read, so the message names every format.
      details: { "body.txHash": expect.stringContaining("0x followed by 64 hex digits") },
    });
    const outsider = await createTeamFixture(t, "Outsider");
    expect((await submit(inv.id, { txHash: hash }, { token: outsider.dashboardAdmin })).status).toBe(404);
    const paid = await transfer(120_000_000n);
    await confirm();
    expect((await submit(inv.id, { txHash: paid })).status).toBe(200);
    const later = await transfer(1_000_000n);
    await confirm();
    expect((await submit(inv.id, { txHash: later })).body.code).toBe("invoice_not_payable");
    expect(await paymentsOf(draft.id)).toEqual([]);
  });
});

test("CLI: invoice pay verifies through its own chain workers and prints the invoice with its payment", async () => {
  const inv = await invoice();
  const hash = await transfer(120_000_000n);
  await confirm();
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", "invoice", "pay", "--team", team.teamId, "--invoice", inv.id, "--tx-hash", hash], {
    env: { ...process.env, DATABASE_URL: t.db.url, CHAIN_REGISTRY_FILE: registryFile, ...TEST_SECRETS },
  });
  expect({ code: p.exitCode, err: p.stderr.toString() }).toEqual({ code: 0, err: "" });
  const data = JSON.parse(p.stdout.toString()).data;
  expect(data.invoice).toMatchObject({ id: inv.id, status: "PAID" });
  expect(data.payment).toMatchObject({ txHash: hash, tokenAmount: "120000000" });
  expect((await audits(inv.id)).find((a) => a.action === "invoice.payment")).toBeDefined();
}, 60_000);
