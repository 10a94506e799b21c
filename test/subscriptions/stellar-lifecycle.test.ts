/**
 * A subscription's life on Stellar (the Soroban RPC double, which decodes and checks every envelope) through
 * the API and the job queue: activation (and its retry under the same Idempotency-Key), two renewals by
 * transfer_from on the asset's contract, a renewal that fails once the payer has withdrawn its allowance
 * (PAST_DUE), then the mandate revoked and pulls stopped. At every step the chain (balances, the allowance
 * left and its last ledger, the pull transactions and their memos) and the database (invoices, payments,
 * mandate, subscription, company plan) agree. The chain's clock is its ledger sequence: it advances with the
 * service's clock at about five seconds a ledger.
 */
import { expect, test } from "bun:test";
import { Keypair, Transaction, TransactionBuilder } from "@stellar/stellar-sdk";
import { SECONDS_PER_LEDGER } from "../../src/chains/stellar/autopay";
import type { PayerConsent } from "../../src/modules/subscriptions/activation/payer-consent";
import { signConsent, stellarSigner } from "../helpers/payer-consent";
import { chainNowMs } from "../helpers/chains/stellar-rpc-node";
import { DAY_MS, PRICE_MICRO, subscriptionTeam } from "../helpers/subscription-service";
import { stellarSubscriptionService } from "../helpers/subscriptions";

const UNIT = 10_000_000n; // the asset's 7 decimals
/** Ledgers close every LEDGER_MS while the double holds transactions: Stellar's ~5 s and its 20 s chain job deadline, scaled down. */
const LEDGER_MS = 1_000;
const { s, service, t } = await stellarSubscriptionService(1_000n * UNIT, { CHAIN_JOB_TIMEOUT_MS: String(4 * LEDGER_MS) });
const payer = s.payer.publicKey();
/** The payer's wallet, which signs the activation's consent (SEP-53). */
const payerWallet = stellarSigner(s.payer);
const payee = s.payee.publicKey();
const operator = s.operator.publicKey();
/** The plan's 10 USDC in the asset's units. */
const PRICE = 10n * UNIT;
const LEDGERS_PER_DAY = 86_400 / SECONDS_PER_LEDGER;

/** The service's clock and the ledger sequence move together. */
function elapse(ms: number) {
  t.clock.advance(ms);
  s.double.closeLedger(Math.round(ms / 1000 / SECONDS_PER_LEDGER));
}

const allowance = () => s.double.allowance(s.asset, payer, operator);
const balance = (holder: string) => s.double.balance(s.asset, holder);

/** The landed pull `hash`: a transaction of the operator carrying `reference` as its hash memo. */
function expectPull(hash: string, reference: string) {
  const record = s.double.node.records.get(hash);
  expect(record?.status).toBe("SUCCESS");
  const tx = TransactionBuilder.fromXDR(record!.envelopeXdr, s.double.passphrase);
  if (!(tx instanceof Transaction)) throw new Error("a pull is a plain transaction, not a fee bump");
  expect(tx.source).toBe(operator);
  expect(tx.memo.type).toBe("hash");
  expect(`0x${Buffer.from(tx.memo.value as Buffer).toString("hex")}`).toBe(reference);
}

/** The chain and the database agree after `pulls` pulls of the price. */
async function expectInStep(pulls: number) {
  expect(balance(payer)).toBe(1_000n * UNIT - PRICE * BigInt(pulls));
  expect(balance(payee)).toBe(PRICE * BigInt(pulls));
  const mandate = await service.mandate();
  expect(mandate.remaining_amount).toBe(String(200n * UNIT - PRICE * BigInt(pulls)));
  // What is left of the allowance is the mandate's remaining amount.
  expect(allowance()?.amount).toBe(BigInt(mandate.remaining_amount));
  const payments = await service.payments();
  expect(payments.map((p) => p.amount)).toEqual(Array(pulls).fill(String(PRICE)));
  expect(new Set(payments.map((p) => p.tx_hash)).size).toBe(pulls);
  const paid = (await service.invoices()).filter((i) => i.status === "PAID");
  expect(paid.map((i) => [i.total, i.amount_paid])).toEqual(Array(pulls).fill([PRICE_MICRO, PRICE_MICRO]));
}

