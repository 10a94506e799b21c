/** The dashboard's webhook endpoint routes: the event types, endpoints and their secrets (roles webhooks:read and webhooks:write). */
import { Elysia, t } from "elysia";
import { ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { data } from "../../../http/envelope";
import { authPlugin } from "../../../http/auth";
import { Page, PageQuery, pageRequest, pageResponse } from "../../../http/pagination";
import { EVENT_TYPES, EVENT_TYPE_NAMES } from "../event-types";
import {
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
  WebhookEventType,
  WebhookRotate,
  WebhookSecret,
} from "./schemas";
import { presentEndpoint } from "./present";
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, revealSecret, rotateSecret, updateEndpoint } from "./manage";
import { DOCS } from "../docs";
import { actor, IdParams, TAGS, type RouteDeps } from "../deps";

// A response carrying a signing secret must not be kept by a browser or a proxy cache.
const NO_STORE = "no-store";

export function endpointRoutes(deps: RouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  return new Elysia({ prefix: "/dashboard/webhooks" })
    .use(authPlugin(deps))
    .get("/event-types", () => ({ data: EVENT_TYPE_NAMES.map((type) => ({ type, ...EVENT_TYPES[type] })) }), {
      access: true,
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
        access: true,
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
        return pageResponse(page, rows, (r) => presentEndpoint(r, now));
      },
      {
        access: true,
        query: t.Object(PageQuery),
        response: Page(WebhookEndpoint),
        detail: { tags: TAGS, summary: "List webhook endpoints, newest first (never their secrets)" },
      },
    )
    .get("/endpoints/:id", async ({ principal, params }) => ({ data: await getEndpoint(deps, principal, params.id) }), {
      access: true,
      params: IdParams,
      response: { 200: data(WebhookEndpoint), 404: ErrorBody },
      detail: { tags: TAGS, summary: "Retrieve a webhook endpoint" },
    })
    .patch(
      "/endpoints/:id",
      async ({ principal, params, body, request }) => ({
        data: await updateEndpoint(deps, principal, actor(principal, request), { id: params.id, patch: body }),
      }),
      {
        access: true,
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
        access: true,
        params: IdParams,
        response: { 200: data(WebhookEndpoint), 404: ErrorBody },
        detail: { tags: TAGS, summary: "Delete a webhook endpoint with its delivery log; pending attempts stop" },
      },
    )
    .post(
      "/endpoints/:id/rotate-secret",
      async ({ principal, params, body, request, set }) => {
        set.headers["cache-control"] = NO_STORE; // carries the new secret
        return { data: await rotateSecret(deps, principal, actor(principal, request), { id: params.id, overlapSeconds: body?.overlapSeconds }) };
      },
      {
        access: true,
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
        access: true,
        params: IdParams,
        response: { 200: data(WebhookSecret), 404: ErrorBody },
        detail: { tags: TAGS, summary: "Reveal the signing secret (role webhooks:write; audited)" },
      },
    );
}
