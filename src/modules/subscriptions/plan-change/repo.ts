/** The plan change quotes' queries (plan_change_quotes), one function per statement. */
import { queries, run, runOne, type Db } from "../../../db/queries";
import type { Interval } from "../../../lib/period";
import type { Tenant } from "../../../lib/tenant";
import { columns } from "../repo";

import type { QuoteRow } from "./rows";
const Q = queries(["plan_change_quote_insert", "plan_change_quote_find", "plan_change_quote_use", "plan_change_quote_prune"]);

export interface QuoteInsert {
  id: string;
  companyId: string;
  subscriptionId: string;
  planId: string;
  billingPeriod: Interval;
  couponCode: string | null;
  effective: "now" | "period_end";
  basis: string;
  pricedAt: Date;
  expiresAt: Date;
  invoiceTotal: bigint;
  creditToBalance: bigint;
  net: bigint;
}

/** The company's quotes expired over a day before `pricedAt`. */
export const pruneQuotes = (db: Db, t: Tenant, companyId: string, pricedAt: Date) =>
  run(db, Q.plan_change_quote_prune, [t.teamId, t.environment, companyId, pricedAt]);

export const insertQuote = (db: Db, t: Tenant, q: QuoteInsert) =>
  run(db, Q.plan_change_quote_insert, [
    t.teamId,
    t.environment,
    columns({
      id: q.id,
      company_id: q.companyId,
      subscription_id: q.subscriptionId,
      plan_id: q.planId,
      billing_period: q.billingPeriod,
      coupon_code: q.couponCode,
      effective: q.effective,
      basis: q.basis,
      priced_at: q.pricedAt,
      expires_at: q.expiresAt,
      invoice_total: q.invoiceTotal,
      credit_to_balance: q.creditToBalance,
      net: q.net,
    }),
  ]);

export const findQuote = (db: Db, t: Tenant, companyId: string, id: string) =>
  runOne<QuoteRow>(db, Q.plan_change_quote_find, [t.teamId, t.environment, companyId, id]);

/** Marks the quote used; nothing when another change used it first. */
export const markQuoteUsed = (db: Db, t: Tenant, id: string, now: Date) => runOne(db, Q.plan_change_quote_use, [t.teamId, t.environment, id, now]);
