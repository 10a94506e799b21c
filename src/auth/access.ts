/**
 * The route table, in one place: each route of the API is one row, keyed "METHOD /path" as the OpenAPI document
 * writes it (under API_PREFIX). A row holds the route's `operationId` and either `public: true` (no credential)
 * or its access policy, the endpoint-by-credential matrix. Everything else is derived from it: the `access`
 * macro (src/http/auth.ts) finds a route's row by its method and path, the document's operationIds, security,
 * `x-access` and statuses (src/http/openapi-complete.ts), the Idempotency-Key (every keyed method of a row with
 * a policy), and createApp refuses to boot when a mounted route and the table disagree (assertRoutesMatchTable).
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

/** A route with no credential: the handler (or a signed link) is the check. */
export interface PublicRow {
  operationId: string;
  public: true;
}
/** A route that takes a credential: its policy, and its operationId. */
export interface PolicyRow extends AccessPolicy {
  operationId: string;
}
export type RouteRow = PolicyRow | PublicRow;

const SERVER_KEYS = ["secret", "restricted"] as const;
const SERVER_KEYS_AND_DASHBOARD = [...SERVER_KEYS, "dashboard"] as const;

export const ROUTES = {
  // Public: no credential (the handler or a signed link decides).
  "GET /health": { operationId: "getHealth", public: true },
  "POST /api-keys/tokens": { operationId: "createEmbedToken", kinds: SERVER_KEYS, permission: "tokens.create", rateLimited: true },
  "POST /access-tokens": { operationId: "createAccessToken", kinds: [...SERVER_KEYS, "legacy"], permission: "tokens.create" },
  "GET /companies": {
    operationId: "listCompanies",
    kinds: [...SERVER_KEYS, "legacy", "dashboard"],
    permission: "customers.read",
    role: "customers:read",
  },
  "GET /users": { operationId: "listUsers", kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "customers.read", role: "customers:read" },
  "GET /audit-log": { operationId: "listAuditLog", kinds: ["dashboard"], role: "audit:read" },
  "GET /dashboard/audit-log/verification": { operationId: "verifyAuditLog", kinds: ["dashboard"], role: "audit:read" },
  "PATCH /companies/{id}": {
    operationId: "updateCompany",
    kinds: [...SERVER_KEYS, "legacy", "dashboard"],
    permission: "companies.write",
    role: "customers:write",
  },
  "PUT /features/{id}": {
    operationId: "updateFeature",
    kinds: [...SERVER_KEYS, "legacy", "dashboard"],
    permission: "catalog.write",
    role: "catalog:write",
  },
  "DELETE /features/{id}": {
    operationId: "deleteFeature",
    kinds: [...SERVER_KEYS, "legacy", "dashboard"],
    permission: "catalog.write",
    role: "catalog:write",
  },
  // Catalog management: dashboard sessions only, catalog:read to read, catalog:write to change.
  "GET /dashboard/plans": { operationId: "listPlans", kinds: ["dashboard"], role: "catalog:read" },
  "POST /dashboard/plans": { operationId: "createPlan", kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/plans/{id}": { operationId: "getPlan", kinds: ["dashboard"], role: "catalog:read" },
  "PATCH /dashboard/plans/{id}": { operationId: "updatePlan", kinds: ["dashboard"], role: "catalog:write" },
  "DELETE /dashboard/plans/{id}": { operationId: "deletePlan", kinds: ["dashboard"], role: "catalog:write" },
  "PUT /dashboard/plans/{id}/prices/{period}": { operationId: "setPlanPrice", kinds: ["dashboard"], role: "catalog:write" },
  "DELETE /dashboard/plans/{id}/prices/{period}": { operationId: "removePlanPrice", kinds: ["dashboard"], role: "catalog:write" },
  "PUT /dashboard/plans/{id}/entitlements/{feature}": { operationId: "setPlanEntitlement", kinds: ["dashboard"], role: "catalog:write" },
  "DELETE /dashboard/plans/{id}/entitlements/{feature}": { operationId: "removePlanEntitlement", kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/coupons": { operationId: "listCoupons", kinds: ["dashboard"], role: "catalog:read" },
  "POST /dashboard/coupons": { operationId: "createCoupon", kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/coupons/{id}": { operationId: "getCoupon", kinds: ["dashboard"], role: "catalog:read" },
  "PATCH /dashboard/coupons/{id}": { operationId: "updateCoupon", kinds: ["dashboard"], role: "catalog:write" },
  "DELETE /dashboard/coupons/{id}": { operationId: "archiveCoupon", kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/credit-packs": { operationId: "listCreditPacks", kinds: ["dashboard"], role: "catalog:read" },
  "POST /dashboard/credit-packs": { operationId: "createCreditPack", kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/credit-packs/{id}": { operationId: "getCreditPack", kinds: ["dashboard"], role: "catalog:read" },
  "DELETE /dashboard/credit-packs/{id}": { operationId: "archiveCreditPack", kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/features": { operationId: "listFeatures", kinds: ["dashboard"], role: "catalog:read" },
  "POST /dashboard/features": { operationId: "createFeature", kinds: ["dashboard"], role: "catalog:write" },
  "GET /dashboard/features/{feature}": { operationId: "getFeature", kinds: ["dashboard"], role: "catalog:read" },
  "PATCH /dashboard/features/{feature}": { operationId: "patchFeature", kinds: ["dashboard"], role: "catalog:write" },
  "DELETE /dashboard/features/{feature}": { operationId: "removeFeature", kinds: ["dashboard"], role: "catalog:write" },
  // Client-safe reads: publishable keys and embed tokens (confined to their company) may call them.
  "GET /check": {
    operationId: "checkFeature",
    kinds: [...SERVER_KEYS, "publishable", "legacy", "embed"],
    permission: "entitlements.read",
    rateLimited: true,
  },
  "GET /flags/check": {
    operationId: "checkFlag",
    kinds: [...SERVER_KEYS, "publishable", "legacy", "embed"],
    permission: "entitlements.read",
    rateLimited: true,
  },
  "GET /entitlements": {
    operationId: "listEntitlements",
    kinds: [...SERVER_KEYS, "publishable", "legacy", "embed"],
    permission: "entitlements.read",
    rateLimited: true,
  },
  "POST /usage/consume": { operationId: "consumeUsage", kinds: [...SERVER_KEYS, "legacy", "embed"], permission: "usage.consume", rateLimited: true },
  // Spec rule 5: never sk_ or rk_; rule 6: reads need a dashboard session with catalog:read.
  "POST /events": { operationId: "ingestEvent", kinds: ["legacy", "embed"] },
  "GET /events": { operationId: "listEvents", kinds: ["dashboard"], role: "catalog:read" },
  // zkTLS proofs (docs/proofs.md): facts about a customer, sent from the integrator's server. No permission of
  // their own: recording one is writing to a company's record (companies.write), listing them reading customers.
  "POST /proofs/zktls": { operationId: "submitZktlsProof", kinds: SERVER_KEYS, permission: "companies.write" },
  "GET /proofs/zktls": {
    operationId: "listZktlsProofs",
    kinds: SERVER_KEYS_AND_DASHBOARD,
    permission: "customers.read",
    role: "customers:read",
  },
  // Escrow (docs/escrow.md): reserving from a payer's consent is a payment write from the integrator's server; the
  // reads take the same keys and the dashboard; a dispute's resolution decides where held money goes, so a person of
  // the team decides it in the dashboard (billing:write), never a key. The payer's dispute is public: its signature or
  // its company's embed token is the check, and the client address's rate-limit window applies (the route's own).
  "POST /escrow/reservations": { operationId: "createEscrowReservation", kinds: SERVER_KEYS, permission: "payments.write" },
  "GET /escrow/reservations": {
    operationId: "listEscrowReservations",
    kinds: SERVER_KEYS_AND_DASHBOARD,
    permission: "payments.write",
    role: "billing:read",
  },
  "GET /escrow/reservations/{id}": {
    operationId: "getEscrowReservation",
    kinds: SERVER_KEYS_AND_DASHBOARD,
    permission: "payments.write",
    role: "billing:read",
  },
  "POST /escrow/reservations/{id}/resolve": { operationId: "resolveEscrowDispute", kinds: ["dashboard"], role: "billing:write" },
  "POST /public/escrow/dispute": { operationId: "disputeEscrowReservation", public: true },
  // Payment-link and checkout writes need payments.write; spec rule 7: checkout-session reads take a legacy key or a dashboard session.
  "POST /payment-links": {
    operationId: "createPaymentLink",
    kinds: [...SERVER_KEYS, "legacy", "dashboard"],
    permission: "payments.write",
    role: "billing:write",
  },
  "GET /payment-links": {
    operationId: "listPaymentLinks",
    kinds: [...SERVER_KEYS, "legacy", "dashboard"],
    permission: "payments.write",
    role: "billing:read",
  },
  "GET /payment-links/{id}": {
    operationId: "getPaymentLink",
    kinds: [...SERVER_KEYS, "legacy", "dashboard"],
    permission: "payments.write",
    role: "billing:read",
  },
  "POST /checkout-sessions": {
    operationId: "createCheckoutSession",
    kinds: [...SERVER_KEYS, "legacy", "dashboard"],
    permission: "payments.write",
    role: "billing:write",
  },
  "POST /checkout-sessions/{id}/payments": {
    operationId: "submitCheckoutPayment",
    kinds: [...SERVER_KEYS, "legacy", "dashboard"],
    permission: "payments.write",
    role: "billing:write",
  },
  "GET /checkout-sessions": { operationId: "listCheckoutSessions", kinds: ["legacy", "dashboard"], role: "billing:read" },
  // Subscriptions. Spec rule 7: activation takes a legacy key, an embed token or a dashboard session.
  "POST /subscriptions/activate": { operationId: "activateSubscription", kinds: ["legacy", "embed", "dashboard"], role: "billing:write" },
  "POST /subscriptions/cancel": { operationId: "cancelOwnSubscription", kinds: ["embed"] },
  // Plan change: the spec shows no credentials; the embed token changes its own company's plan, operators use the dashboard's twin.
  "POST /companies/plan": { operationId: "changeCompanyPlan", kinds: ["embed"] },
  "POST /companies/plan/preview": { operationId: "previewOwnPlanChange", kinds: ["embed"] },
  // A company's entitlements as /check answers them, and its overrides (docs/customers.md#entitlements-and-overrides):
  // reading a customer's record takes customers:read, changing what it gets customers:write.
  "GET /dashboard/companies/{id}": { operationId: "dashboardGetCompany", kinds: ["dashboard"], role: "customers:read" },
  "GET /dashboard/companies/{id}/entitlements": { operationId: "dashboardGetCompanyEntitlements", kinds: ["dashboard"], role: "customers:read" },
  "GET /dashboard/companies/{id}/check": { operationId: "dashboardCheckCompanyFeature", kinds: ["dashboard"], role: "customers:read" },
  "PUT /dashboard/companies/{id}/overrides/{feature}": { operationId: "dashboardSetCompanyOverride", kinds: ["dashboard"], role: "customers:write" },
  "DELETE /dashboard/companies/{id}/overrides/{feature}": {
    operationId: "dashboardRemoveCompanyOverride",
    kinds: ["dashboard"],
    role: "customers:write",
  },
  "POST /dashboard/companies/{id}/plan": { operationId: "changeCompanyPlanAsOperator", kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/companies/{id}/plan/preview": { operationId: "previewCompanyPlanChange", kinds: ["dashboard"], role: "billing:read" },
  "POST /mandates/revoke": {
    operationId: "revokeMandate",
    kinds: [...SERVER_KEYS, "legacy", "embed", "dashboard"],
    permission: "subscriptions.write",
    role: "billing:write",
  },
  // A key that may revoke a mandate may read it: subscriptions.write grants the read too.
  "GET /mandates/{id}/status": {
    operationId: "getMandateStatus",
    kinds: [...SERVER_KEYS, "legacy", "embed", "dashboard"],
    permission: ["subscriptions.read", "subscriptions.write"],
    role: "billing:read",
  },
  "GET /checkout-sessions/{id}": { operationId: "getCheckoutSession", kinds: ["legacy", "dashboard"], role: "billing:read" },
  // The dashboard's own routes (src/modules/dashboard): dashboard sessions only. Any member may read and
  // end their session, switch its environment, list their own teams and switch to another; members and keys need their roles.
  // Signing in makes a dashboard session: no credential yet.
  "POST /dashboard/sign-in": { operationId: "dashboardSignIn", public: true },
  "POST /dashboard/sign-in/link": { operationId: "dashboardSignInWithLink", public: true },
  "POST /dashboard/invitations/accept": { operationId: "dashboardAcceptInvitation", public: true },
  "GET /dashboard/session": { operationId: "dashboardGetSession", kinds: ["dashboard"] },
  "POST /dashboard/sign-out": { operationId: "dashboardSignOut", kinds: ["dashboard"] },
  "POST /dashboard/session/environment": { operationId: "dashboardSwitchEnvironment", kinds: ["dashboard"] },
  "GET /dashboard/teams": { operationId: "dashboardListTeams", kinds: ["dashboard"] },
  "GET /dashboard/members": { operationId: "dashboardListMembers", kinds: ["dashboard"], role: "members:read" },
  "POST /dashboard/members": { operationId: "dashboardInviteMember", kinds: ["dashboard"], role: "members:write" },
  "GET /dashboard/invitations": { operationId: "dashboardListInvitations", kinds: ["dashboard"], role: "members:read" },
  "PATCH /dashboard/members/{id}": { operationId: "dashboardSetMemberRoles", kinds: ["dashboard"], role: "members:write" },
  "DELETE /dashboard/members/{id}": { operationId: "dashboardRemoveMember", kinds: ["dashboard"], role: "members:write" },
  "GET /dashboard/api-keys": { operationId: "dashboardListApiKeys", kinds: ["dashboard"], role: "keys:read" },
  "POST /dashboard/api-keys": { operationId: "dashboardCreateApiKey", kinds: ["dashboard"], role: "keys:write" },
  "DELETE /dashboard/api-keys/{id}": { operationId: "dashboardRevokeApiKey", kinds: ["dashboard"], role: "keys:write" },
  // Webhooks belong to the dashboard (spec: not part of the developer API); revealing a secret needs write.
  "GET /dashboard/webhooks/event-types": { operationId: "listWebhookEventTypes", kinds: ["dashboard"], role: "webhooks:read" },
  "POST /dashboard/webhooks/endpoints": { operationId: "createWebhookEndpoint", kinds: ["dashboard"], role: "webhooks:write" },
  "GET /dashboard/webhooks/endpoints": { operationId: "listWebhookEndpoints", kinds: ["dashboard"], role: "webhooks:read" },
  "GET /dashboard/webhooks/endpoints/{id}": { operationId: "getWebhookEndpoint", kinds: ["dashboard"], role: "webhooks:read" },
  "PATCH /dashboard/webhooks/endpoints/{id}": { operationId: "updateWebhookEndpoint", kinds: ["dashboard"], role: "webhooks:write" },
  "DELETE /dashboard/webhooks/endpoints/{id}": { operationId: "deleteWebhookEndpoint", kinds: ["dashboard"], role: "webhooks:write" },
  "POST /dashboard/webhooks/endpoints/{id}/rotate-secret": { operationId: "rotateWebhookSecret", kinds: ["dashboard"], role: "webhooks:write" },
  "GET /dashboard/webhooks/endpoints/{id}/secret": { operationId: "revealWebhookSecret", kinds: ["dashboard"], role: "webhooks:write" },
  "POST /dashboard/webhooks/endpoints/{id}/test": { operationId: "sendWebhookTestEvent", kinds: ["dashboard"], role: "webhooks:write" },
  "POST /dashboard/webhooks/endpoints/{id}/replay": { operationId: "replayWebhookMessage", kinds: ["dashboard"], role: "webhooks:write" },
  "GET /dashboard/webhooks/endpoints/{id}/deliveries": { operationId: "listWebhookDeliveries", kinds: ["dashboard"], role: "webhooks:read" },
  "GET /dashboard/webhooks/deliveries/{id}": { operationId: "getWebhookDelivery", kinds: ["dashboard"], role: "webhooks:read" },
  "POST /dashboard/webhooks/deliveries/{id}/replay": { operationId: "replayWebhookDelivery", kinds: ["dashboard"], role: "webhooks:write" },
  "GET /dashboard/webhooks/notifications": { operationId: "listWebhookNotifications", kinds: ["dashboard"], role: "webhooks:read" },
  // Invoice deliveries: sending an invoice again is a billing write, dashboard only.
  "POST /dashboard/invoices/{id}/send": { operationId: "sendInvoice", kinds: ["dashboard"], role: "billing:write" },
  // inv-refunds: recording a refund moves the books of money already sent; a server key holding invoices.write
  // or a dashboard session with billing:write. Not legacy keys (they carry no permission list to scope it) and
  // never browser credentials (publishable keys, embed tokens).
  "POST /invoices/{id}/refunds": {
    operationId: "createInvoiceRefund",
    kinds: SERVER_KEYS_AND_DASHBOARD,
    permission: "invoices.write",
    role: "billing:write",
  },
  // Invoice documents: the camt.054 export of an invoice's payments and refunds.
  // The signed download link is the credential.
  "GET /invoice-documents/{token}": { operationId: "downloadInvoiceDocument", public: true },
  "GET /dashboard/invoices/{id}/camt054": { operationId: "exportInvoiceCamtNotification", kinds: ["dashboard"], role: "billing:read" },
  // Invoice payments: settlement wallets, invoice settings and payment proofs are
  // the team's billing configuration and records: dashboard sessions only, billing:read / billing:write.
  "GET /dashboard/settlement-wallets": { operationId: "listSettlementWallets", kinds: ["dashboard"], role: "billing:read" },
  "GET /dashboard/x402-payments": { operationId: "listAgentPayments", kinds: ["dashboard"], role: "billing:read" },
  "PUT /dashboard/settlement-wallets/{network}": { operationId: "setSettlementWallet", kinds: ["dashboard"], role: "billing:write" },
  "DELETE /dashboard/settlement-wallets/{network}": { operationId: "removeSettlementWallet", kinds: ["dashboard"], role: "billing:write" },
  "GET /dashboard/invoice-settings": { operationId: "getInvoiceSettings", kinds: ["dashboard"], role: "billing:read" },
  "PUT /dashboard/invoice-settings": { operationId: "updateInvoiceSettings", kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/invoices/{id}/payments": { operationId: "submitInvoicePayment", kinds: ["dashboard"], role: "billing:write" },
  // Invoices. Spec rule 8: GET /invoices takes sk_/rk_ with invoices.read, pk_ 403; the detail
  // and credit-note reads take the same (the spec leaves them open), and the dashboard with billing:read. Legacy
  // api_ keys hold no permission list, so they cannot be scoped to invoices: refused, as embed tokens are.
  "GET /invoices": { operationId: "listInvoices", kinds: [...SERVER_KEYS, "dashboard"], permission: "invoices.read", role: "billing:read" },
  "GET /invoices/{id}": { operationId: "getInvoice", kinds: [...SERVER_KEYS, "dashboard"], permission: "invoices.read", role: "billing:read" },
  "GET /invoices/{id}/credit-notes": {
    operationId: "listInvoiceCreditNotes",
    kinds: [...SERVER_KEYS, "dashboard"],
    permission: "invoices.read",
    role: "billing:read",
  },
  // The dashboard's invoice management (drafts, issue, void, credit notes): dashboard sessions only.
  "GET /dashboard/invoices": { operationId: "dashboardListInvoices", kinds: ["dashboard"], role: "billing:read" },
  "POST /dashboard/invoices": { operationId: "dashboardCreateInvoice", kinds: ["dashboard"], role: "billing:write" },
  "GET /dashboard/invoices/{id}": { operationId: "dashboardGetInvoice", kinds: ["dashboard"], role: "billing:read" },
  "PUT /dashboard/invoices/{id}": { operationId: "dashboardReplaceInvoiceDraft", kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/invoices/{id}/issue": { operationId: "dashboardIssueInvoice", kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/invoices/{id}/void": { operationId: "dashboardVoidInvoice", kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/invoices/{id}/credit-notes": { operationId: "dashboardCreateCreditNote", kinds: ["dashboard"], role: "billing:write" },
  // Operating subscriptions: the dashboard's list, detail, cancel and resume, and the subscription
  // settings; dashboard sessions only, billing:read to read, billing:write to change (as the invoice routes).
  "GET /dashboard/subscriptions": { operationId: "dashboardListSubscriptions", kinds: ["dashboard"], role: "billing:read" },
  "GET /dashboard/subscriptions/{id}": { operationId: "dashboardGetSubscription", kinds: ["dashboard"], role: "billing:read" },
  "POST /dashboard/subscriptions/{id}/cancel": { operationId: "dashboardCancelSubscription", kinds: ["dashboard"], role: "billing:write" },
  "POST /dashboard/subscriptions/{id}/resume": { operationId: "dashboardResumeSubscription", kinds: ["dashboard"], role: "billing:write" },
  "GET /dashboard/subscription-settings": { operationId: "getSubscriptionSettings", kinds: ["dashboard"], role: "billing:read" },
  "PUT /dashboard/subscription-settings": { operationId: "updateSubscriptionSettings", kinds: ["dashboard"], role: "billing:write" },
  // Reports (docs/reports.md): the dashboard's charts, summed by the API. Usage is the catalog's metering
  // (catalog:read, as GET /events); money and renewals are billing records (billing:read, as the invoice reads).
  "GET /dashboard/reports/usage": { operationId: "dashboardUsageReport", kinds: ["dashboard"], role: "catalog:read" },
  "GET /dashboard/reports/revenue": { operationId: "dashboardRevenueReport", kinds: ["dashboard"], role: "billing:read" },
  "GET /dashboard/reports/renewals": { operationId: "dashboardRenewalsReport", kinds: ["dashboard"], role: "billing:read" },
  // Auto-topup (docs/agents.md): configuring moves the team's money from its funding mandate, so a server key with
  // payments.write; the dashboard lists, disables and deletes configurations and registers funding mandates.
  "POST /agent/dispatch": { operationId: "configureAgentDispatch", kinds: SERVER_KEYS, permission: "payments.write" },
  "GET /dashboard/agent-dispatch": { operationId: "listAgentDispatchConfigs", kinds: ["dashboard"], role: "billing:read" },
  "POST /dashboard/agent-dispatch/{id}/disable": { operationId: "disableAgentDispatchConfig", kinds: ["dashboard"], role: "billing:write" },
  "DELETE /dashboard/agent-dispatch/{id}": { operationId: "deleteAgentDispatchConfig", kinds: ["dashboard"], role: "billing:write" },
  "GET /dashboard/agent-topups": { operationId: "listAgentTopups", kinds: ["dashboard"], role: "billing:read" },
  "GET /dashboard/agent-funding": { operationId: "listAgentFundingMandates", kinds: ["dashboard"], role: "billing:read" },
  "PUT /dashboard/agent-funding/{network}": { operationId: "registerAgentFundingMandate", kinds: ["dashboard"], role: "billing:write" },
  "DELETE /dashboard/agent-funding/{network}": { operationId: "revokeAgentFundingMandate", kinds: ["dashboard"], role: "billing:write" },
} as const satisfies Record<string, RouteRow>;

/** Where the table's paths are mounted: its keys are written as the OpenAPI document writes them, under it. */
export const API_PREFIX = "/api/v1";

/** A route of the table, "METHOD /path" as the OpenAPI document writes it (under /api/v1). */
export type Route = keyof typeof ROUTES;
/** A route that takes a credential (a row with an access policy). */
export type RouteKey = { [K in Route]: (typeof ROUTES)[K] extends PublicRow ? never : K }[Route];

/** The access matrix: each credentialed route's row without its operationId (the document's `x-access`). */
export const ACCESS = Object.fromEntries(
  Object.entries(ROUTES as Record<string, RouteRow>).flatMap(([route, row]) => {
    if ("public" in row) return [];
    const { operationId: _, ...policy } = row;
    return [[route, policy]];
  }),
) as { [K in RouteKey]: Omit<(typeof ROUTES)[K], "operationId"> };

/** The table's key of an Elysia route: `GET` and `/api/v1/companies/:id` under `/api/v1` -> "GET /companies/{id}". */
export const routeKeyOf = (method: string, path: string, prefix = API_PREFIX): string =>
  `${method} ${path.slice(prefix.length).replace(/:(\w+)/g, "{$1}")}`;

/**
 * The access policy of a mounted route, by the request's method and the route's registered path
 * (Elysia's `route`, `/api/v1/companies/:id`); a HEAD request runs its GET route. Throws when the route
 * has no row with a policy: createApp refuses such an app before it serves (assertRoutesMatchTable).
 */
export function policyOf(method: string, path: string): AccessPolicy {
  const key = routeKeyOf(method === "HEAD" ? "GET" : method, path);
  const policy = (ACCESS as Record<string, AccessPolicy | undefined>)[key];
  if (!policy) throw new Error(`Route ${key} takes a credential but has no access row in ROUTES (src/auth/access.ts)`);
  return policy;
}

/** A route as Elysia lists it (`app.routes`); one its `detail.hide` keeps out of the document is not an API route. */
export interface MountedRoute {
  method: string;
  path: string;
  hooks?: { detail?: { hide?: boolean }; transform?: unknown };
}

/**
 * Checks the mounted routes against the table: every documented route under `prefix` has a row, every row is
 * mounted, and a route asks for a credential (`takesCredential`: it declares the `access` macro) exactly when its
 * row has a policy. Throws naming the first route out of place (createApp calls it, so such an app never boots).
 */
export function assertRoutesMatchTable(
  mounted: readonly MountedRoute[],
  takesCredential: (route: MountedRoute) => boolean,
  prefix = API_PREFIX,
): void {
  const keys = new Set<string>();
  for (const route of mounted) {
    const { method, path, hooks } = route;
    if (!path.startsWith(`${prefix}/`) || hooks?.detail?.hide) continue;
    const key = routeKeyOf(method, path, prefix);
    const row = (ROUTES as Record<string, RouteRow>)[key];
    if (!row) throw new Error(`Route ${key} is mounted but has no row in ROUTES (src/auth/access.ts)`);
    if ("public" in row === takesCredential(route)) {
      throw new Error(
        `Route ${key} ${"public" in row ? "is public in ROUTES but declares access" : "has an access row in ROUTES but does not declare access"}`,
      );
    }
    keys.add(key);
  }
  for (const key of Object.keys(ROUTES)) {
    if (!keys.has(key)) throw new Error(`Route ${key} has a row in ROUTES (src/auth/access.ts) but is not mounted`);
  }
}

/** The permissions a row accepts, any one of which suffices (none: the kind is the grant). */
export const permissionsOf = (policy: AccessPolicy): readonly Permission[] =>
  policy.permission === undefined ? [] : typeof policy.permission === "string" ? [policy.permission] : policy.permission;

/** Whether a dashboard member with these roles holds `role` (none needed: yes); `owner` and `admin` hold every role. */
export const holdsRole = (roles: readonly string[], role: DashboardRole | undefined): boolean =>
  role === undefined || roles.includes("owner") || roles.includes("admin") || roles.includes(role);

/**
 * Whether a dashboard session with these roles may call a route ("POST", "/dashboard/api-keys"), read off the
 * route's row: the dashboard's pages show a write control only where the API would accept the write.
 */
export function sessionMayCall(roles: readonly string[], method: string, path: string): boolean {
  const policy = (ACCESS as Record<string, AccessPolicy | undefined>)[`${method} ${path}`];
  if (!policy) throw new Error(`No access row for ${method} ${path} in ROUTES (src/auth/access.ts)`);
  return policy.kinds.includes("dashboard") && holdsRole(roles, policy.role);
}

/** The spec's 403 when a verified principal may not use the route; null when it may. */
export function denial(policy: AccessPolicy, principal: Principal): ApiError | null {
  if (!policy.kinds.includes(principal.kind)) {
    return apiError("wrong_credential_kind", `This endpoint does not accept ${principal.kind} credentials`);
  }
  if (principal.kind === "dashboard") {
    if (!holdsRole(principal.roles, policy.role)) {
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
