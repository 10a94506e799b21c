/**
 * The endpoint-by-credential matrix, in one place. Every authenticated route names its entry here;
 * docs/api/access.md#the-access-matrix shows this table and test/api/access-matrix.test.ts checks it row by row.
 *
 * Reading a row: `kinds` are the credential kinds accepted (any other kind: 403 wrong_credential_kind).
 * `permission` applies to secret, restricted and publishable keys (a secret key without an explicit
 * list holds all); a list means any one of them. `role` applies to dashboard sessions (`admin` holds all). Legacy `api_` keys and
 * embed tokens need no permission: the kind itself is the grant, and embed tokens are confined to
 * their company by the route's handler. `rateLimited` marks the five endpoints of the spec's request
 * rate limit; the window is per credential (an embed token has its own, so browser reads never spend
 * the server key's quota).
 */
import { apiError, type ApiError } from "../lib/errors";
import type { CredentialKind, DashboardRole, Permission, Principal } from "./kinds";

export interface AccessPolicy {
  kinds: readonly CredentialKind[];
  /** one permission, or a list of which any one suffices */
  permission?: Permission | readonly Permission[];
  role?: DashboardRole;
  /** the spec's request-rate limit (500 per credential per sliding 60 s) applies */
  rateLimited?: true;
}

const SERVER_KEYS = ["secret", "restricted"] as const;
const SERVER_KEYS_AND_DASHBOARD = [...SERVER_KEYS, "dashboard"] as const;

