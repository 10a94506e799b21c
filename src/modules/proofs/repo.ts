/** Typed access to verified zkTLS proofs (sql/queries/zktls_proof_*). */
import { queries, run, runOne, type Db } from "../../db/queries";
import type { PageWindow } from "../../http/pagination";
import type { Tenant } from "../../lib/tenant";
import type { ReclaimClaimData } from "./compute";
import type { ZktlsProofRow } from "./rows";

const Q = queries(["zktls_proof_insert", "zktls_proof_list_page", "company_id_find_by_ref"]);

/** What a verified proof stores beside its claim. */
export interface VerifiedProof {
  id: string;
  companyId: string | null;
  identifier: string;
  signers: string[];
  createdAt: Date;
}

/** Stores a verified proof; null when its identifier is stored already (by any tenant: a replay). */
export const insertProof = (db: Db, t: Tenant, p: VerifiedProof, claim: ReclaimClaimData) =>
  runOne<ZktlsProofRow>(db, Q.zktls_proof_insert, [
    p.id,
    t.teamId,
    t.environment,
    p.companyId,
    p.identifier,
    p.signers,
    p.createdAt,
    {
      provider: claim.provider,
      owner: claim.owner,
      timestampS: claim.timestampS,
      epoch: claim.epoch,
      parameters: claim.parameters,
      context: claim.context,
    },
  ]);

/** One page of the tenant's proofs, newest first, optionally of one company and one provider. */
export const listProofPage = (db: Db, t: Tenant, page: PageWindow, filters: { companyId: string | null; provider: string | null }) =>
  run<ZktlsProofRow>(db, Q.zktls_proof_list_page, [t.teamId, t.environment, page.beforeSeq, page.fetch, filters.companyId, filters.provider]);

/** Our comp_ id of the tenant's company named by our id or the integrator's; null when there is none. */
export const findCompanyId = async (db: Db, t: Tenant, ref: string): Promise<string | null> =>
  (await runOne<{ id: string }>(db, Q.company_id_find_by_ref, [t.teamId, t.environment, ref]))?.id ?? null;
