/**
 * A subscription's life on Solana (litesvm behind a JSON-RPC node) through the API and the job queue:
 * activation (and its retry under the same Idempotency-Key), two renewals through the operator's SPL
 * delegate, a renewal that fails once the payer has spent its balance (PAST_DUE), then the mandate revoked
 * and pulls stopped. At every step the chain (token balances, the delegate and what is left of its
 * approval, the 0-decimal subscription mint and who holds it) and the database (invoices, payments,
 * mandate, subscription, company plan) agree.
 */
import { expect, test } from "bun:test";
import { Keypair, PublicKey } from "@solana/web3.js";
import type { PayerConsent } from "../../src/modules/subscriptions/activation/payer-consent";
import { signConsent, solanaSigner } from "../helpers/payer-consent";
import { usdc } from "../helpers/chains/solana-subscriptions";
import { DAY_MS, PRICE_MICRO, subscriptionTeam } from "../helpers/subscription-service";
import { solanaSubscriptionService } from "../helpers/subscriptions";

const { chain, service, t, elapse } = await solanaSubscriptionService({ balance: usdc(1_000), approved: usdc(500) });
const payer = chain.payer.publicKey;
/** The payer's wallet, which signs the activation's consent. */
const payerWallet = solanaSigner(chain.payer);
const payee = chain.payee.publicKey;
/** The plan's 10 USDC in the mint's 6 decimals. */
const PRICE = usdc(10);

const delegation = () => {
  const account = chain.tokenAccount(payer)!;
  return { delegate: account.delegate?.toBase58() ?? null, delegatedAmount: account.delegatedAmount };
};

/** The chain and the database agree after `pulls` pulls of the price. */
async function expectInStep(pulls: number) {
  expect(chain.balance(payer)).toBe(usdc(1_000) - PRICE * BigInt(pulls));
  expect(chain.balance(payee)).toBe(PRICE * BigInt(pulls));
  const mandate = await service.mandate();
  expect(mandate.remaining_amount).toBe(String(usdc(500) - PRICE * BigInt(pulls)));
  // What is left of the delegate's approval is the mandate's remaining amount.
  expect(delegation()).toEqual({ delegate: chain.operator.publicKey.toBase58(), delegatedAmount: BigInt(mandate.remaining_amount) });
  // Every pull is one payment of the price, each its own transaction, one per PAID invoice.
  const payments = await service.payments();
  expect(payments.map((p) => p.amount)).toEqual(Array(pulls).fill(String(PRICE)));
  expect(new Set(payments.map((p) => p.tx_hash)).size).toBe(pulls);
  const paid = (await service.invoices()).filter((i) => i.status === "PAID");
  expect(paid.map((i) => [i.total, i.amount_paid])).toEqual(Array(pulls).fill([PRICE_MICRO, PRICE_MICRO]));
}

/** The subscription token: a 0-decimal mint of supply 1 with no mint authority, its one token in the payer's account. */
function expectTokenHeld(tokenId: string) {
  const mint = chain.readMint(new PublicKey(tokenId));
  expect({ supply: mint.supply, decimals: mint.decimals, mintAuthority: mint.mintAuthority }).toEqual({
    supply: 1n,
    decimals: 0,
    mintAuthority: null,
  });
  const held = chain.tokenAccount(payer, mint.address);
  expect({ owner: held?.owner.toBase58(), amount: held?.amount }).toEqual({ owner: payer.toBase58(), amount: 1n });
}

