/**
 * createApp(deps): the whole HTTP surface, without listening, so tests drive it through `app.handle`.
 * Order: request context (id, body limit, log) -> errors -> routes under /api/v1, each declaring its
 * schemas and its row of the access matrix.
 */
import { Elysia } from "elysia";
import { openapi } from "@elysiajs/openapi";
import "./http/integer-strings";
import { requestContext, withRequestId } from "./http/request-context";
import { withBodyLimit } from "./http/body-limit";
import { withEveryAnswer } from "./http/every-answer";
import { withWellFormedPath } from "./http/path-rules";
import { exactJsonBody, withJsonMediaType } from "./http/json-body";
import { errorHandler } from "./http/errors";
import { idempotencyPlugin, withIdempotency } from "./http/idempotency";
import { API_PREFIX, assertRoutesMatchTable } from "./auth/access";
import { takesCredential } from "./http/auth";
import { completeDocument } from "./http/openapi-complete";
import { unknownBodyFields, type BodySchemaOf } from "./http/unknown-fields";
import { apiReference } from "./http/api-reference";
import type { AppDeps } from "./app-deps";
import { healthRoutes } from "./modules/health";
import { tokenRoutes } from "./modules/tokens";
import { customerRoutes } from "./modules/customers";
import { auditRoutes } from "./modules/audit";
import { entitlementRoutes } from "./modules/entitlements";
import { eventRoutes } from "./modules/events";
import { catalogRoutes } from "./modules/catalog";
import { paymentRoutes } from "./modules/payments";
import { dashboardRoutes } from "./modules/dashboard";
import { webhookRoutes } from "./modules/webhooks";
import { subscriptionsPlugin } from "./modules/subscriptions";
import { invoicePlugin } from "./modules/invoices";
import { proofsPlugin } from "./modules/proofs";
import { escrowPlugin } from "./modules/escrow";
import { agentsPlugin } from "./modules/agents";
import { x402Plugin } from "./modules/x402";
import { reportRoutes } from "./modules/reports/routes";
import { isPageRequest, pagesHandler } from "./ui";

const API_DESCRIPTION = `Subscription billing and entitlements with on-chain settlement.

Authenticate every call with \`Authorization: Bearer <credential>\` (dashboard sessions may use the \`__Host-be_session\` cookie, \`be_session\` on plain-http development).
Errors have exactly one of three shapes: \`{error}\`, \`{error, code}\` (401, 403 and billing failures) or \`{error, details}\` (400, with field paths).
Request bodies carry only the fields their schema names: an unknown field, at any depth, is never ignored but refused with 400 \`{error: "Validation failed", details: {"body.<field>": "Unknown field: ..."}}\`, one entry per unknown field, so a typo such as \`planID\` fails loudly. Free key/value objects (\`traits\`, \`metadata\`) take any keys.
Every error has a code in one table, \`x-error-codes\` (code, status, shape); only the \`code\` shape writes it into the body.
Rate-limited routes answer with \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; a 429 for the request rate adds \`Retry-After\` (seconds).
Lists paginate with \`limit\` (1-200, default 50; larger values are rejected with 400) and an opaque \`cursor\`; responses are \`{data, count, nextCursor}\`.`;

export function createApp(deps: AppDeps) {
  // "typebox" normalisation: the default (exactMirror) coerces a string or number given for a record field
  // into an object before validating it, so `traits: "x"` would pass as {"0":"x"}.
  // The OpenAPI pass looks up routes' body schemas once the app is built (see completeDocument).
  let routes: { method: string; path: string; hooks: { body?: unknown } }[] = [];
  // Indexed on first use (every request with a body looks its schema up: unknown-fields.ts).
  let bodies: Map<string, unknown> | undefined;
  const bodyOf: BodySchemaOf = (method, path) => {
    bodies ??= new Map(routes.map((r) => [`${r.method} ${r.path}`, r.hooks.body]));
    return bodies.get(`${method} ${path}`) as never;
  };
  const app = new Elysia({ normalize: "typebox" })
    .use(requestContext({ logger: deps.logger }))
    .use(errorHandler({ logger: deps.logger }))
    .use(exactJsonBody())
    .use(unknownBodyFields(bodyOf))
    .use(idempotencyPlugin(deps))
    .use(apiDocument(bodyOf))
    .group(API_PREFIX, (api) =>
      api
        .use(healthRoutes(deps))
        .use(tokenRoutes(deps))
        .use(customerRoutes(deps))
        .use(catalogRoutes(deps))
        .use(auditRoutes(deps))
        .use(entitlementRoutes(deps))
        .use(eventRoutes(deps))
        .use(paymentRoutes(deps))
        .use(dashboardRoutes(deps))
        .use(webhookRoutes(deps))
        .use(subscriptionsPlugin(deps))
        .use(invoicePlugin(deps))
        .use(proofsPlugin(deps))
        .use(escrowPlugin(deps))
        .use(agentsPlugin(deps))
        .use(x402Plugin(deps))
        .use(reportRoutes(deps)),
    );
  routes = app.routes as never;
  // A route's identity is its row of the route table: no route without one, no row without its route.
  assertRoutesMatchTable(app.routes, takesCredential);
  return app;
}

const API_TITLE = "Billing and Entitlements API";

/** The OpenAPI document and its reference page; the hook is local, so it sees only the document's route. */
function apiDocument(bodyOf: BodySchemaOf) {
  return new Elysia({ name: "api-document" })
    .onAfterHandle(({ response }) => {
      if (response && typeof response === "object" && "openapi" in response) completeDocument(response, API_PREFIX, bodyOf);
    })
    .use(apiReference({ path: `${API_PREFIX}/reference`, specPath: `${API_PREFIX}/openapi.json`, title: API_TITLE }))
    .use(
      openapi({
        specPath: `${API_PREFIX}/openapi.json`,
        // Only the document: the plugin's own page loads its UI from a CDN; ours (apiReference) is served from node_modules.
        provider: null,
        documentation: {
          info: { title: API_TITLE, version: "1.0.0", description: API_DESCRIPTION },
          // Relative: the origin the document was fetched from, whatever host and port this server runs on.
          servers: [{ url: "/", description: "This server" }],
          components: {
            securitySchemes: {
              bearer: {
                type: "http",
                scheme: "bearer",
                description: "sk_/rk_/pk_ live or test keys, legacy api_ keys, embed tokens (be_tok_… or JWT), or a dashboard session",
              },
              dashboardCookie: { type: "apiKey", in: "cookie", name: "__Host-be_session" },
            },
          },
          security: [{ bearer: [] }, { dashboardCookie: [] }],
        },
      }),
    );
}

export type App = ReturnType<typeof createApp>;

/**
 * What the HTTP server runs for each request (src/index.ts; the tests' request helper is the same):
 * what every answer carries (headers, failures outside the app), malformed paths refused before anything
 * resolves them, the body limit, JSON media types in the case Elysia reads, the Idempotency-Key store's body
 * hash and record of the final response, the request id on the app's every answer, then the app.
 * The dashboard's pages (/dashboard) are a client of that same API, called in process (docs/dashboard.md).
 */
export const serverFetch = (deps: AppDeps, app: App) => {
  const api = withJsonMediaType(
    withIdempotency(
      deps,
      withRequestId((request) => app.handle(request)),
    ),
  );
  const pages = pagesHandler(api, deps.logger);
  return withEveryAnswer(
    deps.logger,
    withWellFormedPath(
      withBodyLimit(deps.config.bodyLimitBytes, deps.logger, (request) => (isPageRequest(request.url) ? pages(request) : api(request))),
    ),
  );
};
