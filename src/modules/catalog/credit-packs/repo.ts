/** Typed wrappers over the credit pack queries: the catalog's writes and reads, and the pack a 402 offers. */
import { queries, run, runOne, type Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import type { CreditPackRow, StoredPackPrice } from "./rows";

const Q = queries(["credit_pack_insert", "credit_pack_find_by_id", "credit_pack_find_offered", "credit_pack_list_page", "credit_pack_archive"]);

export interface CreditPackFields {
  key: string;
  name: string;
  credits: bigint;
  prices: StoredPackPrice[];
  offerOnPaymentRequired: boolean;
  enabled: boolean;
}

/** Inserts a pack; null when its key is taken (in any case). */
export const insertCreditPack = (db: Db, t: Tenant, p: { id: string; fields: CreditPackFields; now: Date }) =>
  runOne<CreditPackRow>(db, Q.credit_pack_insert, [
    p.id,
    t.teamId,
    t.environment,
    p.now,
    {
      key: p.fields.key,
      name: p.fields.name,
      credits: p.fields.credits.toString(),
      prices: p.fields.prices,
      offer_on_payment_required: p.fields.offerOnPaymentRequired,
      enabled: p.fields.enabled,
    },
  ]);

export const findCreditPackById = (db: Db, t: Tenant, id: string) =>
  runOne<CreditPackRow>(db, Q.credit_pack_find_by_id, [t.teamId, t.environment, id]);

/** The tenant's live, enabled pack flagged for 402s, if any. */
export const findOfferedCreditPack = (db: Db, t: Tenant) => runOne<CreditPackRow>(db, Q.credit_pack_find_offered, [t.teamId, t.environment]);

export const listCreditPackRows = (db: Db, t: Tenant, page: { beforeSeq: bigint | null; fetch: number; includeArchived: boolean }) =>
  run<CreditPackRow>(db, Q.credit_pack_list_page, [t.teamId, t.environment, page.beforeSeq, page.fetch, page.includeArchived]);

export const archiveCreditPackRow = (db: Db, t: Tenant, id: string, now: Date) =>
  runOne<CreditPackRow>(db, Q.credit_pack_archive, [t.teamId, t.environment, id, now]);
