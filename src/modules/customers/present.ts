/** Company and user rows to API records. */
import { type Static } from "elysia";
import type { Company, User } from "./schemas";
import type { CompanyRow, UserRow } from "./rows";

export const presentCompany = (r: CompanyRow): Static<typeof Company> => ({
  id: r.id,
  name: r.name ?? "",
  walletAddress: r.wallet_address ?? "",
  email: r.email ?? "",
  externalId: r.external_id ?? "",
  logoUrl: r.logo_url ?? "",
  traits: r.traits,
  activePlanId: r.active_plan_id ?? "",
  activeAddOnIds: r.active_add_on_ids,
  billingAnchor: r.billing_anchor?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
  lastSeenAt: r.last_seen_at.toISOString(),
});

export const presentUser = (r: UserRow): Static<typeof User> => ({
  id: r.id,
  name: r.name,
  email: r.email,
  walletAddress: r.wallet_address,
  externalId: r.external_id,
  idpUserId: r.idp_user_id,
  traits: r.traits,
  companyIds: r.company_ids ?? [],
  createdAt: r.created_at.toISOString(),
  lastSeenAt: r.last_seen_at.toISOString(),
});
