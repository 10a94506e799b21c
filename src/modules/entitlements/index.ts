/**
 * GET /check, GET /flags/check, GET /entitlements, POST /usage/consume: the client-safe hot path; and the
 * dashboard's view of one company's entitlements and overrides (./dashboard/routes.ts).
 */
import { Elysia, t } from "elysia";
import { authPlugin } from "../../http/auth";
import { documentedResponses } from "../../http/openapi";
import { type AuthDeps } from "../../http/auth";
import { checkFeature, checkFlag, consume, listEntitlements, type EntitlementDeps } from "./service";
import { CheckQuery, CheckResponse, ConsumeBody, ConsumeResponse, EntitlementsQuery, EntitlementsResponse, FlagQuery, FlagResponse } from "./schemas";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "../../http/error-schemas";
import { withX402Headers, X402_DESCRIPTION, X402_REQUEST_HEADERS } from "./docs";
import { companyRefFor } from "./service";
import { usageKey, type PaymentGateDeps } from "./gate";
import type { Sql } from "../../db/client";
import { companyEntitlementRoutes } from "./dashboard/routes";

const tags = ["Entitlements"];

const COMMON = `Answered from this instance's memory (no database read per check); usage is visible here at once after it is
recorded, and on other instances within milliseconds (PostgreSQL NOTIFY at commit).
An unknown company is not an error: \`access\` is false with reason \`company_not_found\`. An unknown feature is 404.
Rate limited: 500 requests per credential per sliding 60 s (429 \`{error: "Rate limit exceeded"}\`); an embed token has its own window.`;

const RULES = `Which entitlement applies: a company override if there is one; otherwise the most generous of the company's plan and
add-on plans (unlimited boolean > quota (higher limit first) > credits (cheaper first) > trait rule > switched off).
Quotas reset on the company's billing anchor (day, week, month by the anchor's day of the month, or lifetime).
Credits are spendable until they expire; they burn soonest-expiring first, never-expiring last, then oldest first.`;

/** What these routes need; the service's wiring (src/app-deps.ts) provides it. */
type RouteDeps = AuthDeps & EntitlementDeps & PaymentGateDeps & { sql: Sql };

export function entitlementRoutes(deps: RouteDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .use(companyEntitlementRoutes(deps))
    .get("/check", async ({ principal, query }) => ({ data: await checkFeature(deps, principal, query) }), {
      access: true,
      query: CheckQuery,
      detail: {
        tags,
        summary: "May this company use this feature now?",
        description: `${COMMON}\n\n${RULES}`,
        responses: documentedResponses({ 200: CheckResponse, 404: ErrorBody }),
      },
    })
    .get("/flags/check", async ({ principal, query }) => ({ data: await checkFlag(deps, principal, query) }), {
      access: true,
      query: FlagQuery,
      detail: {
        tags,
        summary: "A feature as an on/off flag for a company",
        description: `\`value\` is \`access\` of GET /check, without the quota and credit figures.\n\n${COMMON}`,
        responses: documentedResponses({ 200: FlagResponse, 404: ErrorBody }),
      },
    })
    .get("/entitlements", async ({ principal, query }) => ({ data: await listEntitlements(deps, principal, query) }), {
      access: true,
      query: EntitlementsQuery,
      detail: {
        tags,
        summary: "Every feature of the catalog as GET /check answers it for one company",
        description: `An unknown company lists every feature off (reason \`company_not_found\`), as /check answers it.\n\n${COMMON}\n\n${RULES}`,
        responses: documentedResponses({ 200: EntitlementsResponse }),
      },
    })
    .post(
      "/usage/consume",
      async ({ principal, body, request, set }) => {
        // The company the pack's credits go to, read only when a payment arrives.
        const companyId = async () => {
          const ref = await companyRefFor(deps, principal, body.company, "body.company");
          return (await deps.entitlements.company(principal, ref))?.id ?? null;
        };
        return {
          data: await deps.paymentGate(
            { request, principal, body, companyId, headers: set.headers, usageKey: usageKey("consume", body.idempotencyKey) },
            () => consume(deps, principal, body),
          ),
        };
      },
      {
        access: true,
        body: ConsumeBody,
        detail: {
          tags,
          parameters: [...X402_REQUEST_HEADERS],
          responses: withX402Headers(
            documentedResponses({
              200: ConsumeResponse,
              402: CodedErrorBody,
              404: ErrorBody,
              422: ValidationErrorBody,
              429: t.Union([CodedErrorBody, ErrorBody]),
            }),
          ),
          summary: "Consume units of a feature for a company, exactly",
          description: `All or nothing: \`quantity\` units are used, or none. Refusals: 402 \`{error: "Insufficient credits", code: "insufficient_credits"}\`;
429 \`{error: "Limit reached", code: "limit_reached"}\`; 429 \`{error: "Feature not enabled", code: "feature_not_enabled"}\` (no entitlement,
switched off, or trait rule not met). The reply is sent after the use is committed (durable), and shows the state after it.
Exact under any concurrency and across instances: each use is decided under a row lock in PostgreSQL.
With \`idempotencyKey\`, a retry returns the first attempt's outcome (\`replayed: true\`; a refusal's for 7 days) and consumes nothing more; the key
used again with another feature or quantity is 422 \`{error, details}\` and consumes nothing.
404 for an unknown company or feature. Recorded as usage (listed by GET /events under the feature's key).\n\n${RULES}\n\n${X402_DESCRIPTION}`,
        },
      },
    );
}
