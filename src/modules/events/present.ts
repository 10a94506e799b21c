/** Event rows to API records. */
import { type Static } from "elysia";
import type { Event } from "./schemas";
import type { EventRow } from "./rows";

export const presentEvent = (r: EventRow): Static<typeof Event> => ({
  id: r.id,
  eventType: "track",
  name: r.name,
  companyId: r.company_id,
  userId: r.user_id,
  traits: r.traits,
  sentAt: r.sent_at.toISOString(),
});
