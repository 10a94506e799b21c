/** POST /events and GET /events shapes: exactly the spec's body and Event object. */
import { t, type Static } from "elysia";
import { IdempotencyKey } from "../../http/idempotency-key";
import { CompanyRef, UserRef } from "../customers/schemas";
import { PageQuery } from "../../http/pagination";

export const EventBody = t.Object(
  {
    event_type: t.Union([t.Literal("track"), t.Literal("identify")], { description: "track or identify" }),
    name: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 200,
        description: "Required for track. Equal to a feature's featureKey or eventKey: that feature's entitlement is enforced first.",
      }),
    ),
    company: t.Optional(CompanyRef),
    user: t.Optional(UserRef),
    traits: t.Optional(
      t.Record(t.String(), t.Unknown(), {
        description: "Event properties (track); merged into the user, or the company when no user is named (identify)",
      }),
    ),
    idempotencyKey: t.Optional(IdempotencyKey("A retry with the same key returns the first outcome and never counts twice")),
  },
  {
    $id: "EventRequest",
    examples: [{ event_type: "track", name: "api-calls", company: { id: "acme" }, traits: { endpoint: "/v1/search" }, idempotencyKey: "evt-7f3a" }],
  },
);
export type EventBody = Static<typeof EventBody>;

export const EventAccepted = t.Object({
  ok: t.Literal(true),
  data: t.Object({ companyId: t.Union([t.String(), t.Null()]), userId: t.Union([t.String(), t.Null()]) }),
});

export const Event = t.Object(
  {
    id: t.String({ description: "evt_…" }),
    eventType: t.Literal("track"),
    name: t.String(),
    companyId: t.Union([t.String(), t.Null()]),
    userId: t.Union([t.String(), t.Null()]),
    traits: t.Record(t.String(), t.Unknown()),
    sentAt: t.String({ format: "date-time", description: "Time of receipt" }),
  },
  {
    $id: "Event",
    examples: [
      {
        id: "evt_01JH5Q8T0M3V9X2Y4Z6A8B0C1K",
        eventType: "track",
        name: "api-calls",
        companyId: "comp_01JH5Q8T0M3V9X2Y4Z6A8B0C1D",
        userId: null,
        traits: { endpoint: "/v1/search" },
        sentAt: "2026-01-15T09:30:00.000Z",
      },
    ],
  },
);

export const EventListQuery = t.Object({
  ...PageQuery,
  eventType: t.Optional(
    t.String({ minLength: 1, maxLength: 20, description: "track (identify events are not stored as events, so they list nothing)" }),
  ),
  companyId: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "Our comp_ id or your id for the company" })),
});
