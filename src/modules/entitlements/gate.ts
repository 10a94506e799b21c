/**
 * The payment gate around a metered request (POST /events, POST /usage/consume): x402 (src/modules/x402/pay.ts)
 * implements it and src/app-deps.ts wires it in, so the metered routes know the hook, not the payment domain.
 */
import type { Principal } from "../../auth/kinds";

export interface PaidRequest {
  request: Request;
  principal: Principal;
  /** the validated body: with the tenant, method and path, what tells a retry of the same request from another */
  body: unknown;
  /** our id of the company the request is about, the one bought credits go to; null: unknown (nothing is taken) */
  companyId(): Promise<string | null>;
  /** the response headers (Elysia's `set.headers`) */
  headers: Record<string, unknown>;
  /**
   * The metered use's idempotency key, when the body has one: a stored insufficient-credit refusal under it is
   * forgotten when credits are bought for this request, so the paid retry is decided again, not replayed.
   */
  usageKey?: { source: "events" | "consume"; idempotencyKey: string };
}

/** Runs the request, taking a payment it carries first and adding payment terms to its insufficient-credit 402. */
export type PaymentGate = <T>(paid: PaidRequest, run: () => Promise<T>) => Promise<T>;

export interface PaymentGateDeps {
  paymentGate: PaymentGate;
}

/** The `usageKey` of a metered body: its idempotency key, if it has one. */
export const usageKey = (source: "events" | "consume", idempotencyKey: string | undefined) =>
  idempotencyKey === undefined ? undefined : { source, idempotencyKey };
