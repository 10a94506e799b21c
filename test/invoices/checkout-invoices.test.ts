/**
 * A paid checkout session produces a PAID invoice in the payment's transaction, on a real anvil node: the
 * invoice carries the payment (chain, tx hash, token amount), its customer is the payer, its one line is
 * the link's description or what was bought, webhooks invoice.issued and invoice.paid go out with it; a
 * settlement that rolls back leaves no invoice and no gap in the series; a token finer than a micro-unit
 * gives a line rounded down while the payment keeps its exact token units.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { erc20Abi, type Address, type Hex } from "viem";
import { foundry } from "viem/chains";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { grantCreditsInTx, lockCompanyGrants } from "../../src/modules/entitlements/credits";
import { recordAudit } from "../../src/modules/audit/repo";
import { account, anvilRegistryFile, deploy, mintTokens, startAnvil, testContracts } from "../helpers/chains/anvil";

const anvil = await startAnvil();
const contracts = await testContracts();
const usdc = await deploy(anvil, contracts.TestToken, ["Test USD", "USDC"]);
// A second token the registry declares with 18 decimals (the contract's own decimals() is never read).
const fine = await deploy(anvil, contracts.TestToken, ["Fine USD", "USDX"]);
const payer = account(1);
const merchant = account(2).address;
await mintTokens(anvil, contracts.TestToken, [usdc, fine], payer.address, 10n ** 24n);
const registryFile = await anvilRegistryFile(anvil, "checkout-invoices", [
  { symbol: "USDC", decimals: 6, contract: usdc },
  // A second token the registry declares with 18 decimals (the contract's own decimals() is never read).
  { symbol: "USDX", decimals: 18, contract: fine },
]);
const t = await createTestApp({ CHAIN_REGISTRY_FILE: registryFile, RATE_LIMIT_ENABLED: "false" });
t.closers.push(() => anvil.stop());
const team = await createTeamFixture(t, "Checkout invoices");
const catalog = await createCatalogFixture(t, team.teamId);
const sk = team.keys.secret;
// Every invoice event goes to an endpoint, so the outbox records what a settlement sends.
await t.call("POST", "/dashboard/webhooks/endpoints", { token: team.dashboardAdmin, body: { url: "https://example.com/invoices" } });

async function pay(amount: bigint, token: Address = usdc): Promise<Hex> {
  const hash = await anvil.client.writeContract({
    address: token,
    abi: erc20Abi,
    functionName: "transfer",
    args: [merchant, amount],
    account: payer,
    chain: foundry,
  });
  await anvil.client.waitForTransactionReceipt({ hash });
  return hash;
}
async function session(link: Record<string, unknown>) {
  const created = await t.call("POST", "/payment-links", {
    token: sk,
    body: { amount: "25000000", network: "anvil", acceptedToken: "USDC", recipientWallet: merchant, ...link },
  });
  expect(created.status).toBe(201);
  return (await t.call("POST", "/checkout-sessions", { token: sk, body: { paymentLinkId: created.body.paymentLink.id } })).body.checkoutSession;
}
const submit = (id: string, txHash: string) => t.call("POST", `/checkout-sessions/${id}/payments`, { token: sk, body: { txHash } });
const invoiceOf = async (sessionId: string) =>
  (await t.db.sql`select * from invoices where team_id = ${team.teamId} and source = 'checkout_session' and source_id = ${sessionId}`)[0];
const paymentsOf = (invoiceId: string) =>
  t.db
    .sql`select network, tx_hash, amount, token_symbol, payer, applied_micro, excess_micro, checkout_session_id from payments where invoice_id = ${invoiceId}`;
// Both are written in one transaction (their created_at ties): compared as a set.
const eventsOf = async (invoiceId: string) =>
  (await t.db.sql`select event_type from webhook_messages where team_id = ${team.teamId} and body like ${`%${invoiceId}%`}`)
    .map((m) => m.event_type)
    .sort();

describe("a paid checkout session's invoice", () => {
  test("company-less: PAID, for the payer's wallet, one line from the link's description, carrying the payment", async () => {
    const s = await session({ description: "Pro seats, January" });
    const hash = await pay(25_000_000n);
    expect((await submit(s.id, hash)).status).toBe(200);

    const invoice = (await invoiceOf(s.id))!;
    expect(invoice).toMatchObject({
      status: "PAID",
      currency: "USDC",
      network: "anvil",
      company_id: null,
      customer_wallet: payer.address,
      total: 25_000_000n,
      amount_paid: 25_000_000n,
      amount_outstanding: 0n,
      metadata: { checkoutSessionId: s.id, paymentLinkId: s.paymentLinkId },
    });
    expect(invoice.number).toMatch(/^INV-\d{6}$/);
    const lines = await t.db.sql`select description, quantity, unit_amount, tax_rate from invoice_lines where invoice_id = ${invoice.id}`;
    expect([...lines]).toEqual([{ description: "Pro seats, January", quantity: 1n, unit_amount: 25_000_000n, tax_rate: 0 }]);
    expect([...(await paymentsOf(invoice.id))]).toEqual([
      {
        network: "anvil",
        tx_hash: hash,
        amount: "25000000",
        token_symbol: "USDC",
        payer: payer.address,
        applied_micro: 25_000_000n,
        excess_micro: 0n,
        checkout_session_id: s.id,
      },
    ]);
    expect(await eventsOf(invoice.id)).toEqual(["invoice.issued", "invoice.paid"]);
  });

  test("a company's ADDON session: the invoice names the company and the add-on; an overpayment goes to its credit balance", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "invoice-buyer", catalog.planId);
    const s = await session({ purpose: "ADDON", addOnPlanId: catalog.addOnId, companyId });
    const hash = await pay(26_500_000n);
    expect((await submit(s.id, hash)).status).toBe(200);
    const invoice = (await invoiceOf(s.id))!;
    expect(invoice).toMatchObject({ status: "PAID", company_id: companyId, plan_id: catalog.addOnId, total: 25_000_000n, amount_paid: 25_000_000n });
    expect((await t.db.sql`select description from invoice_lines where invoice_id = ${invoice.id}`)[0]!.description).toBe("Add-on: Exports add-on");
    expect((await paymentsOf(invoice.id))[0]).toMatchObject({ amount: "26500000", applied_micro: 25_000_000n, excess_micro: 1_500_000n });
    const balance = await t.db.sql`select amount from customer_balance_entries where company_id = ${companyId}`;
    expect(balance.map((b) => b.amount)).toEqual([1_500_000n]);
  });

  test("a token finer than a micro-unit: the line is rounded down to the micro-unit, the payment keeps its exact token units", async () => {
    const amount = 25_000_000_000_000_000_123n; // 25.000000000000000123 USDX
    const s = await session({ amount: amount.toString(), acceptedToken: "USDX" });
    const hash = await pay(amount, fine);
    expect((await submit(s.id, hash)).status).toBe(200);
    const invoice = (await invoiceOf(s.id))!;
    expect(invoice).toMatchObject({ status: "PAID", currency: "USDX", total: 25_000_000n, amount_paid: 25_000_000n });
    expect((await paymentsOf(invoice.id))[0]).toMatchObject({ amount: amount.toString(), token_symbol: "USDX", excess_micro: 0n });
  });
});

describe("a settlement that rolls back", () => {
  afterEach(async () => {
    await t.db.sql`drop trigger if exists fail_paid_audit on audit_log`;
    await t.db.sql`drop function if exists fail_paid_audit()`;
  });

  test("leaves no invoice, no payment and no gap in the number series; the retry invoices it", async () => {
    const last = async () => (await t.db.sql`select max(sequence) as n from invoices where team_id = ${team.teamId}`)[0]!.n as bigint;
    const before = await last();
    // The session's audit entry is the settlement transaction's last write: failing it fails everything before it.
    await t.db.sql.unsafe(`
      create function fail_paid_audit() returns trigger language plpgsql as $$
      begin
        if new.action = 'checkout_session.paid' then raise exception 'injected failure'; end if;
        return new;
      end $$;
      create trigger fail_paid_audit before insert on audit_log for each row execute function fail_paid_audit();`);
    const s = await session({});
    const hash = await pay(25_000_000n);
    const failed = await submit(s.id, hash);
    expect(failed.status).toBe(500);
    expect(await invoiceOf(s.id)).toBeUndefined();
    expect((await t.db.sql`select count(*)::int as n from payments where tx_hash = ${hash}`)[0]!.n).toBe(0);
    expect(await last()).toBe(before);
    expect((await t.call("GET", `/checkout-sessions/${s.id}`, { token: team.keys.legacy })).body.checkoutSession.status).toBe("CONFIRMING");

    await t.db.sql`drop trigger fail_paid_audit on audit_log`;
    expect((await submit(s.id, hash)).status).toBe(200);
    const invoice = (await invoiceOf(s.id))!;
    expect(invoice.sequence).toBe(before + 1n);
    expect(invoice.status).toBe("PAID");
  });
});

describe("an invoice that cannot be made never undoes a proven payment", () => {
  test("an amount past the invoice range: the payment is recorded and the session PAID, the reason audited, no invoice", async () => {
    const s = await session({});
    const hash = await pay(10n ** 19n); // 10^13 USDC: more than an invoice holds (about 9.2 x 10^12)
    const answer = await submit(s.id, hash);
    expect([answer.status, answer.body.checkoutSession.status]).toEqual([200, "PAID"]);
    expect(await invoiceOf(s.id)).toBeUndefined();
    expect((await t.db.sql`select count(*)::int as n from payments where tx_hash = ${hash}`)[0]!.n).toBe(1);
    const [audit] = await t.db.sql`select details from audit_log where action = 'checkout_session.paid' and resource_id = ${s.id}`;
    expect(audit!.details.invoiceError).toContain("Validation failed");
  });

  test("a CREDITS settlement beside a plain credit grant of the same company waits in the same lock order: no deadlock", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "credits-lock-order", catalog.planId);
    const s = await session({ purpose: "CREDITS", creditAmount: "100", companyId });
    const hash = await pay(25_000_000n);
    const tenant = { teamId: team.teamId, environment: "development" as const };
    const actor = { kind: "test", id: "test", requestId: null };
    // The company holds credits already: a grant or a purchase locks its grants' rows.
    await t.db.sql.begin((tx) => grantCreditsInTx({ tx, tenant, actor, now: new Date(t.clock.now()) }, companyId, { amount: 5n }));
    // A grant in progress: the company's grants locked, its audit entry (the audit chain's lock) still to come.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const grant = t.db.sql.begin(async (tx) => {
      await lockCompanyGrants(tx, tenant, companyId, t.clock.now());
      await released;
      await recordAudit(tx, {
        ...tenant,
        actor: { kind: "test", id: "test", requestId: null },
        action: "credit.grant",
        resourceType: "test",
        resourceId: "x",
      });
    });
    const settled = submit(s.id, hash);
    await Bun.sleep(500); // the settlement reaches the grants' lock (and, before the fix, held the audit chain's)
    release();
    await grant;
    const answer = await settled;
    expect([answer.status, answer.body.checkoutSession?.status]).toEqual([200, "PAID"]);
    expect((await invoiceOf(s.id))!.status).toBe("PAID");
  });
});
