/**
 * The dashboard's webhook routes (dashboard sessions only; roles webhooks:read and webhooks:write):
 * endpoints and their secrets (endpoints/); the test event, the delivery log, replay and operator
 * notifications (deliveries/).
 */
import { Elysia } from "elysia";
import { deliveryRoutes } from "./deliveries/routes";
import { endpointRoutes } from "./endpoints/routes";
import type { RouteDeps } from "./deps";

export function webhookRoutes(deps: RouteDeps) {
  return new Elysia().use(endpointRoutes(deps)).use(deliveryRoutes(deps));
}
