/**
 * The dashboard's webhook routes (dashboard sessions only; roles webhooks:read and webhooks:write):
 * endpoints, their secrets, the test event, the delivery log, replay and operator notifications.
 */
import { Elysia, t } from "elysia";
import { ErrorBody, ValidationErrorBody } from "../../http/error-schemas";
import { data } from "../../http/envelope";
import { authPlugin, type AuthDeps } from "../../http/auth";
import { requestState } from "../../http/request-context";
import { Page, PageQuery, pageRequest, pageResponse } from "../../http/pagination";
import type { Principal } from "../../auth/kinds";
import { actorOf } from "../audit/repo";
import { EVENT_TYPES, EVENT_TYPE_NAMES } from "./event-types";
import {
  presentDelivery,
  presentEndpoint,
  presentNotification,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
  WebhookEventSent,
  WebhookEventType,
  WebhookNotification,
  WebhookRotate,
  WebhookSecret,
} from "./model";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  getEndpointRow,
  listEndpoints,
  revealSecret,
  rotateSecret,
  updateEndpoint,
  type WebhookServiceDeps,
} from "./service";
import { getDelivery, listDeliveries, listNotifications, replayDelivery, replayMessage, sendTestEvent } from "./deliveries";
import { DOCS } from "./docs";

const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });
const TAGS = ["Webhooks"];
const DELIVERY_STATUSES = ["pending", "delivered", "failed", "skipped"] as const;
// A response carrying a signing secret must not be kept by a browser or a proxy cache.
const NO_STORE = "no-store";

type RouteDeps = AuthDeps & WebhookServiceDeps;

const actor = (principal: Principal, request: Request) => actorOf(principal, requestState(request).requestId);

