/**
 * The dashboard's webhook routes (dashboard sessions only; roles webhooks:read and webhooks:write):
 * endpoints and their secrets (endpoint-routes.ts); the test event, the delivery log, replay and operator
 * notifications (delivery-routes.ts).
 */
import { Elysia } from "elysia";
import { deliveryRoutes } from "./delivery-routes";
import { endpointRoutes } from "./endpoint-routes";
import type { RouteDeps } from "./routes-shared";

export function webhookRoutes(deps: RouteDeps) {
  return new Elysia().use(endpointRoutes(deps)).use(deliveryRoutes(deps));
}
