/** POST /events (legacy api_ keys and embed tokens, spec rule 5) and GET /events (dashboard, catalog:read). */
import { Elysia } from "elysia";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "../../http/error-schemas";
import { authPlugin } from "../../http/auth";
import { documentedResponses } from "../../http/openapi";
import { ERRORS } from "../../lib/errors";
import { Page, pageRequest, pageResponse } from "../../http/pagination";
import { type AuthDeps } from "../../http/auth";
import type { EntitlementDeps } from "../entitlements/service";
import type { IdentityDeps } from "./identity";
import { Event, EventAccepted, EventBody, EventListQuery } from "./schemas";
import { presentEvent } from "./present";
import { ingestEvent } from "./service";
import { listEventPage } from "./repo";
import { companyIdFilter } from "../customers/repo";
import { existingCompanyId } from "./identity";
import { usageKey, type PaymentGateDeps } from "../entitlements/gate";
import { withX402Headers, X402_DESCRIPTION, X402_REQUEST_HEADERS } from "../entitlements/docs";

const POST_DESCRIPTION = `One event per call.

- \`identify\` upserts the company and user (matched on any of their keys, traits merged; top-level \`traits\` go to the user, or to the company when no user is named). It records no event and consumes nothing.
- \`track\` records the event. When \`name\` equals a feature's \`featureKey\` (or else its \`eventKey\`), that feature's entitlement is enforced first:
  one unit of a quota or \`creditsPerUse\` credits are consumed, or the event is refused with ${ERRORS.insufficient_credits.status} \`{error: "Insufficient credits", code: "insufficient_credits"}\`,
  ${ERRORS.limit_reached.status} \`{error: "Limit reached", code: "limit_reached"}\`, or ${ERRORS.feature_not_enabled.status} \`{error: "Feature not enabled", code: "feature_not_enabled"}\` (boolean feature off, no entitlement, trait rule not met).
  A metered track must name its company; an unknown one has no plan, so the track is refused, and a refusal creates or changes no company or user.
- \`idempotencyKey\` (1-128 characters): a retry with the same key returns the first attempt's outcome, refusals included (kept 7 days), and never counts twice. The key used again for another event name is 422 \`{error, details}\` and records no event.

Acknowledged only after the event is committed. With an embed token, the company (and user) default to the token's; naming another company is 403 \`wrong_company\`, and describing it (a company \`name\`, \`wallet\`, \`email\` or \`traits\`, or top-level \`traits\` of an identify naming no user) is 403 \`wrong_credential_kind\`: those come from your server.`;

/** What these routes need; the service's wiring (src/app-deps.ts) provides it. */
type RouteDeps = AuthDeps & EntitlementDeps & IdentityDeps & PaymentGateDeps & { config: { tokenSigningSecret: string } };

export function eventRoutes(deps: RouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  return new Elysia()
    .use(authPlugin(deps))
    .post(
      "/events",
      ({ principal, body, request, set }) => {
        // The company the pack's credits go to, read only when a payment arrives.
        const companyId = () => existingCompanyId(deps, principal, body.company);
        return deps.paymentGate(
          { request, principal, body, companyId, headers: set.headers, usageKey: usageKey("events", body.idempotencyKey) },
          () => ingestEvent(deps, principal, body),
        );
      },
      {
        access: true,
        body: EventBody,
        detail: {
          tags: ["Events"],
          summary: "Ingest a track or identify event",
          description: `${POST_DESCRIPTION}\n\n${X402_DESCRIPTION}`,
          parameters: [...X402_REQUEST_HEADERS],
          responses: withX402Headers(documentedResponses({ 200: EventAccepted, 402: CodedErrorBody, 422: ValidationErrorBody, 429: CodedErrorBody })),
        },
      },
    )
    .get(
      "/events",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "events", principal, query);
        // Only track events are stored; identify events upsert and leave no record to list.
        const rows =
          query.eventType !== undefined && query.eventType !== "track"
            ? []
            : await listEventPage(deps.sql, principal, page, await companyIdFilter(deps.sql, principal, query.companyId));
        return pageResponse(page, rows, presentEvent);
      },
      {
        access: true,
        query: EventListQuery,
        response: { 200: Page(Event), 400: ValidationErrorBody, 404: ErrorBody },
        detail: {
          tags: ["Events"],
          summary: "List ingested usage, newest first",
          description:
            "Accepted track events and /usage/consume records of the session's environment (refusals are never listed: those with an idempotencyKey are kept 7 days to answer retries, the others only counted). Filters: `eventType`, `companyId` (our comp_ id or your id for the company).",
        },
      },
    );
}
