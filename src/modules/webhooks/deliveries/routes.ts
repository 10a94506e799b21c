/** The dashboard's webhook delivery routes: the test event, the delivery log, replay and operator notifications (roles webhooks:read and webhooks:write). */
import { Elysia, t } from "elysia";
import { ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { data } from "../../../http/envelope";
import { authPlugin } from "../../../http/auth";
import { Page, PageQuery, pageRequest, pageResponse } from "../../../http/pagination";
import { WebhookDelivery, WebhookDeliveryDetail, WebhookEventSent, WebhookNotification } from "./schemas";
import { presentDelivery, presentNotification } from "./present";
import { getEndpointRow } from "../endpoints/manage";
import { getDelivery, listDeliveries, listNotifications, replayDelivery, replayMessage, sendTestEvent } from "./log";
import { DOCS } from "../docs";
import { actor, IdParams, TAGS, type RouteDeps } from "../deps";

const DELIVERY_STATUSES = ["pending", "delivered", "failed", "skipped"] as const;

export function deliveryRoutes(deps: RouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  return new Elysia({ prefix: "/dashboard/webhooks" })
    .use(authPlugin(deps))
    .post(
      "/endpoints/:id/test",
      async ({ principal, params, request, set }) => {
        const sent = await sendTestEvent(deps, principal, actor(principal, request), params.id);
        set.status = 202;
        return { data: sent };
      },
      {
        access: true,
        params: IdParams,
        response: { 202: data(WebhookEventSent), 404: ErrorBody, 409: ErrorBody },
        detail: { tags: TAGS, summary: "Send a webhook.test event to this endpoint only (queued; see its delivery)" },
      },
    )
    .post(
      "/endpoints/:id/replay",
      async ({ principal, params, body, request, set }) => {
        const replayed = await replayMessage(deps, principal, actor(principal, request), { endpointId: params.id, messageId: body.messageId });
        set.status = 202;
        return { data: replayed };
      },
      {
        access: true,
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
        const rows = await listDeliveries(deps.sql, principal, params.id, {
          beforeSeq: page.beforeSeq,
          limit: page.fetch,
          status: query.status ?? null,
        });
        return pageResponse(page, rows, presentDelivery);
      },
      {
        access: true,
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
      access: true,
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
        access: true,
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
        return pageResponse(page, rows, presentNotification);
      },
      {
        access: true,
        query: t.Object(PageQuery),
        response: Page(WebhookNotification),
        detail: { tags: TAGS, summary: "What the operator must know: endpoints disabled after a 410 or persistent failure, newest first" },
      },
    );
}
