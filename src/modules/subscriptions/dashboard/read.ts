/**
 * Reading subscriptions as the operator sees them (the dashboard routes and the CLI), each read in one
 * read-only snapshot: one page of the tenant's subscriptions, newest first, filtered by status or company
 * (each filter pages on an index of its own, migration 00026), with their mandate ids and their company's and plan's names; one subscription
 * with its mandate and its most recent chain operations. Another tenant's subscription is unknown (404).
 */
import type { Sql } from "../../../db/client";
import { filteredList, pageRequest, pageResponse } from "../../../http/pagination";
import { apiError } from "../../../lib/errors";
import type { Tenant } from "../../../lib/tenant";
import { companyIdFilter } from "../../customers/repo";
import { SNAPSHOT } from "../../invoices/read";
import { presentMandate, presentSubscription } from "../present";
import { findSubscription, listRecentCharges, listSubscriptionPage, mandatesOf, namesOf, type SubscriptionNames } from "../repo";
import { presentChainOperation, type SubscriptionDetailView, type SubscriptionListQuery } from "./schemas";

/** How many of its chain operations a subscription's detail shows. */
export const RECENT_OPERATIONS = 20;

type Presented = ReturnType<typeof presented>;

/** A subscription as presentSubscription shows it, with the names an operator reads it by (its company's and plan's). */
const presented = (
  s: Parameters<typeof presentSubscription>[0],
  mandate: Parameters<typeof presentSubscription>[1],
  names: SubscriptionNames | undefined,
) => {
  const { companyId, planId, ...rest } = presentSubscription(s, mandate);
  return {
    ...rest,
    companyId,
    companyName: names?.company_name ?? null,
    companyExternalId: names?.company_external_id ?? null,
    planId,
    planName: names?.plan_name ?? null,
  };
};

/**
 * One page as the lists answer it (`{data, count, nextCursor}`). The cursor is bound to `list` and to the
 * filters as given, so one taken under other filters is a 400. `companyId` is our comp_ id or the
 * integrator's; an unknown one matches nothing.
 */
export function readSubscriptionPage(
  sql: Sql,
  t: Tenant,
  { secret, list, query }: { secret: string; list: string; query: SubscriptionListQuery },
): Promise<{ data: Presented[]; count: number; nextCursor: string | null }> {
  const bound = filteredList(list, { status: query.status, companyId: query.companyId });
  const page = pageRequest(secret, bound, t, query);
  return sql.begin(SNAPSHOT, async (tx) => {
    const companyId = await companyIdFilter(tx, t, query.companyId);
    const rows = await listSubscriptionPage(tx, t, { beforeSeq: page.beforeSeq, fetch: page.fetch, status: query.status ?? null, companyId });
    const ids = rows.slice(0, page.limit).map((r) => r.id);
    const mandates = await mandatesOf(tx, t, ids);
    const names = await namesOf(tx, t, ids);
    return pageResponse(page, rows, (r) => presented(r, mandates.get(r.id) ?? null, names.get(r.id)));
  }) as Promise<{ data: Presented[]; count: number; nextCursor: string | null }>;
}

/** The subscription with its mandate (null before activation completes) and its recent chain operations. */
export function readSubscriptionDetail(sql: Sql, t: Tenant, id: string): Promise<SubscriptionDetailView> {
  return sql.begin(SNAPSHOT, async (tx) => {
    const sub = await findSubscription(tx, t, id);
    if (!sub) throw apiError("not_found", `No subscription ${id}`);
    const mandate = (await mandatesOf(tx, t, [sub.id])).get(sub.id) ?? null;
    const operations = await listRecentCharges(tx, t, sub.id, RECENT_OPERATIONS);
    const names = await namesOf(tx, t, [sub.id]);
    return {
      ...presented(sub, mandate, names.get(sub.id)),
      mandate: mandate ? presentMandate(mandate) : null,
      operations: operations.map(presentChainOperation),
    };
  }) as Promise<SubscriptionDetailView>;
}
