/**
 * The scenarios, in the order they run, and the requests each rotates through. Payload shapes are
 * the service's final ones; each metered request names a different company in turn, so the load
 * spreads over every company's counter as real traffic would.
 */
import type { RequestTemplate } from "./http1";

export type Target = "baseline" | "app" | "naive";

export interface Scenario {
  name: string;
  target: Target;
  requests: RequestTemplate[];
  /** Statuses that count as success; anything else is an error. */
  allow: number[];
}

const json = { "content-type": "application/json" };
// A metered write is acknowledged by any 2xx; the stored-row count then tells whether it was durable.
const WRITE_OK = [200, 201, 202];
const KEYED_REQUESTS = 100_000;

export function scenarios(companies: string[], secretKey: string, legacyKey: string): Scenario[] {
  const secret = { authorization: `Bearer ${secretKey}` };
  const legacy = { authorization: `Bearer ${legacyKey}` };
  const trackFor = (id: string) => ({ event_type: "track", name: "api-calls", company: { id } });
  return [
    { name: "baseline_elysia", target: "baseline", allow: [200], requests: [{ method: "GET", path: "/api/v1/ping" }] },
    {
      name: "check",
      target: "app",
      allow: [200],
      requests: companies.map((c) => ({ method: "GET", path: `/api/v1/check?company=${encodeURIComponent(c)}&feature=api-calls`, headers: secret })),
    },
    {
      name: "events_metered",
      target: "app",
      allow: WRITE_OK,
      requests: companies.map((c) => ({ method: "POST", path: "/api/v1/events", headers: { ...legacy, ...json }, body: trackFor(c) })),
    },
    {
      name: "usage_consume",
      target: "app",
      allow: WRITE_OK,
      requests: companies.map((c) => ({
        method: "POST",
        path: "/api/v1/usage/consume",
        headers: { ...secret, ...json },
        body: { company: c, feature: "ai-tokens", quantity: 1 },
      })),
    },
    {
      // The same use with an Idempotency-Key header, a new key each request (more requests than a run
      // sends, so none is a replay): what the header's claim and stored response add to a write.
      name: "usage_consume_keyed",
      target: "app",
      allow: WRITE_OK,
      requests: Array.from({ length: KEYED_REQUESTS }, (_, i) => {
        const c = companies[i % companies.length]!;
        return {
          method: "POST",
          path: "/api/v1/usage/consume",
          headers: { ...secret, ...json, "idempotency-key": `bench-${i}` },
          body: { company: c, feature: "ai-tokens", quantity: 1 },
        };
      }),
    },
    {
      name: "naive_events",
      target: "naive",
      allow: WRITE_OK,
      requests: companies.map((c) => ({ method: "POST", path: "/api/v1/events", headers: { ...legacy, ...json }, body: trackFor(c) })),
    },
  ];
}
