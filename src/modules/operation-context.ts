/**
 * The one context of a change made inside a transaction: which transaction, for which tenant, by whom,
 * at which instant (the clock is an input, never read inside a rule). Domains extend it with what they
 * alone need (an invoice its chain registry, a subscription its services) instead of declaring the four
 * fields again; functions take it as one value, never as four positional parameters.
 */
import type { Db } from "../db/queries";
import type { Tenant } from "../lib/tenant";
import type { Actor } from "./audit/repo";

export interface OperationContext {
  tx: Db;
  tenant: Tenant;
  actor: Actor;
  now: Date;
}
