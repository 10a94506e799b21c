/**
 * Chain references (src/chains/subscription-types.ts): 32 bytes that name one chain operation everywhere.
 * Derived, never random where a retry must find the first attempt: an activation's from the tenant, the
 * company and the request's Idempotency-Key; a renewal's from the subscription, the period and the attempt.
 */
import { sha256Hex } from "../../lib/hash";
import type { Tenant } from "../../lib/tenant";

export const chainReference = (tenant: Tenant, ...parts: string[]): string =>
  `0x${sha256Hex([tenant.teamId, tenant.environment, ...parts].join("\u001f"))}`;
