/**
 * What an invoice operation runs with: the one operation context (transaction, tenant, actor, instant) and
 * what invoices alone need. Its own file, so the steps an operation calls (prepare, the delivery queue)
 * read it without importing the lifecycle that calls them.
 */
import type { ChainRegistry } from "../../../lib/networks";
import type { OperationContext } from "../../operation-context";

export interface InvoiceContext extends OperationContext {
  chains: ChainRegistry;
  /** this process can email invoices (SMTP_URL is set): issuing queues the customer's email (deliveries/queue.ts) */
  emailEnabled: boolean;
}

/** What money and status changes need (payments/settle.ts, refunds/record.ts, the overdue job): no catalog, no email. */
export type LedgerContext = OperationContext;
