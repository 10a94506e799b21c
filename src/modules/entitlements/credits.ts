/**
 * Granting credits to a company. The grant locks the company's spendable grants first, the same locks
 * a metering batch takes, so grants and burns are serialised per company and the balance published
 * at commit is always the latest one.
 */
import type { Sql } from "../../db/client";
import type { Db } from "../../db/queries";
import { apiError } from "../../lib/errors";
import { recordAudit } from "../audit/repo";
import type { OperationContext } from "../operation-context";
import { findCompanyByKeys } from "../customers/repo";
import { OPERATOR } from "../teams/roles";
import { publishBalance } from "../changes/publish";
import { inBurnOrder } from "./compute";
import { insertCreditGrant, lockCreditGrants } from "./repo";
import type { CreditGrant } from "./rows";
import { type Tenant } from "../../lib/tenant";

export interface CreditGrantInput {
  /** our comp_ id, the integrator's id, a wallet or an email */
  company: string;
  amount: bigint;
  reason?: string;
  expiresAt?: Date | null;
}

export async function grantCredits(sql: Sql, tenant: Tenant, input: CreditGrantInput, now: number = Date.now()) {
  if (input.amount <= 0n) throw apiError("validation_failed", "Amount must be positive", { amount: "> 0" });
  return sql.begin(async (tx) => {
    const company = await findCompanyByKeys(tx, tenant, { id: input.company, wallet: input.company, email: input.company });
    if (!company) throw apiError("not_found", `No company ${input.company}`);
    return grantCreditsInTx({ tx, tenant, actor: OPERATOR, now: new Date(now) }, company.id, input);
  }) as Promise<CreditGrant>;
}

// Credits are bigint: integer strings, like the API's creditBalance.
export const presentCreditGrant = (g: CreditGrant) => ({
  id: g.id,
  companyId: g.company_id,
  amount: g.amount.toString(),
  remaining: g.remaining.toString(),
  reason: g.reason,
  expiresAt: g.expires_at?.toISOString() ?? null,
  createdAt: g.created_at.toISOString(),
});

/**
 * Locks a company's credit grants for the rest of the transaction (what a grant or a burn takes first): a
 * paid checkout session takes it before anything that writes an audit entry, so it waits in the same
 * order as a plain grant (grants, then the audit chain) and the two never deadlock.
 */
export const lockCompanyGrants = (tx: Db, tenant: Tenant, companyId: string, now: number) => lockCreditGrants(tx, tenant, companyId, now);

/** The grant inside the caller's transaction (a paid checkout session grants with its own commit). */
export async function grantCreditsInTx(
  operation: OperationContext,
  companyId: string,
  input: Omit<CreditGrantInput, "company">,
): Promise<CreditGrant> {
  const { tx, tenant, actor } = operation;
  const now = operation.now.getTime();
  const held = await lockCreditGrants(tx, tenant, companyId, now);
  const grant = await insertCreditGrant(tx, tenant, companyId, input);
  await recordAudit(tx, {
    ...tenant,
    actor,
    action: "credit.grant",
    resourceType: "credit_grant",
    resourceId: grant.id,
    details: { companyId, amount: input.amount.toString() },
  });
  // `held` comes locked in burn order and the new grant is the newest of its expiry: oldest first, as inBurnOrder asks.
  const lots = inBurnOrder(
    [...held, grant].map((g) => ({ remaining: g.remaining, expiresAt: g.expires_at?.getTime() ?? null })),
    now,
  );
  await publishBalance(
    tx,
    tenant,
    companyId,
    lots.map((l) => [l.remaining.toString(), l.expiresAt]),
  );
  return grant;
}