export function webhookRoutes(deps: RouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  return new Elysia({ prefix: "/dashboard/webhooks" })
    .use(authPlugin(deps))
    .get("/event-types", () => ({ data: EVENT_TYPE_NAMES.map((type) => ({ type, ...EVENT_TYPES[type] })) }), {
      access: "GET /dashboard/webhooks/event-types",
      response: { 200: data(t.Array(WebhookEventType)) },
      detail: { tags: TAGS, summary: "The event types an endpoint can subscribe to (emitted: sent today)" },
    })
    .post(
      "/endpoints",
      async ({ principal, body, request, set }) => {
        const created = await createEndpoint(deps, principal, actor(principal, request), body);
        set.status = 201;
        set.headers["cache-control"] = NO_STORE; // carries the secret
        return { data: created };
      },
      {
        access: "POST /dashboard/webhooks/endpoints",
        body: WebhookEndpointCreate,
        response: { 201: data(WebhookEndpointWithSecret), 400: ValidationErrorBody },
        detail: { tags: TAGS, summary: "Create a webhook endpoint (its secret is in this response)", description: DOCS.create },
      },
    )
    .get(
      "/endpoints",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "webhook-endpoints", principal, query);
        const rows = await listEndpoints(deps, principal, page.beforeSeq, page.fetch);
        const now = deps.clock.now();
        return pageResponse(secret, "webhook-endpoints", principal, page, rows, (r) => presentEndpoint(r, now));
      },
      {
        access: "GET /dashboard/webhooks/endpoints",
        query: t.Object(PageQuery),
        response: Page(WebhookEndpoint),
        detail: { tags: TAGS, summary: "List webhook endpoints, newest first (never their secrets)" },
      },
    )
    .get("/endpoints/:id", async ({ principal, params }) => ({ data: await getEndpoint(deps, principal, params.id) }), {
      access: "GET /dashboard/webhooks/endpoints/{id}",
      params: IdParams,
      response: { 200: data(WebhookEndpoint), 404: ErrorBody },
      detail: { tags: TAGS, summary: "Retrieve a webhook endpoint" },
    })
    .patch(
      "/endpoints/:id",
      async ({ principal, params, body, request }) => ({
        data: await updateEndpoint(deps, principal, actor(principal, request), params.id, body),
      }),
      {
        access: "PATCH /dashboard/webhooks/endpoints/{id}",
        params: IdParams,
        body: WebhookEndpointUpdate,
        response: { 200: data(WebhookEndpoint), 400: ValidationErrorBody, 404: ErrorBody },
        detail: { tags: TAGS, summary: "Update a webhook endpoint's url, description, event types or enabled", description: DOCS.update },
      },
    )
    .delete(
      "/endpoints/:id",
      async ({ principal, params, request }) => ({ data: await deleteEndpoint(deps, principal, actor(principal, request), params.id) }),
      {
        access: "DELETE /dashboard/webhooks/endpoints/{id}",
        params: IdParams,
        response: { 200: data(WebhookEndpoint), 404: ErrorBody },
        detail: { tags: TAGS, summary: "Delete a webhook endpoint with its delivery log; pending attempts stop" },
      },
    )
    .post(
      "/endpoints/:id/rotate-secret",
      async ({ principal, params, body, request, set }) => {
        set.headers["cache-control"] = NO_STORE; // carries the new secret
        return { data: await rotateSecret(deps, principal, actor(principal, request), params.id, body?.overlapSeconds) };
      },
      {
        access: "POST /dashboard/webhooks/endpoints/{id}/rotate-secret",
        params: IdParams,
        body: t.Optional(WebhookRotate),
        response: { 200: data(WebhookEndpointWithSecret), 400: ValidationErrorBody, 404: ErrorBody },
        detail: { tags: TAGS, summary: "Rotate the signing secret, with an overlap in which both sign", description: DOCS.rotate },
      },
    )
    .get(
      "/endpoints/:id/secret",
      async ({ principal, params, request, set }) => {
        set.headers["cache-control"] = NO_STORE;
        return { data: await revealSecret(deps, principal, actor(principal, request), params.id) };
      },
      {
        access: "GET /dashboard/webhooks/endpoints/{id}/secret",
        params: IdParams,
        response: { 200: data(WebhookSecret), 404: ErrorBody },
        detail: { tags: TAGS, summary: "Reveal the signing secret (role webhooks:write; audited)" },
      },
    )
    .post(
      "/endpoints/:id/test",
      async ({ principal, params, request, set }) => {
        const sent = await sendTestEvent(deps, principal, actor(principal, request), params.id);
        set.status = 202;
        return { data: sent };
      },
      {
        access: "POST /dashboard/webhooks/endpoints/{id}/test",
        params: IdParams,
        response: { 202: data(WebhookEventSent), 404: ErrorBody, 409: ErrorBody },
        detail: { tags: TAGS, summary: "Send a webhook.test event to this endpoint only (queued; see its delivery)" },
      },
    )
    .post(
      "/endpoints/:id/replay",
      async ({ principal, params, body, request, set }) => {
        const replayed = await replayMessage(deps, principal, actor(principal, request), params.id, body.messageId);
        set.status = 202;
        return { data: replayed };
      },
      {
        access: "POST /dashboard/webhooks/endpoints/{id}/replay",
        params: IdParams,
        body: t.Object(
          { messageId: t.String({ minLength: 1, maxLength: 64, description: "msg_…" }) },
          { examples: [{ messageId: "msg_01JH5Q8T0M3V9X2Y4Z6A8B0C1Y" }] },
        ),
        response: { 202: data(WebhookDeliveryDetail), 400: ValidationErrorBody, 404: ErrorBody, 409: ErrorBody },
        detail: { tags: TAGS, summary: "Send a message to this endpoint again, now (same webhook-id)", description: DOCS.replay },
      },
    )
    .get(
      "/endpoints/:id/deliveries",
      async ({ principal, params, query }) => {
        await getEndpointRow(deps.sql, principal, params.id); // 404 for an unknown endpoint, not an empty list
        const page = pageRequest(secret, `webhook-deliveries:${params.id}`, principal, query);
        const rows = await listDeliveries(deps.sql, principal, params.id, page.beforeSeq, page.fetch, query.status ?? null);
        return pageResponse(secret, `webhook-deliveries:${params.id}`, principal, page, rows, presentDelivery);
      },
      {
        access: "GET /dashboard/webhooks/endpoints/{id}/deliveries",
        params: IdParams,
        query: t.Object({
          ...PageQuery,
          status: t.Optional(
            t.Union(
              DELIVERY_STATUSES.map((s) => t.Literal(s)),
              { description: "Only deliveries in this status" },
            ),
          ),
        }),
        response: { 200: Page(WebhookDelivery), 404: ErrorBody },
        detail: { tags: TAGS, summary: "An endpoint's delivery log, newest first: status, attempts, last response code and latency, next attempt" },
      },
    )
    .get("/deliveries/:id", async ({ principal, params }) => ({ data: await getDelivery(deps.sql, principal, params.id) }), {
      access: "GET /dashboard/webhooks/deliveries/{id}",
      params: IdParams,
      response: { 200: data(WebhookDeliveryDetail), 404: ErrorBody },
      detail: { tags: TAGS, summary: "One delivery with every attempt" },
    })
    .post(
      "/deliveries/:id/replay",
      async ({ principal, params, request, set }) => {
        const replayed = await replayDelivery(deps, principal, actor(principal, request), params.id);
        set.status = 202;
        return { data: replayed };
      },
      {
        access: "POST /dashboard/webhooks/deliveries/{id}/replay",
        params: IdParams,
        response: { 202: data(WebhookDeliveryDetail), 404: ErrorBody, 409: ErrorBody },
        detail: {
          tags: TAGS,
          summary: "Replay a delivery: its message to its endpoint, now, as a new delivery (same webhook-id)",
          description: DOCS.replay,
        },
      },
    )
    .get(
      "/notifications",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "webhook-notifications", principal, query);
        const rows = await listNotifications(deps.sql, principal, page.beforeSeq, page.fetch);
        return pageResponse(secret, "webhook-notifications", principal, page, rows, presentNotification);
      },
      {
        access: "GET /dashboard/webhooks/notifications",
        query: t.Object(PageQuery),
        response: Page(WebhookNotification),
        detail: { tags: TAGS, summary: "What the operator must know: endpoints disabled after a 410 or persistent failure, newest first" },
      },
    );
}
