/**
 * What the reports sum, written at fixed instants of the test clock (never today's date): metered usage through
 * POST /usage/consume and POST /events, invoices paid through the invoice service, a refund and a credit note,
 * and subscription charges as the renewal job leaves them. Shared by the API test and the overview's browser test.
 */
import { expect } from "bun:test";
import type { TestApp } from "../helpers/app";
import { issuedInvoice, line, payInvoice } from "../helpers/invoices";
import { chainReference, subscriptionFixture, txHash } from "../helpers/subscription-rows";
import { newId } from "../../src/lib/ids";
import type { Tenant } from "../../src/lib/tenant";

/** The instant the reports are read at: usage defaults to 2026-02-14..2026-03-15, months to 2025-04..2026-03. */
export const NOW = "2026-03-15T12:00:00Z";
export const at = (t: TestApp, iso: string) => t.clock.set(Date.parse(iso));

async function consume(t: TestApp, key: string, company: string, feature: string, quantity: number, expected = 200) {
  const res = await t.call("POST", "/usage/consume", { token: key, body: { company, feature, quantity } });
  expect(res.status).toBe(expected);
}

/**
 * api-calls: 4 units on 03-10 (3 consumed, one track event), 5 at the last second of 03-12, 2 at the first of
 * 03-13; `also` (a featureKey) 7 units on 03-13. A refusal (the disabled flag `beta`) is not usage.
 */
export async function seedUsage(t: TestApp, legacyKey: string, company: string, also = "ai-tokens") {
  at(t, "2026-03-10T10:00:00Z");
  await consume(t, legacyKey, company, "api-calls", 3);
  const track = await t.call("POST", "/events", { token: legacyKey, body: { event_type: "track", name: "api-calls", company: { id: company } } });
  expect(track.status).toBe(200);
  await consume(t, legacyKey, company, "beta", 1, 429); // feature_not_enabled
  at(t, "2026-03-12T23:59:59Z");
  await consume(t, legacyKey, company, "api-calls", 5);
  at(t, "2026-03-13T00:00:00Z");
  await consume(t, legacyKey, company, "api-calls", 2);
  await consume(t, legacyKey, company, also, 7);
  at(t, NOW);
}

/**
 * 100 USDC paid in January, 50 in February (its last second), an invoice half paid (not revenue), a refund of 10
 * and a credit note of 5 in March. Returns the January invoice.
 */
export async function seedRevenue(t: TestApp, tenant: Tenant) {
  const paidInvoice = async (iso: string, micro: bigint) => {
    const when = new Date(iso);
    const invoice = await issuedInvoice(t.db.sql, t.config.chains, tenant, when, [line(micro)]);
    await payInvoice(t.db.sql, t.config.chains, tenant, when, invoice.id, micro);
    return invoice.id;
  };
  const january = await paidInvoice("2026-01-20T10:00:00Z", 100_000_000n);
  await paidInvoice("2026-02-28T23:59:59Z", 50_000_000n);
  const when = new Date("2026-02-10T10:00:00Z");
  const half = await issuedInvoice(t.db.sql, t.config.chains, tenant, when, [line(40_000_000n)]);
  await payInvoice(t.db.sql, t.config.chains, tenant, when, half.id, 20_000_000n);
  await t.db.sql`insert into refunds (id, team_id, environment, invoice_id, amount, token_symbol, token_amount, network, tx_hash,
    sender_wallet, recipient_wallet, reason, block_number, created_at)
    values (${newId("re")}, ${tenant.teamId}, ${tenant.environment}, ${january}, 10000000, 'USDC', 10000000, 'base-sepolia', ${txHash()},
    ${`0x${"1".repeat(40)}`}, ${`0x${"2".repeat(40)}`}, 'Returned seat', 1, '2026-03-02T10:00:00Z')`;
  await t.db.sql`insert into credit_notes (id, team_id, environment, invoice_id, number, sequence, reason, credit_amount, refund_amount, created_at)
    values (${newId("cn")}, ${tenant.teamId}, ${tenant.environment}, ${january}, 'CN-REPORT-1', 900001, 'Goodwill', 5000000, 0, '2026-03-03T10:00:00Z')`;
  return january;
}

/**
 * January: two renewals that succeeded (one a dunning retry that recovered) and one that failed; February: a
 * failed activation, a failed renewal and its failed retry, a subscription canceled unpaid; a pending charge
 * counts nowhere.
 */
export async function seedRenewals(t: TestApp, tenant: Tenant, planId: string) {
  const start = new Date("2026-01-01T00:00:00Z");
  const { subscription } = await subscriptionFixture(t.db.sql, tenant, { company: "subscriber", planId, now: start });
  const charge = async (kind: string, period: string, attempt: number, status: "succeeded" | "failed" | "pending", completed: string | null) => {
    await t.db.sql`insert into subscription_charges (id, team_id, environment, subscription_id, kind, reference, network, period_start,
      attempt, amount, status, failure_reason, tx_hash, created_at, completed_at)
      values (${newId("sch")}, ${tenant.teamId}, ${tenant.environment}, ${subscription.id}, ${kind}, ${chainReference()}, 'sepolia', ${period},
      ${attempt}, 10000000, ${status}, ${status === "failed" ? "insufficient_balance" : null}, ${status === "succeeded" ? txHash() : null},
      ${completed ?? "2026-02-27T00:00:00Z"}, ${completed})`;
  };
  await charge("renewal", "2025-12-01T00:00:00Z", 0, "succeeded", "2026-01-01T00:00:00Z");
  await charge("renewal", "2026-01-01T00:00:00Z", 0, "failed", "2026-01-10T00:00:00Z");
  await charge("renewal", "2026-01-01T00:00:00Z", 1, "succeeded", "2026-01-31T23:59:59Z");
  await charge("activation", "2026-02-01T00:00:00Z", 0, "failed", "2026-02-01T00:00:00Z");
  await charge("renewal", "2026-02-02T00:00:00Z", 0, "failed", "2026-02-02T00:00:00Z");
  await charge("renewal", "2026-02-02T00:00:00Z", 1, "failed", "2026-02-05T00:00:00Z");
  await charge("renewal", "2026-02-03T00:00:00Z", 0, "pending", null);
  const { subscription: lost } = await subscriptionFixture(t.db.sql, tenant, { company: "lost", planId, now: start });
  await t.db.sql`update subscriptions set status = 'CANCELED', canceled_at = '2026-02-20T00:00:00Z',
    cancel_reason = 'payment failed: insufficient_balance' where id = ${lost.id}`;
}
