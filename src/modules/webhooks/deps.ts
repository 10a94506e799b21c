/** What the webhook route files (endpoints/routes.ts, deliveries/routes.ts) share: their deps, id params, tag and actor. */
import { t } from "elysia";
import type { AuthDeps } from "../../http/auth";
import { requestState } from "../../http/request-context";
import type { Principal } from "../../auth/kinds";
import { actorOf } from "../audit/repo";
import type { WebhookServiceDeps } from "./endpoints/manage";

export const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });
export const TAGS = ["Webhooks"];

export type RouteDeps = AuthDeps & WebhookServiceDeps;

export const actor = (principal: Principal, request: Request) => actorOf(principal, requestState(request).requestId);
