/**
 * Minting embed credentials. Both kinds are company-scoped and die with the key that minted them.
 * The company (and user) are upserted in the same transaction as the audit record.
 */
import type { Sql } from "../../db/client";
import type { EntitlementRuntime } from "../entitlements/runtime";
import type { Clock } from "../../lib/clock";
import type { Principal } from "../../auth/kinds";
import type { EmbedTokens } from "../../auth/embed-tokens";
import type { EmbedClaims } from "../../auth/tokens";
import { newId } from "../../lib/ids";
import { actorOf, recordAudit } from "../audit/repo";
import { assertCompanyRef, assertUserRef, upsertCompany, upsertUser } from "../customers/identify";
import type { CompanyRef, UserRef } from "../customers/schemas";
import { EMBED_TTL, SESSION_TTL } from "./schemas";

export interface TokenDeps {
  sql: Sql;
  clock: Clock;
  embedTokens: EmbedTokens;
  entitlements: EntitlementRuntime;
}

export interface MintInput {
  company: CompanyRef;
  user?: UserRef;
  ttlSeconds?: number;
}

export interface MintedToken {
  token: string;
  tokenType: "Bearer";
  expiresAt: string;
  expiresIn: number;
  companyId: string;
  userId: string | null;
}

async function mint(deps: TokenDeps, principal: Principal, requestId: string, input: MintInput, kind: "embed" | "session"): Promise<MintedToken> {
  assertCompanyRef(input.company);
  if (input.user) assertUserRef(input.user);
  const ttl = input.ttlSeconds ?? (kind === "embed" ? EMBED_TTL.default : SESSION_TTL.default);
  const nowSeconds = Math.floor(deps.clock.now() / 1000);
  const jti = newId("tok");

  const { companyId, externalId, userId, changed } = await deps.sql.begin(async (tx) => {
    const { company, changed } = await upsertCompany(tx, principal, input.company);
    const user = input.user ? await upsertUser(tx, principal, input.user, { companyId: company.id }) : null;
    await recordAudit(tx, {
      teamId: principal.teamId,
      environment: principal.environment,
      actor: actorOf(principal, requestId),
      action: kind === "embed" ? "embed_token.create" : "access_token.create",
      resourceType: "company",
      resourceId: company.id,
      details: { tokenId: jti, ttlSeconds: ttl, userId: user?.id ?? null },
    });
    return { companyId: company.id, externalId: company.external_id, userId: user?.id ?? null, changed };
  });

  // As after an identify: the integrator's id is remembered, and a company whose traits changed is
  // dropped from this instance's memory at once (others learn of it by NOTIFY).
  deps.entitlements.rememberCompany(principal, externalId, companyId);
  if (changed) deps.entitlements.companyChanged(principal, companyId);

  const claims: EmbedClaims = {
    jti,
    teamId: principal.teamId,
    environment: principal.environment,
    companyId,
    userId: userId ?? undefined,
    issuedByKeyId: principal.credentialId,
    exp: nowSeconds + ttl,
  };
  const token = await deps.embedTokens.sign(kind, claims, nowSeconds);
  return { token, tokenType: "Bearer", expiresAt: new Date(claims.exp * 1000).toISOString(), expiresIn: ttl, companyId, userId };
}

export const mintEmbedToken = (deps: TokenDeps, principal: Principal, requestId: string, input: MintInput) =>
  mint(deps, principal, requestId, input, "embed");
export const mintSessionToken = (deps: TokenDeps, principal: Principal, requestId: string, input: MintInput) =>
  mint(deps, principal, requestId, input, "session");
