/**
 * What the subscription services need: the database, the chain registry and worker pool (chain operations
 * never run on the request thread), whether invoices are emailed, and this instance's entitlement cache to
 * drop at commit (other instances hear of the change through publishCompanyChanged in the transaction).
 */
import type { ChainPool } from "../../chains/pool";
import type { ChainRegistry } from "../../lib/networks";
import type { Sql } from "../../db/client";
import type { Tenant } from "../../lib/tenant";
import type { InvoiceContext } from "../invoices/lifecycle/context";
import type { OperationContext } from "../operation-context";

export interface SubscriptionDeps {
  sql: Sql;
  chains: ChainRegistry;
  pool: ChainPool;
  emailEnabled: boolean;
  companyChanged?: (tenant: Tenant, companyId: string) => void;
}

/** One transaction's view: who acts, when, inside which transaction, with the subscription services. */
export interface TxContext extends OperationContext {
  deps: SubscriptionDeps;
}

/** An operation before its transaction opens: the services, for which tenant, by whom, at which instant. */
export type ServiceContext = Omit<TxContext, "tx">;

/** The invoice module's context for the same transaction. */
export const invoiceContext = (c: TxContext): InvoiceContext => ({
  tx: c.tx,
  tenant: c.tenant,
  actor: c.actor,
  chains: c.deps.chains,
  now: c.now,
  emailEnabled: c.deps.emailEnabled,
});
