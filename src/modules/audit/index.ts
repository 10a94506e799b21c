/** GET /audit-log: every mutating call, newest first (dashboard sessions with role audit:read). */
import { Elysia, t } from "elysia";
import { authPlugin } from "../../http/auth";
import { Page, PageQuery, pageRequest, pageResponse } from "../../http/pagination";
import { type AuthDeps } from "../../http/auth";
import type { Sql } from "../../db/client";
import { listAuditPage, type AuditRow } from "./repo";

const AuditRecord = t.Object(
  {
    id: t.String(),
    actorKind: t.String({
      description:
        "secret, restricted, publishable, legacy, embed, dashboard, operator, or system (the service itself, e.g. the webhook worker disabling an endpoint)",
    }),
    actorId: t.String({ description: "The credential id (key_…, dsess_…, tok_…) or the operator" }),
    action: t.String({ description: "e.g. company.update, access_token.create" }),
    resourceType: t.String(),
    resourceId: t.String(),
    requestId: t.Union([t.String(), t.Null()]),
    details: t.Record(t.String(), t.Unknown()),
    createdAt: t.String({ format: "date-time" }),
  },
  {
    $id: "AuditLogEntry",
    examples: [
      {
        id: "audit_01JH5Q8T0M3V9X2Y4Z6A8B0C1L",
        actorKind: "secret",
        actorId: "key_01JH5Q8T0M3V9X2Y4Z6A8B0C1M",
        action: "company.update",
        resourceType: "company",
        resourceId: "comp_01JH5Q8T0M3V9X2Y4Z6A8B0C1D",
        requestId: "req_01JH5Q8T0M3V9X2Y4Z6A8B0C1N",
        details: { before: { name: "Acme" }, after: { name: "Acme Inc." } },
        createdAt: "2026-01-15T09:30:00.000Z",
      },
    ],
  },
);

const present = (r: AuditRow) => ({
  id: r.id,
  actorKind: r.actor_kind,
  actorId: r.actor_id,
  action: r.action,
  resourceType: r.resource_type,
  resourceId: r.resource_id,
  requestId: r.request_id,
  details: r.details,
  createdAt: r.created_at.toISOString(),
});

/** What these routes need; the service's wiring (src/app-deps.ts) provides it. */
type RouteDeps = AuthDeps & { sql: Sql; config: { tokenSigningSecret: string } };

export function auditRoutes(deps: RouteDeps) {
  return new Elysia().use(authPlugin(deps)).get(
    "/audit-log",
    async ({ principal, query }) => {
      const page = pageRequest(deps.config.tokenSigningSecret, "audit-log", principal, query);
      const rows = await listAuditPage(deps.sql, principal.teamId, principal.environment, page.beforeSeq, page.fetch, query);
      return pageResponse(deps.config.tokenSigningSecret, "audit-log", principal, page, rows, present);
    },
    {
      access: "GET /audit-log",
      query: t.Object({
        ...PageQuery,
        action: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
        resourceType: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
        resourceId: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
        actorId: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
      }),
      response: Page(AuditRecord),
      detail: { tags: ["Audit"], summary: "List the audit log (dashboard session, role audit:read)" },
    },
  );
}
