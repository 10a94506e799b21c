/**
 * Chain references (src/chains/subscription-types.ts): 32 bytes that name one chain operation everywhere.
 * Derived, never random where a retry must find the first attempt: an activation's from the tenant, the
 * company and the request's Idempotency-Key; a renewal's from the subscription, the period and the attempt.
 *
 * A period is named by its start, never its index: a change of billing period restarts the index at 0, and
 * a name reused would find the earlier period's operation (or invoice) and take it for this one's.
 */
import { sha256Hex } from "../../lib/hash";
import type { Tenant } from "../../lib/tenant";

export const chainReference = (tenant: Tenant, ...parts: string[]): string =>
  `0x${sha256Hex([tenant.teamId, tenant.environment, ...parts].join("\u001f"))}`;

/** A period's name in references and invoice sources: its start instant. */
export const periodKey = (start: Date): string => start.toISOString();

/** The source key of a subscription period's invoice: one invoice per subscription and period. */
export const periodInvoiceSource = (subscriptionId: string, periodStart: Date): string => `${subscriptionId}:${periodKey(periodStart)}`;
