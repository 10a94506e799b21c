/**
 * The x402 domain's one Elysia plugin, mounted once in app.ts: the dashboard's list of x402 payments. The payment
 * gate itself (pay.ts) wraps the metered routes through src/app-deps.ts (docs/x402.md).
 */
import { Elysia } from "elysia";
import { x402Routes, type X402RouteDeps } from "./routes";

export function x402Plugin(deps: X402RouteDeps) {
  return new Elysia().use(x402Routes(deps));
}
