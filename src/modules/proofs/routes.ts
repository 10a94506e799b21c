/** POST /proofs/zktls (server keys, companies.write) and GET /proofs/zktls (server keys and dashboard, customers.read). */
import { Elysia } from "elysia";
import { authPlugin, type AuthDeps } from "../../http/auth";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "../../http/error-schemas";
import { filteredList, Page, pageRequest, pageResponse } from "../../http/pagination";
import type { Clock } from "../../lib/clock";
import type { Sql } from "../../db/client";
import { LIST_DESCRIPTION, SUBMIT_DESCRIPTION } from "./docs";
import { findCompanyId, listProofPage } from "./repo";
import type { ZktlsProofRow } from "./rows";
import { ZktlsProof, ZktlsProofCreated, ZktlsProofListQuery, ZktlsProofSubmission } from "./schemas";
import { submitProof, type ZktlsPolicy } from "./submit";

/** What these routes need; the service's wiring (src/app-deps.ts) provides it. */
export type ProofRouteDeps = AuthDeps & { sql: Sql; clock: Clock; config: { tokenSigningSecret: string; zktls: ZktlsPolicy } };

export const presentProof = (row: ZktlsProofRow): ZktlsProof => ({
  id: row.id,
  companyId: row.company_id,
  provider: row.provider,
  identifier: row.identifier,
  owner: row.owner,
  timestamp: row.claimed_at.toISOString(),
  epoch: row.epoch,
  parameters: row.parameters,
  context: row.context,
  signers: row.signers,
  createdAt: row.created_at.toISOString(),
});

export function zktlsRoutes(deps: ProofRouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  return new Elysia()
    .use(authPlugin(deps))
    .post(
      "/proofs/zktls",
      async ({ principal, body, set }) => {
        const row = await submitProof({ db: deps.sql, tenant: principal, policy: deps.config.zktls, now: new Date(deps.clock.now()) }, body);
        set.status = 201;
        return { proof: presentProof(row) };
      },
      {
        access: true,
        body: ZktlsProofSubmission,
        response: { 201: ZktlsProofCreated, 400: ValidationErrorBody, 404: ErrorBody, 409: CodedErrorBody },
        detail: { tags: ["Proofs"], summary: "Submit a zkTLS proof", description: SUBMIT_DESCRIPTION },
      },
    )
    .get(
      "/proofs/zktls",
      async ({ principal, query }) => {
        const list = filteredList("zktls-proofs", { companyId: query.companyId, providerId: query.providerId });
        const page = pageRequest(secret, list, principal, query);
        // An unknown company lists nothing: its reference is kept as the filter, which no row holds.
        const companyId = query.companyId === undefined ? null : ((await findCompanyId(deps.sql, principal, query.companyId)) ?? query.companyId);
        const rows = await listProofPage(deps.sql, principal, page, { companyId, provider: query.providerId ?? null });
        return pageResponse(page, rows, presentProof);
      },
      {
        access: true,
        query: ZktlsProofListQuery,
        response: { 200: Page(ZktlsProof), 400: ValidationErrorBody },
        detail: { tags: ["Proofs"], summary: "List verified zkTLS proofs, newest first", description: LIST_DESCRIPTION },
      },
    );
}
