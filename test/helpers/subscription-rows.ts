/**
 * Subscription rows without a chain, for the tests of what operators do with them (list, read, cancel, resume,
 * settings): written through the module's own repo functions, in the states activation and renewals leave them
 * (a live subscription with its ACTIVE mandate and its recorded chain operations). The chain flows themselves
 * are tested on anvil, litesvm and the Stellar double (test/subscriptions/*-lifecycle.test.ts).
 */
import type { Sql } from "../../src/db/client";
import { newId, randomToken } from "../../src/lib/ids";
import type { Tenant } from "../../src/lib/tenant";
import { upsertCompany } from "../../src/modules/customers/identify";
import type { ChargeKind, SubscriptionStatus } from "../../src/modules/subscriptions/rows";
import { completeCharge, insertCharge, insertMandate, insertSubscription, saveSubscription } from "../../src/modules/subscriptions/repo";

const DAY_MS = 86_400_000;
const hex = (bytes: number) => [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
export const chainReference = () => `0x${hex(32)}`;
export const PAYER = "0x52908400098527886E0F7030069857D2E4169EE7";
export const PAYEE = `0x${"2".repeat(40)}`;

export interface OperationFixture {
  kind: ChargeKind;
  amount: bigint;
  /** pending: recorded, the chain's answer not yet */
  end: { status: "succeeded"; txHash: string } | { status: "failed"; reason: string; detail: string } | { status: "pending" };
}

export interface SubscriptionFixture {
  /** the company's id as the integrator gives it (stored as its external id) */
  company: string;
  planId: string;
  status?: Exclude<SubscriptionStatus, "CANCELED">;
  cancelAtPeriodEnd?: boolean;
  /** an ACTIVE mandate (default: for every status but INCOMPLETE and INCOMPLETE_EXPIRED) */
  mandate?: boolean;
  operations?: OperationFixture[];
  now: Date;
}

/** A subscription in `status` (default ACTIVE) for the company, on the plan, with its mandate and operations; its company on the plan. */
export async function subscriptionFixture(sql: Sql, tenant: Tenant, f: SubscriptionFixture) {
  const status = f.status ?? "ACTIVE";
  const start = f.now;
  const end = new Date(start.getTime() + 30 * DAY_MS);
  return sql.begin(async (tx) => {
    const { company } = await upsertCompany(tx, tenant, { id: f.company });
    await tx`update companies set active_plan_id = ${f.planId} where id = ${company.id}`;
    const reserved = (await insertSubscription(
      tx,
      tenant,
      {
        id: newId("sub"),
        companyId: company.id,
        planId: f.planId,
        billingPeriod: "monthly",
        priceAmount: 10_000_000n,
        currency: "USDC",
        network: "sepolia",
        tokenSymbol: "USDC",
        paymentAccount: PAYER,
        payeeWallet: PAYEE,
        subscriberEmail: "billing@acme.test",
        couponId: null,
        couponRedemptionId: null,
        anchorAt: start,
        periodStart: start,
        periodEnd: end,
        trialEnd: null,
        reference: chainReference(),
        exclusiveAccount: false,
      },
      f.now,
    ))!;
    const live = !status.startsWith("INCOMPLETE");
    const sub = await saveSubscription(
      tx,
      tenant,
      {
        ...reserved,
        status,
        cancel_at_period_end: f.cancelAtPeriodEnd ?? false,
        token_id: live ? String(Math.floor(Math.random() * 1e9)) : null,
        next_attempt_at: live ? end : null,
      },
      f.now,
    );
    const mandate =
      (f.mandate ?? live)
        ? await insertMandate(
            tx,
            tenant,
            {
              id: newId("mnd"),
              subscriptionId: sub.id,
              companyId: company.id,
              network: "sepolia",
              tokenSymbol: "USDC",
              payerWallet: PAYER,
              recipientWallet: PAYEE,
              authorized: 100_000_000n,
              remaining: 90_000_000n,
              expiresAt: null,
            },
            f.now,
          )
        : null;
    const operations = [];
    for (const [i, op] of (f.operations ?? []).entries()) {
      // Apart in time, so "newest first" has one answer.
      const at = new Date(f.now.getTime() + i * 1000);
      const charge = (await insertCharge(
        tx,
        tenant,
        {
          id: newId("sch"),
          subscriptionId: sub.id,
          kind: op.kind,
          reference: chainReference(),
          network: "sepolia",
          periodStart: new Date(start.getTime() + i * 1000),
          attempt: 0,
          invoiceId: null,
          amount: op.amount,
        },
        at,
      ))!;
      const ended =
        op.end.status === "pending"
          ? charge
          : await completeCharge(tx, tenant, charge.id, {
              end:
                op.end.status === "succeeded"
                  ? { status: "succeeded", txHash: op.end.txHash, paymentId: null }
                  : { status: "failed", reason: op.end.reason, detail: op.end.detail },
              now: at,
            });
      operations.push(ended!);
    }
    return { subscription: sub, mandate, company, operations };
  });
}

export const txHash = () => `0x${hex(32)}`;
export const companyName = () => `co-${randomToken(8).toLowerCase()}`;