test("activation, two renewals, a failed renewal and a revoked mandate, litesvm and database in step", async () => {
  const res = await service.activate(payerWallet, "activate-acme-solana");
  expect(res.status).toBe(200);
  const { tokenId, txHash, companyId, planId, paymentAccount } = res.body.data;
  expect({ planId, paymentAccount }).toEqual({ planId: "pro", paymentAccount: payer.toBase58() });
  expect(companyId).toMatch(/^comp_/);
  // The answer names the transaction the node executed and the mint it created.
  expect(txHash).toBe(chain.rpc.executed.at(-1)!.signature);
  expectTokenHeld(tokenId);
  let sub = await service.subscription();
  expect({ status: sub.status, token_id: sub.token_id, activation_tx_hash: sub.activation_tx_hash, period_index: sub.period_index }).toEqual({
    status: "ACTIVE",
    token_id: tokenId,
    activation_tx_hash: txHash,
    period_index: 0,
  });
  expect((await service.mandate()).authorized_amount).toBe(String(usdc(500)));
  // Paid at the service's time, which the test's clock sets.
  expect((await service.invoices()).map((i) => [i.status, i.paid_at])).toEqual([["PAID", new Date(t.clock.now())]]);
  expect(await service.companyPlan()).toBe(service.plan.id);
  await expectInStep(1);

  // The same key again: the same activation, and the node executes nothing.
  const executed = chain.rpc.executed.length;
  const again = await service.activate(payerWallet, "activate-acme-solana");
  expect(again.status).toBe(200);
  expect(again.body.data).toEqual(res.body.data);
  expect(chain.rpc.executed.length).toBe(executed);
  await expectInStep(1);

  const mandateId = (await service.mandate()).id;
  const status = await service.mandateStatus(mandateId);
  expect(status.status).toBe(200);
  expect(status.body).toMatchObject({
    id: mandateId,
    status: "ACTIVE",
    authorizedAmount: String(usdc(500)),
    remainingAmount: String(usdc(490)),
    payerWallet: payer.toBase58(),
    recipientWallet: payee.toBase58(),
    expiresAt: null, // an SPL delegate has no expiry
  });

  for (let renewal = 1; renewal <= 2; renewal++) {
    const before = sub.current_period_end as Date;
    elapse(31 * DAY_MS);
    const ran = await service.runRenewals();
    expect(ran.failed).toEqual([]);
    sub = await service.subscription();
    expect({ status: sub.status, period_index: sub.period_index, dunning_attempts: sub.dunning_attempts }).toEqual({
      status: "ACTIVE",
      period_index: renewal,
      dunning_attempts: 0,
    });
    expect(sub.current_period_start).toEqual(before);
    expect((await service.invoices()).map((i) => i.status)).toEqual(Array(renewal + 1).fill("PAID"));
    expect((await service.invoices()).at(-1)!.paid_at).toEqual(new Date(t.clock.now()));
    // The renewal's pull is the node's last transaction, and the charge row names it.
    const charge = (await service.charges()).at(-1)!;
    expect(charge).toMatchObject({ kind: "renewal", status: "succeeded", amount: String(PRICE), tx_hash: chain.rpc.executed.at(-1)!.signature });
    await expectInStep(renewal + 1);
    expectTokenHeld(tokenId);
  }

  // The payer spends its whole balance elsewhere: the next renewal is refused on chain and nothing moves.
  chain.transfer(chain.payer, chain.issuer.publicKey, chain.balance(payer));
  const executedBefore = chain.rpc.executed.length;
  elapse(31 * DAY_MS);
  expect((await service.runRenewals()).failed).toEqual([]);
  sub = await service.subscription();
  expect({ status: sub.status, period_index: sub.period_index, dunning_attempts: sub.dunning_attempts }).toEqual({
    status: "PAST_DUE",
    period_index: 3,
    dunning_attempts: 1,
  });
  expect((await service.charges()).at(-1)).toMatchObject({ kind: "renewal", status: "failed", failure_reason: "insufficient_balance" });
  const open = (await service.invoices()).at(-1)!;
  expect({ status: open.status, amount_paid: open.amount_paid }).toEqual({ status: "ISSUED", amount_paid: 0n });
  expect(chain.rpc.executed.length).toBe(executedBefore);
  expect(chain.balance(payer)).toBe(0n);
  expect(chain.balance(payee)).toBe(PRICE * 3n);
  expect(delegation().delegatedAmount).toBe(usdc(470));
  expect((await service.mandate()).remaining_amount).toBe(String(usdc(470)));
  expect(await service.companyPlan()).toBe(service.plan.id); // dunning keeps the plan until the last retry

  // The mandate is revoked: the answer, its status, and a second revoke refused.
  const revoked = await service.revokeMandate(mandateId);
  expect(revoked.status).toBe(200);
  expect(revoked.body).toEqual({ revoked: true, mandateId, status: "REVOKED" });
  const after = await service.mandateStatus(mandateId);
  expect(after.body).toMatchObject({ id: mandateId, status: "REVOKED", authorizedAmount: String(usdc(500)), remainingAmount: String(usdc(470)) });
  const twice = await service.revokeMandate(mandateId);
  expect(twice.status).toBe(409);
  expect(twice.body.error).toBeString();

  // Only the owner can withdraw an SPL delegate: the on-chain revoke job sends nothing, the delegate stays.
  const revokeJobs = await service.runRenewals();
  expect(revokeJobs.completed.map((j) => j.task)).toContain("subscriptions.revoke_onchain");
  expect(chain.rpc.executed.length).toBe(executedBefore);
  expect(delegation().delegatedAmount).toBe(usdc(470));

  // Even with money back in the wallet, the dunning retry pulls nothing through a revoked mandate.
  chain.transfer(chain.issuer, payer, usdc(100));
  elapse(DAY_MS);
  expect((await service.runRenewals()).failed).toEqual([]);
  sub = await service.subscription();
  expect({ status: sub.status, dunning_attempts: sub.dunning_attempts }).toEqual({ status: "PAST_DUE", dunning_attempts: 2 });
  expect(chain.rpc.executed.length).toBe(executedBefore);
  expect(chain.balance(payer)).toBe(usdc(100));
  expect(chain.balance(payee)).toBe(PRICE * 3n);
  expect(await service.payments()).toHaveLength(3);
});

