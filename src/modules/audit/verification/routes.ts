/**
 * GET /dashboard/audit-log/verification: the chain check of `audit verify` (../verify.ts) for the session's team
 * and environment, as the dashboard shows it (docs/audit-log.md).
 */
import { Elysia, t } from "elysia";
import { authPlugin, type AuthDeps } from "../../../http/auth";
import type { Sql } from "../../../db/client";
import { data } from "../../../http/envelope";
import { verifyAuditChain } from "../verify";

const Verdict = t.Object(
  {
    ok: t.Boolean({ description: "true: every entry up to the head links and hashes as written" }),
    entries: t.Integer({ minimum: 0, description: "Entries verified (when broken: those before the break)" }),
    head: t.Optional(
      t.Union([t.Object({ chainSeq: t.Integer(), hash: t.String() }), t.Null()], {
        description: "When ok: the newest entry's position and hash (null for an empty log); record it elsewhere to anchor later checks",
      }),
    ),
    brokenAt: t.Optional(
      t.Object({ id: t.Union([t.String(), t.Null()]), chainSeq: t.Integer() }, { description: "When broken: the first entry that fails" }),
    ),
    reason: t.Optional(t.String({ description: "When broken: hash_mismatch, broken_link or gap" })),
    detail: t.Optional(t.String({ description: "When broken: what the reason means" })),
  },
  {
    $id: "AuditLogVerification",
    examples: [
      { ok: true, entries: 42, head: { chainSeq: 42, hash: "3b7e1d9f5a2c8e4b0d6f2a8c4e0b6d2f8a4c0e6b2d8f4a0c6e2b8d4f0a6c2e8b" } },
      {
        ok: false,
        entries: 6,
        brokenAt: { id: "aud_01JH5Q8T0M3V9X2Y4Z6A8B0C1L", chainSeq: 7 },
        reason: "hash_mismatch",
        detail: "The entry's stored hash does not match its content: it was edited after it was written",
      },
    ],
  },
);

type RouteDeps = AuthDeps & { sql: Sql };

export function auditVerificationRoutes(deps: RouteDeps) {
  return new Elysia().use(authPlugin(deps)).get(
    "/dashboard/audit-log/verification",
    async ({ principal, set }) => {
      set.headers["cache-control"] = "no-store";
      return { data: await verifyAuditChain(deps.sql, principal) };
    },
    {
      access: true,
      response: { 200: data(Verdict) },
      detail: {
        tags: ["Audit"],
        summary: "Verify the audit log's hash chain (dashboard session, role audit:read)",
        description:
          "Walks the session's team and environment's chain from its first entry, recomputing every hash (as `audit verify` in the CLI): `{ok: true, entries, head}` when it holds, or `{ok: false, entries, brokenAt: {id, chainSeq}, reason, detail}` naming the first broken entry. The whole chain is read on each call (a page at a time, in the database).",
      },
    },
  );
}