test("activation, two renewals, a failed renewal and a revoked mandate, the RPC double and database in step", async () => {
  // The payer approves the operator for 200 USDC until 120 days of ledgers from now.
  await s.approve(200n * UNIT, { ledgers: 120 * LEDGERS_PER_DAY });
  const liveUntil = allowance()!.liveUntil;

  const sends = s.double.calls("sendTransaction");
  const res = await service.activate(payerWallet, "activate-acme-stellar");
  expect(res.status).toBe(200);
  const { tokenId, txHash, companyId, planId, paymentAccount } = res.body.data;
  expect({ planId, paymentAccount }).toEqual({ planId: "pro", paymentAccount: payer });
  expect(companyId).toMatch(/^comp_/);
  expect(s.double.calls("sendTransaction")).toBe(sends + 1);
  let sub = await service.subscription();
  // Stellar has no NFT the SAC knows: the subscription token is the activation's reference, the pull's memo.
  expect(tokenId).toBe(sub.activation_reference);
  expectPull(txHash, tokenId);
  expect({ status: sub.status, token_id: sub.token_id, activation_tx_hash: sub.activation_tx_hash, period_index: sub.period_index }).toEqual({
    status: "ACTIVE",
    token_id: tokenId,
    activation_tx_hash: txHash,
    period_index: 0,
  });
  const mandate = await service.mandate();
  expect(mandate.authorized_amount).toBe(String(200n * UNIT));
  // The allowance's last ledger as a time, on the early side; the allowance itself is unchanged by pulls.
  const expiresAt = chainNowMs() + (liveUntil - s.double.node.latest) * SECONDS_PER_LEDGER * 1000;
  expect(Math.abs((mandate.expires_at as Date).getTime() - expiresAt)).toBeLessThan(60_000);
  expect((await service.invoices()).map((i) => [i.status, i.paid_at])).toEqual([["PAID", new Date(t.clock.now())]]);
  expect(await service.companyPlan()).toBe(service.plan.id);
  await expectInStep(1);

  // The same key again: the same activation, and nothing is sent.
  const again = await service.activate(payerWallet, "activate-acme-stellar");
  expect(again.status).toBe(200);
  expect(again.body.data).toEqual(res.body.data);
  expect(s.double.calls("sendTransaction")).toBe(sends + 1);
  await expectInStep(1);

  const status = await service.mandateStatus(mandate.id);
  expect(status.status).toBe(200);
  expect(status.body).toMatchObject({
    id: mandate.id,
    status: "ACTIVE",
    authorizedAmount: String(200n * UNIT),
    remainingAmount: String(190n * UNIT),
    payerWallet: payer,
    recipientWallet: payee,
    expiresAt: (mandate.expires_at as Date).toISOString(),
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
    const invoices = await service.invoices();
    expect(invoices.map((i) => i.status)).toEqual(Array(renewal + 1).fill("PAID"));
    expect(invoices.at(-1)!.paid_at).toEqual(new Date(t.clock.now()));
    const charge = (await service.charges()).at(-1)!;
    expect(charge).toMatchObject({ kind: "renewal", status: "succeeded", amount: String(PRICE) });
    expectPull(charge.tx_hash!, charge.reference);
    await expectInStep(renewal + 1);
    expect(allowance()!.liveUntil).toBe(liveUntil);
  }

  // The payer withdraws its allowance (approves 0): the next renewal is refused before anything is sent.
  await s.approve(0n);
  expect(allowance()?.amount).toBe(0n);
  const sendsBefore = s.double.calls("sendTransaction");
  elapse(31 * DAY_MS);
  expect((await service.runRenewals()).failed).toEqual([]);
  sub = await service.subscription();
  expect({ status: sub.status, period_index: sub.period_index, dunning_attempts: sub.dunning_attempts }).toEqual({
    status: "PAST_DUE",
    period_index: 3,
    dunning_attempts: 1,
  });
  // A month on, even the zero approval's ledger entry is gone (a temporary entry lives to its last ledger).
  expect((await service.charges()).at(-1)).toMatchObject({ kind: "renewal", status: "failed", failure_reason: "autopay_not_installed" });
  const open = (await service.invoices()).at(-1)!;
  expect({ status: open.status, amount_paid: open.amount_paid }).toEqual({ status: "ISSUED", amount_paid: 0n });
  expect(s.double.calls("sendTransaction")).toBe(sendsBefore);
  expect(balance(payer)).toBe(1_000n * UNIT - PRICE * 3n);
  expect(balance(payee)).toBe(PRICE * 3n);
  // The mandate keeps what the service may still pull; the chain now allows nothing.
  expect((await service.mandate()).remaining_amount).toBe(String(170n * UNIT));
  expect(await service.companyPlan()).toBe(service.plan.id);

  const revoked = await service.revokeMandate(mandate.id);
  expect(revoked.status).toBe(200);
  expect(revoked.body).toEqual({ revoked: true, mandateId: mandate.id, status: "REVOKED" });
  const after = await service.mandateStatus(mandate.id);
  expect(after.body).toMatchObject({ id: mandate.id, status: "REVOKED", remainingAmount: String(170n * UNIT) });
  const twice = await service.revokeMandate(mandate.id);
  expect(twice.status).toBe(409);

  // The operator cannot withdraw a Stellar allowance: the on-chain revoke job sends nothing.
  const revokeJobs = await service.runRenewals();
  expect(revokeJobs.completed.map((j) => j.task)).toContain("subscriptions.revoke_onchain");
  expect(s.double.calls("sendTransaction")).toBe(sendsBefore);

  // Even after the payer approves again, the dunning retry pulls nothing through a revoked mandate.
  await s.approve(50n * UNIT, { ledgers: 30 * LEDGERS_PER_DAY });
  const approvals = s.double.calls("sendTransaction");
  elapse(DAY_MS);
  expect((await service.runRenewals()).failed).toEqual([]);
  sub = await service.subscription();
  expect({ status: sub.status, dunning_attempts: sub.dunning_attempts }).toEqual({ status: "PAST_DUE", dunning_attempts: 2 });
  expect(s.double.calls("sendTransaction")).toBe(approvals);
  expect(allowance()?.amount).toBe(50n * UNIT);
  expect(balance(payee)).toBe(PRICE * 3n);
  expect(await service.payments()).toHaveLength(3);
});

test("renewals due at once, run by concurrent jobs: one pull per ledger by the operator, each within the chain job's deadline", async () => {
  const companies = ["co-1", "co-2", "co-3", "co-4"];
  // The double's ledgers close at the wall clock's pace from the test's start, which the service's clock has
  // left behind by the months the first test moved it: approvals run 60 days past the service's now, as the estimate from the
  // last ledger's close time reads them.
  const ahead = Math.ceil((t.clock.now() - chainNowMs()) / 1000 / SECONDS_PER_LEDGER);
  for (const company of companies) {
    const wallet = s.newPayer(100n * UNIT);
    await s.approve(100n * UNIT, { payer: wallet, ledgers: 60 * LEDGERS_PER_DAY + ahead });
    const res = await service.activate(stellarSigner(wallet), `activate-${company}`, company);
    expect(res.status).toBe(200);
  }
  const payeeBefore = balance(payee)!;

  // From here transactions wait for the next ledger close, as on the network, where the operator's account
  // gets one transaction into each ledger.
  s.double.node.hold = true;
  const ticker = setInterval(() => s.double.closeLedger(), LEDGER_MS);
  try {
    elapse(31 * DAY_MS);
    const ran = await service.runRenewals({ concurrency: 4 });
    expect(ran.failed).toEqual([]);
  } finally {
    clearInterval(ticker);
    s.double.node.hold = false;
  }

  const ledgers = new Set<number>();
  for (const company of companies) {
    const sub = await service.subscription(company);
    expect({ company, status: sub.status, period_index: sub.period_index }).toEqual({ company, status: "ACTIVE", period_index: 1 });
    const charges = await service.charges(company);
    expect(charges.map((c) => [c.kind, c.status])).toEqual([
      ["activation", "succeeded"],
      ["renewal", "succeeded"],
    ]);
    expectPull(charges[1]!.tx_hash!, charges[1]!.reference);
    ledgers.add(s.double.node.records.get(charges[1]!.tx_hash!)!.ledger);
    expect((await service.invoices(company)).map((i) => i.status)).toEqual(["PAID", "PAID"]);
    expect((await service.mandate(company)).remaining_amount).toBe(String(80n * UNIT));
    expect(s.double.allowance(s.asset, sub.payment_account, operator)?.amount).toBe(80n * UNIT);
  }
  expect(ledgers.size).toBe(companies.length);
  expect(balance(payee)).toBe(payeeBefore + PRICE * BigInt(companies.length));
});

test("another team naming a wallet that approved the operator for this team: 400 without the payer's consent to it, the chain not even asked", async () => {
  // This team's customer approves the operator (the spender every team shares) and subscribes here; the
  // approval's ledgers run past the service's clock, which the first test moved months ahead of the double's.
  const ahead = Math.ceil((t.clock.now() - chainNowMs()) / 1000 / SECONDS_PER_LEDGER);
  const customer = s.newPayer(100n * UNIT);
  await s.approve(100n * UNIT, { payer: customer, ledgers: 30 * LEDGERS_PER_DAY + ahead });
  const wallet = stellarSigner(customer);
  expect((await service.activate(wallet, "activate-customer", "customer-co")).status).toBe(200);
  const before = { balance: balance(customer.publicKey()), allowance: s.double.allowance(s.asset, customer.publicKey(), operator) };

  // Team B, another tenant of the same service with its own settlement wallet, names that wallet.
  const payeeB = Keypair.random().publicKey();
  s.double.createAccount(payeeB);
  s.double.fund(s.asset, payeeB, 0n);
  const teamB = await subscriptionTeam(t, s.network, payeeB);
  const now = new Date(t.clock.now());
  const attempts: [string, PayerConsent | null, string][] = [
    ["no consent", null, "body.payerConsent"],
    ["the consent the customer gave this team", await service.consentOf(wallet, "customer-co"), "body.payerConsent.signature"],
    [
      "team B's terms signed by another key",
      await signConsent(stellarSigner(Keypair.random()), { ...teamB.consentTerms("thief-co"), payer: wallet.address }, now),
      "body.payerConsent.signature",
    ],
  ];
  const chainCalls = () => ["getNetwork", "getLedgerEntries", "simulateTransaction", "sendTransaction"].map((m) => s.double.calls(m));
  const callsBefore = chainCalls();
  for (const [what, consent, field] of attempts) {
    const res = await teamB.activate(wallet, `steal-${what}`, "thief-co", { consent });
    expect({ what, status: res.status, error: res.body.error, fields: Object.keys(res.body.details ?? {}) }).toEqual({
      what,
      status: 400,
      error: "Validation failed",
      fields: [field],
    });
    // The detail shows the text the customer would have to sign: it names team B's wallet, not this team's.
    expect(res.body.details[field]).toContain(`\nPayee: ${payeeB}\n`);
  }
  // Refused before any chain call: nothing read, nothing sent, nothing moved, nothing written for team B.
  expect(chainCalls()).toEqual(callsBefore);
  expect({ balance: balance(customer.publicKey()), allowance: s.double.allowance(s.asset, customer.publicKey(), operator) }).toEqual(before);
  expect(balance(payeeB)).toBe(0n);
  expect(await teamB.subscription("thief-co")).toBeUndefined();
  expect(await t.db.sql`select id from companies where team_id = ${teamB.team.teamId}`).toHaveLength(0);

  // Even the customer's own consent (SEP-53) naming team B's wallet does not open a second subscription on the account
  // whose one allowance already pays this team's: 409, and the answer says nothing of the other tenant.
  const consented = await teamB.activate(wallet, "consented", "thief-co");
  expect(consented.body).toEqual({ error: expect.any(String), code: "payment_account_in_use" });
  expect(consented.body.error).not.toContain(service.payee);
  expect(balance(payeeB)).toBe(0n);
});
