/** GET /audit-log: every mutating call, newest first (dashboard sessions with role audit:read); and its chain's verification. */
import { Elysia, t } from "elysia";
import { authPlugin } from "../../http/auth";
import { Page, PageQuery, pageRequest, pageResponse } from "../../http/pagination";
import { type AuthDeps } from "../../http/auth";
import type { Sql } from "../../db/client";
import { listAuditPage } from "./repo";
import { auditVerificationRoutes } from "./verification/routes";
import type { AuditRow } from "./rows";

const AuditRecord = t.Object(
  {
    id: t.String(),
    actorKind: t.String({
      description:
        "secret, restricted, publishable, legacy, embed, dashboard, operator, or system (the service itself, e.g. the webhook worker disabling an endpoint)",
    }),
    actorId: t.String({
      description:
        "The credential id (key_…, tok_…); for a dashboard session the signed-in operator (op_…); `cli` for the operator CLI; `webhooks` for the system",
    }),
    action: t.String({ description: "e.g. company.update, access_token.create" }),
    resourceType: t.String(),
    resourceId: t.String(),
    requestId: t.Union([t.String(), t.Null()]),
    details: t.Record(t.String(), t.Unknown()),
    createdAt: t.String({ format: "date-time" }),
    chainSeq: t.Integer({
      minimum: 1,
      description: "Position in this team and environment's tamper-evident chain: 1, 2, 3... in the order entries were linked",
    }),
    prevHash: t.String({ pattern: "^[0-9a-f]{64}$", description: "hash of the entry before it in the chain (64 zeros for the first)" }),
    hash: t.String({
      pattern: "^[0-9a-f]{64}$",
      description:
        "Hex SHA-256 over prevHash, chainSeq and every field of this entry (docs/audit-log.md); `audit verify` in the CLI checks the chain",
    }),
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
        chainSeq: 42,
        prevHash: "9f2c4e0b7a51d3e8c6f4a2b0d9e7c5a3f1b8d6e4c2a0f9e7d5c3b1a9f8e6d4c2",
        hash: "3b7e1d9f5a2c8e4b0d6f2a8c4e0b6d2f8a4c0e6b2d8f4a0c6e2b8d4f0a6c2e8b",
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
  chainSeq: Number(r.chain_seq),
  prevHash: r.prev_hash,
  hash: r.hash,
});

/** What these routes need; the service's wiring (src/app-deps.ts) provides it. */
type RouteDeps = AuthDeps & { sql: Sql; config: { tokenSigningSecret: string } };

export function auditRoutes(deps: RouteDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .use(auditVerificationRoutes(deps))
    .get(
      "/audit-log",
      async ({ principal, query }) => {
        const page = pageRequest(deps.config.tokenSigningSecret, "audit-log", principal, query);
        const rows = await listAuditPage(deps.sql, principal, page, query);
        return pageResponse(page, rows, present);
      },
      {
        access: true,
        query: t.Object({
          ...PageQuery,
          action: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
          resourceType: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
          resourceId: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
          actorId: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
        }),
        response: Page(AuditRecord),
        detail: {
          tags: ["Audit"],
          summary: "List the audit log (dashboard session, role audit:read)",
          description:
            "Newest first. Each entry is linked into its team and environment's tamper-evident chain (chainSeq, prevHash, hash): " +
            "editing, deleting or reordering an entry breaks the chain from that entry on, which `npm run cli -- audit verify` reports.",
        },
      },
    );
}
