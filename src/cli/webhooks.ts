/**
 * `webhook create | list | update | delete | rotate | secret | test | deliveries | replay`: the dashboard's
 * webhook routes for an operator, over the same service functions. `test` and `replay` queue the attempt;
 * a running service (or `npm run worker`) sends it.
 */
import { SUBSCRIBABLE_EVENT_TYPES } from "../modules/webhooks/event-types";
import { presentDelivery } from "../modules/webhooks/deliveries/present";
import { presentEndpoint } from "../modules/webhooks/endpoints/present";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpointRow,
  listEndpoints,
  revealSecret,
  rotateSecret,
  updateEndpoint,
} from "../modules/webhooks/endpoints/manage";
import { listDeliveries, replayDelivery, replayMessage, sendTestEvent } from "../modules/webhooks/deliveries/log";
import { OPERATOR } from "../modules/teams/roles";
import { systemClock } from "../lib/clock";
import { ENVIRONMENT_OPTION, TEAM_OPTION, list, oneOf, tenant, wholeNumber } from "./args";
import { command, UsageError, type Context } from "./command";

const ID_OPTION = { id: { value: "<endpoint id>", help: "wh_…", required: true } };
const EVENTS_OPTION = { events: { value: "a,b", help: `Event types (default: all): ${SUBSCRIBABLE_EVENT_TYPES.join(", ")}` } };
const LIST_LIMIT = 200;

const deps = (ctx: Context) => ({ sql: ctx.sql, clock: systemClock, config: ctx.config });
const bool = (name: string, value: string | undefined) => (value === undefined ? undefined : oneOf(name, value, ["true", "false"]) === "true");

export const webhookCommands = [
  command({
    name: "webhook create",
    summary: "Create a webhook endpoint; its signing secret is printed here",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      url: { value: "<https url>", help: "http only with WEBHOOK_ALLOW_HTTP", required: true },
      description: { value: "<text>", help: "" },
      ...EVENTS_OPTION,
      enabled: { value: "true|false", help: "Default true" },
    },
    parse: (a) => ({ tenant: tenant(a), url: a.url!, description: a.description, eventTypes: list(a.events), enabled: bool("enabled", a.enabled) }),
    run: (ctx, i) => createEndpoint(deps(ctx), i.tenant, OPERATOR, i),
  }),
  command({
    name: "webhook list",
    summary: "List webhook endpoints, newest first (never their secrets)",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION },
    parse: (a) => tenant(a),
    run: async (ctx, t) => (await listEndpoints(ctx, t, null, LIST_LIMIT)).map((r) => presentEndpoint(r, Date.now())),
  }),
  command({
    name: "webhook update",
    summary: "Change an endpoint's url, description, event types or enabled (true re-enables a disabled one)",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      ...ID_OPTION,
      url: { value: "<https url>", help: "" },
      description: { value: "<text>", help: "'' clears it" },
      ...EVENTS_OPTION,
      enabled: { value: "true|false", help: "" },
    },
    parse: (a) => ({
      tenant: tenant(a),
      id: a.id!,
      patch: {
        url: a.url,
        description: a.description,
        eventTypes: a.events === undefined ? undefined : (list(a.events) ?? []),
        enabled: bool("enabled", a.enabled),
      },
    }),
    run: (ctx, i) => updateEndpoint(deps(ctx), i.tenant, OPERATOR, { id: i.id, patch: i.patch }),
  }),
  command({
    name: "webhook delete",
    summary: "Delete an endpoint with its delivery log",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION },
    parse: (a) => ({ tenant: tenant(a), id: a.id! }),
    run: (ctx, i) => deleteEndpoint(deps(ctx), i.tenant, OPERATOR, i.id),
  }),
  command({
    name: "webhook rotate",
    summary: "Rotate an endpoint's signing secret; the previous one keeps signing during the overlap",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION, "overlap-seconds": { value: "<N>", help: "0 to 604800, default 86400" } },
    parse: (a) => ({
      tenant: tenant(a),
      id: a.id!,
      overlap: a["overlap-seconds"] === undefined ? undefined : Number(wholeNumber("overlap-seconds", a["overlap-seconds"])),
    }),
    run: (ctx, i) => rotateSecret(deps(ctx), i.tenant, OPERATOR, { id: i.id, overlapSeconds: i.overlap }),
  }),
  command({
    name: "webhook secret",
    summary: "Print an endpoint's signing secret (and the previous one during an overlap)",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION },
    parse: (a) => ({ tenant: tenant(a), id: a.id! }),
    run: (ctx, i) => revealSecret(deps(ctx), i.tenant, OPERATOR, i.id),
  }),
  command({
    name: "webhook test",
    summary: "Queue a webhook.test event to one endpoint",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION },
    parse: (a) => ({ tenant: tenant(a), id: a.id! }),
    run: (ctx, i) => sendTestEvent(deps(ctx), i.tenant, OPERATOR, i.id),
  }),
  command({
    name: "webhook deliveries",
    summary: "An endpoint's most recent 200 deliveries, newest first",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION, status: { value: "pending|delivered|failed|skipped", help: "" } },
    parse: (a) => ({
      tenant: tenant(a),
      id: a.id!,
      status: oneOf("status", a.status, ["pending", "delivered", "failed", "skipped"] as const) ?? null,
    }),
    run: async (ctx, i) => {
      await getEndpointRow(ctx.sql, i.tenant, i.id);
      return (await listDeliveries(ctx.sql, i.tenant, i.id, { beforeSeq: null, limit: LIST_LIMIT, status: i.status })).map(presentDelivery);
    },
  }),
  command({
    name: "webhook replay",
    summary: "Send a delivery's message again (--delivery), or a message to an endpoint (--id and --message); same webhook-id",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      delivery: { value: "<delivery id>", help: "dlv_…" },
      id: { value: "<endpoint id>", help: "wh_…, with --message" },
      message: { value: "<message id>", help: "msg_…, with --id" },
    },
    parse: (a) => {
      if (a.delivery ? a.id || a.message : !(a.id && a.message)) throw new UsageError("Give --delivery, or both --id and --message");
      return { tenant: tenant(a), delivery: a.delivery, id: a.id, message: a.message };
    },
    run: (ctx, i) =>
      i.delivery
        ? replayDelivery(deps(ctx), i.tenant, OPERATOR, i.delivery)
        : replayMessage(deps(ctx), i.tenant, OPERATOR, { endpointId: i.id!, messageId: i.message! }),
  }),
];