test("renewals due at once, run by concurrent jobs (Solana needs no operator lane): each lands as its own transaction", async () => {
  const companies = ["co-1", "co-2", "co-3", "co-4"];
  const wallets = new Map<string, PublicKey>();
  for (const company of companies) {
    const wallet = chain.newPayer(usdc(100), usdc(100));
    wallets.set(company, wallet.publicKey);
    expect((await service.activate(solanaSigner(wallet), `activate-${company}`, company)).status).toBe(200);
  }
  const payeeBefore = chain.balance(payee);
  elapse(31 * DAY_MS);
  const ran = await service.runRenewals({ concurrency: 4 });
  expect(ran.failed).toEqual([]);
  const signatures = new Set<string>();
  for (const company of companies) {
    const sub = await service.subscription(company);
    expect({ company, status: sub.status, period_index: sub.period_index }).toEqual({ company, status: "ACTIVE", period_index: 1 });
    const charges = await service.charges(company);
    expect(charges.map((c) => [c.kind, c.status])).toEqual([
      ["activation", "succeeded"],
      ["renewal", "succeeded"],
    ]);
    signatures.add(charges[1]!.tx_hash!);
    expect((await service.mandate(company)).remaining_amount).toBe(String(usdc(80)));
    expect(chain.tokenAccount(wallets.get(company)!)?.delegatedAmount).toBe(usdc(80));
    expect(chain.balance(wallets.get(company)!)).toBe(usdc(80));
  }
  expect(signatures.size).toBe(companies.length);
  expect(chain.balance(payee)).toBe(payeeBefore + PRICE * BigInt(companies.length));
});

test("another team naming a wallet that approved the operator for this team: 400 without the payer's consent to it, nothing pulled", async () => {
  // This team's customer approves the operator (the delegate every team shares) and subscribes here.
  const customer = chain.newPayer(usdc(100), usdc(100));
  const wallet = solanaSigner(customer);
  expect((await service.activate(wallet, "activate-customer", "customer-co")).status).toBe(200);
  const before = { balance: chain.balance(customer.publicKey), delegated: chain.tokenAccount(customer.publicKey)!.delegatedAmount };

  // Team B, another tenant of the same service with its own settlement wallet, names that wallet.
  const payeeB = Keypair.generate().publicKey;
  const teamB = await subscriptionTeam(t, chain.network, payeeB.toBase58());
  const attacker = solanaSigner(Keypair.generate());
  const now = new Date(t.clock.now());
  const attempts: [string, PayerConsent | null, string][] = [
    ["no consent", null, "body.payerConsent"],
    ["the consent the customer gave this team", await service.consentOf(wallet, "customer-co"), "body.payerConsent.signature"],
    [
      "team B's terms signed by another key",
      await signConsent(attacker, { ...teamB.consentTerms("thief-co"), payer: wallet.address }, now),
      "body.payerConsent.signature",
    ],
  ];
  const executed = chain.rpc.executed.length;
  for (const [what, consent, field] of attempts) {
    const res = await teamB.activate(wallet, `steal-${what}`, "thief-co", { consent });
    expect({ what, status: res.status, error: res.body.error, fields: Object.keys(res.body.details ?? {}) }).toEqual({
      what,
      status: 400,
      error: "Validation failed",
      fields: [field],
    });
    // The detail shows the text the customer would have to sign: it names team B's wallet, not this team's.
    expect(res.body.details[field]).toContain(`\nPayee: ${payeeB.toBase58()}\n`);
  }
  // Nothing sent, nothing moved, nothing written for team B.
  expect(chain.rpc.executed.length).toBe(executed);
  expect({ balance: chain.balance(customer.publicKey), delegated: chain.tokenAccount(customer.publicKey)!.delegatedAmount }).toEqual(before);
  expect(chain.balance(payeeB)).toBe(0n);
  expect(await teamB.subscription("thief-co")).toBeUndefined();
  expect(await t.db.sql`select id from companies where team_id = ${teamB.team.teamId}`).toHaveLength(0);

  // Even the customer's own consent naming team B's wallet does not open a second subscription on the account whose
  // one delegate already pays this team's: 409, and the answer says nothing of the other tenant.
  const consented = await teamB.activate(wallet, "consented", "thief-co");
  expect(consented.body).toEqual({ error: expect.any(String), code: "payment_account_in_use" });
  expect(consented.body.error).not.toContain(service.payee);
  expect(chain.balance(payeeB)).toBe(0n);
});
