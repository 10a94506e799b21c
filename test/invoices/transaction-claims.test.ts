/**
 * One on-chain transaction proves one thing (src/modules/transaction-claims/repo.ts), even when a refund and an invoice payment
 * proof (or a checkout payment) of the same hash are recorded at the same moment: their rows go to two tables whose
 * unique indexes cannot see each other, so only the transaction lock both take first keeps the second from committing too.
 * The race is made deterministic: the test holds the tenant's audit-chain lock, which both writers need after
 * their insert, so each is stopped mid-transaction (its row written, not committed) until both are under way.
 * The chain is a stub that proves whatever is asked: what is tested is the recording, not the verification.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { issuedInvoice, line, payInvoice, TEST_ACTOR } from "../helpers/invoices";
import type { PaymentExpectation, PaymentVerdict } from "../../src/chains/types";
import type { ChainPool } from "../../src/chains/pool";
import { applyVerdict, submitPayment } from "../../src/modules/payments/settle";
import { proveInvoicePayment } from "../../src/modules/invoices/payments/prove";
import { refundInvoice } from "../../src/modules/invoices/refunds/refund";
import type { Tenant } from "../../src/lib/tenant";

const NETWORK = "base-sepolia";
const SETTLEMENT_WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";
const CUSTOMER_WALLET = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const USDC = 1_000_000n;

const t = await createTestApp();
const sql = t.db.sql;
const team = await createTeamFixture(t, "Claims");
const tenant: Tenant = { teamId: team.teamId, environment: "development" };
await sql`insert into settlement_wallets (team_id, environment, network, wallet, tokens)
          values (${tenant.teamId}, ${tenant.environment}, ${NETWORK}, ${SETTLEMENT_WALLET}, ${["USDC"]})`;

/** Proves any expectation at once: a transfer of the asked amount, paid by the settlement wallet from its own balance. */
const provingPool = {
  verifyPayment: async (e: PaymentExpectation): Promise<PaymentVerdict> => ({
    ok: true,
    transfers: [{ transferIndex: 0, amount: e.amount, payer: SETTLEMENT_WALLET, payerDebited: true }],
    blockNumber: 1n,
    blockHash: `0x${"ab".repeat(32)}`,
  }),
} as unknown as ChainPool;
const deps = { sql, registry: t.config.chains, pool: provingPool };
const now = () => new Date(t.clock.now());
const randomHash = () => `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

/** Holds the tenant's audit-chain lock (sql/functions/audit_log_link.sql) until the returned release is called. */
async function holdAuditChain(): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const done = sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(${`audit-chain/${tenant.teamId}/${tenant.environment}`}, 0))`;
    held();
    await released;
  });
  await holding;
  return async () => {
    release();
    await done;
  };
}

/** Waits until `n` sessions of this database wait for an advisory lock. */
async function waitersReach(n: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const [row] = await sql`select count(*)::int as n from pg_locks
                            where locktype = 'advisory' and not granted
                              and database = (select oid from pg_database where datname = current_database())`;
    if (row!.n >= n) return;
    await Bun.sleep(10);
  }
  throw new Error(`fewer than ${n} transactions ever waited`);
}

const recordedWith = async (hash: string) => {
  const [row] = await sql`select (select count(*)::int from refunds where tx_hash = ${hash}) as refunds,
                                 (select count(*)::int from payments where tx_hash = ${hash}) as payments`;
  return { refunds: row!.refunds, payments: row!.payments };
};

/** Runs `first`, and once it is stopped mid-transaction by the held audit chain, `second`; then lets both finish. */
async function race(first: () => Promise<unknown>, second: () => Promise<unknown>): Promise<PromiseSettledResult<unknown>[]> {
  const release = await holdAuditChain();
  try {
    const started = [first()];
    await waitersReach(1); // the first has written its row and waits for the audit chain
    started.push(second());
    await waitersReach(2); // the second waits too: for the transaction lock (or, without it, for the audit chain)
    await release();
    return await Promise.allSettled(started);
  } finally {
    await release();
  }
}

async function paidInvoiceToRefund() {
  const invoice = await issuedInvoice(sql, t.config.chains, tenant, now(), [line(40n * USDC)], { network: NETWORK });
  await payInvoice(sql, t.config.chains, tenant, now(), invoice.id, 40n * USDC, NETWORK);
  return invoice.id;
}
const refundWith = (invoiceId: string, hash: string) => () =>
  refundInvoice(deps, { tenant, actor: TEST_ACTOR, now: now() }, invoiceId, {
    amount: "15",
    reason: "Outage",
    txHash: hash,
    recipientWallet: CUSTOMER_WALLET,
  });

describe("a refund and an invoice payment proof of one transaction, at the same moment", () => {
  for (const first of ["refund", "payment proof"] as const) {
    test(`the ${first} under way first is recorded; the other is refused as replayed, recording nothing`, async () => {
      const refunded = await paidInvoiceToRefund();
      const payable = await issuedInvoice(sql, t.config.chains, tenant, now(), [line(15n * USDC)], { network: NETWORK });
      const hash = randomHash();
      const refund = refundWith(refunded, hash);
      const proof = () => proveInvoicePayment(deps, { tenant, actor: TEST_ACTOR, now: now() }, payable.id, { txHash: hash, network: NETWORK });
      const outcomes = first === "refund" ? await race(refund, proof) : await race(proof, refund);
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected"]);
      const refusal = (outcomes[1] as PromiseRejectedResult).reason;
      expect(refusal.code).toBe(first === "refund" ? "payment_replayed" : "refund_replayed");
      expect(await recordedWith(hash)).toEqual(first === "refund" ? { refunds: 1, payments: 0 } : { refunds: 0, payments: 1 });
    });
  }
});

test("a refund and a checkout payment of one transaction, at the same moment: the refund under way first is recorded, the session reopens", async () => {
  const link = await t.call("POST", "/payment-links", {
    token: team.keys.secret,
    body: { amount: "15000000", network: NETWORK, acceptedToken: "USDC", recipientWallet: SETTLEMENT_WALLET },
  });
  const created = await t.call("POST", "/checkout-sessions", { token: team.keys.secret, body: { paymentLinkId: link.body.paymentLink.id } });
  const sessionId: string = created.body.checkoutSession.id;
  const hash = randomHash();
  // Submitted while the chain says "not final yet": the session waits on the hash (CONFIRMING), as the sweeper finds it.
  const waiting = { verifyPayment: async () => ({ ok: false, reason: "not_final", detail: "1 of 3 confirmations" }) } as unknown as ChainPool;
  const submitted = await submitPayment({ ...t.deps.settlement, pool: waiting }, { tenant, actor: TEST_ACTOR, now: now() }, sessionId, hash);
  expect(submitted.kind).toBe("pending");
  const refunded = await paidInvoiceToRefund();
  const proven: PaymentVerdict = {
    ok: true,
    transfers: [{ transferIndex: 0, amount: 15_000_000n, payer: CUSTOMER_WALLET, payerDebited: true }],
    blockNumber: 1n,
    blockHash: null,
  };
  const settle = () => applyVerdict(t.deps.settlement, { tenant, actor: TEST_ACTOR, now: now() }, sessionId, { txHash: hash, verdict: proven });
  const outcomes = await race(refundWith(refunded, hash), settle);
  expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled"]);
  expect((outcomes[1] as PromiseFulfilledResult<{ kind: string; session: { status: string } }>).value).toMatchObject({
    kind: "replayed",
    session: { status: "PENDING" },
  });
  expect(await recordedWith(hash)).toEqual({ refunds: 1, payments: 0 });
});