export const ACCESS = {
  "POST /api-keys/tokens": { kinds: SERVER_KEYS, permission: "tokens.create", rateLimited: true },
  "POST /access-tokens": { kinds: [...SERVER_KEYS, "legacy"], permission: "tokens.create" },
  "GET /companies": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "customers.read", role: "customers:read" },
  "GET /users": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "customers.read", role: "customers:read" },
  "GET /audit-log": { kinds: ["dashboard"], role: "audit:read" },
  "PATCH /companies/{id}": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "companies.write", role: "customers:write" },
  "PUT /features/{id}": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "catalog.write", role: "catalog:write" },
  "DELETE /features/{id}": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "catalog.write", role: "catalog:write" },
  // Catalog management: dashboard sessions only, catalog:read to read, catalog:write to change.
  "GET /dashboard/plans": { kinds: ["dashboard"], role: "catalog:read" },
  "POST /dashboard/plans": { kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/plans/{id}": { kinds: ["dashboard"], role: "catalog:read" },
  "PATCH /dashboard/plans/{id}": { kinds: ["dashboard"], role: "catalog:write" },
  "DELETE /dashboard/plans/{id}": { kinds: ["dashboard"], role: "catalog:write" },
  "PUT /dashboard/plans/{id}/prices/{period}": { kinds: ["dashboard"], role: "catalog:write" },
  "DELETE /dashboard/plans/{id}/prices/{period}": { kinds: ["dashboard"], role: "catalog:write" },
  "PUT /dashboard/plans/{id}/entitlements/{feature}": { kinds: ["dashboard"], role: "catalog:write" },
  "DELETE /dashboard/plans/{id}/entitlements/{feature}": { kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/coupons": { kinds: ["dashboard"], role: "catalog:read" },
  "POST /dashboard/coupons": { kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/coupons/{id}": { kinds: ["dashboard"], role: "catalog:read" },
  "PATCH /dashboard/coupons/{id}": { kinds: ["dashboard"], role: "catalog:write" },
  "DELETE /dashboard/coupons/{id}": { kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/features": { kinds: ["dashboard"], role: "catalog:read" },
  "POST /dashboard/features": { kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/features/{feature}": { kinds: ["dashboard"], role: "catalog:read" },
  "PATCH /dashboard/features/{feature}": { kinds: ["dashboard"], role: "catalog:write" },
  "DELETE /dashboard/features/{feature}": { kinds: ["dashboard"], role: "catalog:write" },
  // Client-safe reads: publishable keys and embed tokens (confined to their company) may call them.
  "GET /check": { kinds: [...SERVER_KEYS, "publishable", "legacy", "embed"], permission: "entitlements.read", rateLimited: true },
  "GET /flags/check": { kinds: [...SERVER_KEYS, "publishable", "legacy", "embed"], permission: "entitlements.read", rateLimited: true },
  "GET /entitlements": { kinds: [...SERVER_KEYS, "publishable", "legacy", "embed"], permission: "entitlements.read", rateLimited: true },
  "POST /usage/consume": { kinds: [...SERVER_KEYS, "legacy", "embed"], permission: "usage.consume", rateLimited: true },
  // Spec rule 5: never sk_ or rk_; rule 6: reads need a dashboard session with catalog:read.
  "POST /events": { kinds: ["legacy", "embed"] },
  "GET /events": { kinds: ["dashboard"], role: "catalog:read" },
  // Payment-link and checkout writes need payments.write; spec rule 7: checkout-session reads take a legacy key or a dashboard session.
  "POST /payment-links": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "payments.write", role: "billing:write" },
  "GET /payment-links": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "payments.write", role: "billing:read" },
  "GET /payment-links/{id}": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "payments.write", role: "billing:read" },
  "POST /checkout-sessions": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "payments.write", role: "billing:write" },
  "POST /checkout-sessions/{id}/payments": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "payments.write", role: "billing:write" },
  "GET /checkout-sessions": { kinds: ["legacy", "dashboard"], role: "billing:read" },
  // Subscriptions. Spec rule 7: activation takes a legacy key, an embed token or a dashboard session.
  "POST /subscriptions/activate": { kinds: ["legacy", "embed", "dashboard"], role: "billing:write" },
  "POST /subscriptions/cancel": { kinds: ["embed"] },
  // Plan change: the spec shows no credentials; the embed token changes its own company's plan, operators use the dashboard's twin.
  "POST /companies/plan": { kinds: ["embed"] },
  "POST /companies/plan/preview": { kinds: ["embed"] },
  "POST /dashboard/companies/{id}/plan": { kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/companies/{id}/plan/preview": { kinds: ["dashboard"], role: "billing:read" },
  "POST /mandates/revoke": { kinds: [...SERVER_KEYS, "legacy", "embed", "dashboard"], permission: "subscriptions.write", role: "billing:write" },
  // A key that may revoke a mandate may read it: subscriptions.write grants the read too.
  "GET /mandates/{id}/status": {
    kinds: [...SERVER_KEYS, "legacy", "embed", "dashboard"],
    permission: ["subscriptions.read", "subscriptions.write"],
    role: "billing:read",
  },
  "GET /checkout-sessions/{id}": { kinds: ["legacy", "dashboard"], role: "billing:read" },
  // The dashboard's own routes (src/modules/dashboard): dashboard sessions only. Any member may read and
  // end their session or switch its environment; members and keys need their roles.
  "GET /dashboard/session": { kinds: ["dashboard"] },
  "POST /dashboard/sign-out": { kinds: ["dashboard"] },
  "POST /dashboard/session/environment": { kinds: ["dashboard"] },
  "GET /dashboard/members": { kinds: ["dashboard"], role: "members:read" },
  "POST /dashboard/members": { kinds: ["dashboard"], role: "members:write" },
  "GET /dashboard/invitations": { kinds: ["dashboard"], role: "members:read" },
  "PATCH /dashboard/members/{id}": { kinds: ["dashboard"], role: "members:write" },
  "DELETE /dashboard/members/{id}": { kinds: ["dashboard"], role: "members:write" },
  "GET /dashboard/api-keys": { kinds: ["dashboard"], role: "keys:read" },
  "POST /dashboard/api-keys": { kinds: ["dashboard"], role: "keys:write" },
  "DELETE /dashboard/api-keys/{id}": { kinds: ["dashboard"], role: "keys:write" },
  // Webhooks belong to the dashboard (spec: not part of the developer API); revealing a secret needs write.
  "GET /dashboard/webhooks/event-types": { kinds: ["dashboard"], role: "webhooks:read" },
  "POST /dashboard/webhooks/endpoints": { kinds: ["dashboard"], role: "webhooks:write" },
  "GET /dashboard/webhooks/endpoints": { kinds: ["dashboard"], role: "webhooks:read" },
  "GET /dashboard/webhooks/endpoints/{id}": { kinds: ["dashboard"], role: "webhooks:read" },
  "PATCH /dashboard/webhooks/endpoints/{id}": { kinds: ["dashboard"], role: "webhooks:write" },
  "DELETE /dashboard/webhooks/endpoints/{id}": { kinds: ["dashboard"], role: "webhooks:write" },
  "POST /dashboard/webhooks/endpoints/{id}/rotate-secret": { kinds: ["dashboard"], role: "webhooks:write" },
  "GET /dashboard/webhooks/endpoints/{id}/secret": { kinds: ["dashboard"], role: "webhooks:write" },
  "POST /dashboard/webhooks/endpoints/{id}/test": { kinds: ["dashboard"], role: "webhooks:write" },
  "POST /dashboard/webhooks/endpoints/{id}/replay": { kinds: ["dashboard"], role: "webhooks:write" },
  "GET /dashboard/webhooks/endpoints/{id}/deliveries": { kinds: ["dashboard"], role: "webhooks:read" },
  "GET /dashboard/webhooks/deliveries/{id}": { kinds: ["dashboard"], role: "webhooks:read" },
  "POST /dashboard/webhooks/deliveries/{id}/replay": { kinds: ["dashboard"], role: "webhooks:write" },
  "GET /dashboard/webhooks/notifications": { kinds: ["dashboard"], role: "webhooks:read" },
  // Invoice deliveries: sending an invoice again is a billing write, dashboard only.
  "POST /dashboard/invoices/{id}/send": { kinds: ["dashboard"], role: "billing:write" },
  // Refunds: recording a refund moves the books of money already sent; a server key holding invoices.write
  // or a dashboard session with billing:write. Not legacy keys (they carry no permission list to scope it) and
  // never browser credentials (publishable keys, embed tokens).
  "POST /invoices/{id}/refunds": { kinds: SERVER_KEYS_AND_DASHBOARD, permission: "invoices.write", role: "billing:write" },
  // Invoice documents: the camt.054 export of an invoice's payments and refunds.
  // (GET /invoice-documents/{token} has no row: its signed link is the credential, see OPERATION_IDS.)
  "GET /dashboard/invoices/{id}/camt054": { kinds: ["dashboard"], role: "billing:read" },
  // Invoice payments: settlement wallets, invoice settings and payment proofs are
  // the team's billing configuration and records: dashboard sessions only, billing:read / billing:write.
  "GET /dashboard/settlement-wallets": { kinds: ["dashboard"], role: "billing:read" },
  "PUT /dashboard/settlement-wallets/{network}": { kinds: ["dashboard"], role: "billing:write" },
  "DELETE /dashboard/settlement-wallets/{network}": { kinds: ["dashboard"], role: "billing:write" },
  "GET /dashboard/invoice-settings": { kinds: ["dashboard"], role: "billing:read" },
  "PUT /dashboard/invoice-settings": { kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/invoices/{id}/payments": { kinds: ["dashboard"], role: "billing:write" },
  // Invoices. Spec rule 8: GET /invoices takes sk_/rk_ with invoices.read, pk_ 403; the detail
  // and credit-note reads take the same (the spec leaves them open), and the dashboard with billing:read. Legacy
  // api_ keys hold no permission list, so they cannot be scoped to invoices: refused, as embed tokens are.
  "GET /invoices": { kinds: [...SERVER_KEYS, "dashboard"], permission: "invoices.read", role: "billing:read" },
  "GET /invoices/{id}": { kinds: [...SERVER_KEYS, "dashboard"], permission: "invoices.read", role: "billing:read" },
  "GET /invoices/{id}/credit-notes": { kinds: [...SERVER_KEYS, "dashboard"], permission: "invoices.read", role: "billing:read" },
  // The dashboard's invoice management (drafts, issue, void, credit notes): dashboard sessions only.
  "GET /dashboard/invoices": { kinds: ["dashboard"], role: "billing:read" },
  "POST /dashboard/invoices": { kinds: ["dashboard"], role: "billing:write" },
  "GET /dashboard/invoices/{id}": { kinds: ["dashboard"], role: "billing:read" },
  "PUT /dashboard/invoices/{id}": { kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/invoices/{id}/issue": { kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/invoices/{id}/void": { kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/invoices/{id}/credit-notes": { kinds: ["dashboard"], role: "billing:write" },
  // Operating subscriptions: the dashboard's list, detail, cancel and resume, and the subscription
  // settings; dashboard sessions only, billing:read to read, billing:write to change (as the invoice routes).
  "GET /dashboard/subscriptions": { kinds: ["dashboard"], role: "billing:read" },
  "GET /dashboard/subscriptions/{id}": { kinds: ["dashboard"], role: "billing:read" },
  "POST /dashboard/subscriptions/{id}/cancel": { kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/subscriptions/{id}/resume": { kinds: ["dashboard"], role: "billing:write" },
  "GET /dashboard/subscription-settings": { kinds: ["dashboard"], role: "billing:read" },
  "PUT /dashboard/subscription-settings": { kinds: ["dashboard"], role: "billing:write" },
} as const satisfies Record<string, AccessPolicy>;

export type RouteKey = keyof typeof ACCESS;

/** The permissions a row accepts, any one of which suffices (none: the kind is the grant). */
export const permissionsOf = (policy: AccessPolicy): readonly Permission[] =>
  policy.permission === undefined ? [] : typeof policy.permission === "string" ? [policy.permission] : policy.permission;

/** The spec's 403 when a verified principal may not use the route; null when it may. */
export function denial(policy: AccessPolicy, principal: Principal): ApiError | null {
  if (!policy.kinds.includes(principal.kind)) {
    return apiError("wrong_credential_kind", `This endpoint does not accept ${principal.kind} credentials`);
  }
  if (principal.kind === "dashboard") {
    const holdsAll = principal.roles.includes("owner") || principal.roles.includes("admin");
    if (policy.role && !holdsAll && !principal.roles.includes(policy.role)) {
      return apiError("missing_permission", `Dashboard role '${policy.role}' is required`);
    }
    return null;
  }
  if (principal.kind === "legacy" || principal.kind === "embed") return null;
  const anyOf = permissionsOf(policy);
  if (anyOf.length > 0 && principal.permissions !== null && !anyOf.some((p) => principal.permissions!.includes(p))) {
    return apiError("missing_permission", `Permission ${anyOf.map((p) => `'${p}'`).join(" or ")} is required`);
  }
  return null;
}

/** Throws the spec's 403 when a verified principal may not use the route. */
export function authorize(policy: AccessPolicy, principal: Principal): void {
  const refused = denial(policy, principal);
  if (refused) throw refused;
}
