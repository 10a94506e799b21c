/** Credential kinds, permissions and dashboard roles: the vocabulary of the access matrix. */
import type { Environment } from "../lib/tenant";

export const CREDENTIAL_KINDS = ["secret", "restricted", "publishable", "legacy", "embed", "dashboard"] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

export const PERMISSIONS = [
  "entitlements.read",
  "usage.consume",
  "customers.read",
  "companies.write",
  "payments.write",
  "subscriptions.write",
  // Not in the spec's catalog: reading mandates (GET /mandates/{id}/status) and subscriptions.
  "subscriptions.read",
  "tokens.create",
  "invoices.read",
  // Not in the spec's catalog: recording refunds (POST /invoices/{id}/refunds) and, later, other invoice writes.
  "invoices.write",
  // Not in the spec's catalog: the API-key equivalent of the dashboard's catalog:write role (PUT/DELETE /features).
  "catalog.write",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Publishable keys live in browsers: they may only ever hold client-safe read permissions. */
export const PUBLISHABLE_PERMISSIONS: readonly Permission[] = ["entitlements.read"];

/**
 * Roles a team member holds in the dashboard. `owner` and `admin` hold every role (the owner alone may
 * make or unmake owners); the others grant one area, read or write (write implies nothing about read:
 * give both). One list: the access matrix, the member routes and the CLI all check against it.
 */
export const DASHBOARD_ROLES = [
  "owner",
  "admin",
  "catalog:read",
  "catalog:write",
  "customers:read",
  "customers:write",
  "billing:read",
  "billing:write",
  "audit:read",
  "webhooks:read",
  "webhooks:write",
  "members:read",
  "members:write",
  "keys:read",
  "keys:write",
] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

export type KeyType = "SECRET" | "RESTRICTED" | "PUBLISHABLE" | "LEGACY";

export const KEY_TYPE_BY_KIND = { secret: "SECRET", restricted: "RESTRICTED", publishable: "PUBLISHABLE", legacy: "LEGACY" } as const;
export const KIND_BY_KEY_TYPE: Record<KeyType, CredentialKind> = {
  SECRET: "secret",
  RESTRICTED: "restricted",
  PUBLISHABLE: "publishable",
  LEGACY: "legacy",
};

/** Who is calling, once the credential is verified. Services receive this, never the request. */
export interface Principal {
  kind: CredentialKind;
  /** key id, dashboard session id, or embed token id */
  credentialId: string;
  teamId: string;
  environment: Environment;
  /** null: every permission (a secret key without an explicit list, or a legacy key) */
  permissions: readonly string[] | null;
  /** dashboard sessions: the member's roles as they are now (read from the membership, not the session) */
  roles: readonly string[];
  /** dashboard sessions only: the signed-in operator (the audit log's actor) and their membership of the team */
  operatorId?: string;
  memberId?: string;
  /** embed tokens only: the one company they may act for */
  companyId?: string;
  userId?: string;
}
