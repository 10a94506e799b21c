/**
 * The endpoint-by-credential matrix, as a table written from the spec's rules (not derived from the
 * code's own table), plus the 401 cases: missing, malformed, unknown, expired, revoked.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { ACCESS } from "../../src/auth/access";
import { revokeKey } from "../../src/modules/teams/keys";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { createPlan } from "../../src/modules/catalog/plans/edit";
import { createFeature } from "../../src/modules/catalog/features/edit";
import { setEntitlement } from "../../src/modules/catalog/entitlements/edit";
import { setOverride } from "../../src/modules/customers/plan";
import { createPlanRecord } from "../../src/modules/catalog/plans/edit";
import { createCoupon } from "../../src/modules/catalog/coupons/edit";
import { createCreditPack } from "../../src/modules/catalog/credit-packs/edit";
import { OPERATOR } from "../../src/modules/teams/roles";
import { randomToken } from "../../src/lib/ids";
import { createTestApp, type TestApp } from "../helpers/app";
import { createTeamFixture, dashboardCookie, newKey, type TeamFixture } from "../helpers/fixtures";
import { createEndpoint } from "../../src/modules/webhooks/endpoints/manage";
import { sendTestEvent } from "../../src/modules/webhooks/deliveries/log";
import { createCompanyOnPlan } from "../helpers/catalog";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { inTx, invoiceInput, issuedInvoice, line, payInvoice } from "../helpers/invoices";
import { createInvoice } from "../../src/modules/invoices/lifecycle/transitions";
import { subscriptionFixture } from "../helpers/subscription-rows";
import { signedProof, TEST_ATTESTORS } from "../helpers/zktls";
import { mnemonicToAccount } from "viem/accounts";
import { configureTopup } from "../../src/modules/agents/configure";
import { fundingBody } from "../helpers/agent-funding";

// Created at module top level so the helpers' afterAll hooks belong to this file.
// A test network whose endpoint is down: a submitted payment answers 202 (not verifiable yet) at once.
const registryFile = `${process.cwd()}/.data/test/matrix-registry-${randomToken(8)}.json`;
await Bun.write(
  registryFile,
  JSON.stringify([
    {
      id: "matrix-chain",
      family: "evm",
      testnet: true,
      chainId: 31999,
      rpcUrl: "http://127.0.0.1:9",
      confirmations: 1,
      tokens: [{ symbol: "USDC", decimals: 6, contract: `0x${"1".repeat(40)}` }],
    },
  ]),
);
const t: TestApp = await createTestApp({ CHAIN_REGISTRY_FILE: registryFile, ZKTLS_ATTESTORS: TEST_ATTESTORS });
const team: TeamFixture = await createTeamFixture(t);
const creds: Record<string, { token?: string; cookie?: string; headers?: Record<string, string> }> = {};
// A company on a plan with one enabled boolean feature, so the entitlement routes have something to answer.
{
  const tenant = { teamId: team.teamId, environment: "development" as const };
  const plan = await createPlan(t.db.sql, tenant, { name: "Matrix plan" });
  const flag = await createFeature(t.db.sql, tenant, { name: "Matrix flag", featureKey: "matrix-flag", featureType: "boolean" });
  await setEntitlement(t.db.sql, tenant, { planId: plan.id, featureId: flag.id, kind: "boolean" });
  await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "matrix-co", plan.id);
}

// `path` and `body` may be factories, for routes whose success consumes their target (DELETE, paying a
// session): each call gets a fresh one.
// `fresh`: the route ends the credential it is called with (sign-out), so each dashboard call gets a new
// session of the same member instead.
type RouteCase = { method: string; path: string | (() => Promise<string>); body?: unknown; ok: number; fresh?: true };
const pathOf = (r: RouteCase) => (typeof r.path === "string" ? r.path : r.path());
const bodyOf = (r: RouteCase) => (typeof r.body === "function" ? r.body() : r.body);
const linkBody = { amount: "1000000", network: "matrix-chain", acceptedToken: "USDC", recipientWallet: `0x${"2".repeat(40)}` };
const matrixLink = (await t.call("POST", "/payment-links", { token: team.keys.secret, body: linkBody })).body.paymentLink.id as string;
const freshSession = async () =>
  (await t.call("POST", "/checkout-sessions", { token: team.keys.secret, body: { paymentLinkId: matrixLink } })).body.checkoutSession.id as string;
const matrixSession = await freshSession();
const randomHash = () => ({ txHash: `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("")}` });
// Refunds: a paid invoice on matrix-chain and the team's settlement wallet there. The chain endpoint is down,
// so an allowed refund is answered 409 refund_not_final (nothing recorded) and the same invoice serves every call.
const matrixInvoice = await (async () => {
  const tenant = { teamId: team.teamId, environment: "development" as const };
  await t.db
    .sql`insert into settlement_wallets (team_id, environment, network, wallet) values (${team.teamId}, 'development', 'matrix-chain', ${`0x${"2".repeat(40)}`})`;
  const now = new Date(t.clock.now());
  const invoice = await issuedInvoice(t.db.sql, t.config.chains, tenant, now, [line(5_000_000n)], { network: "matrix-chain" });
  await payInvoice(t.db.sql, t.config.chains, tenant, now, invoice.id, 5_000_000n, "matrix-chain");
  return invoice.id;
})();
const refundBody = () => ({ amount: "1", reason: "Matrix refund", refundProof: { ...randomHash(), recipientWallet: `0x${"3".repeat(40)}` } });
const freshFeaturePath = async () => {
  const f = await createFeature(
    t.db.sql,
    { teamId: team.teamId, environment: "development" },
    { name: "Matrix feature", featureKey: `matrix-${randomToken(10).toLowerCase()}`, featureType: "boolean" },
  );
  return `/features/${f.id}`;
};

const dashboardSession = (email: string, roles: string[]) =>
  createDashboardSession(t.db.sql, { teamId: team.teamId, environment: "development", userEmail: email, roles }, t.clock.now());
const matrixMember = (await dashboardSession("matrix-member@test.dev", ["catalog:read"])).memberId;
const freshMemberPath = async () => `/dashboard/members/${(await dashboardSession(`m-${randomToken(8)}@test.dev`, ["catalog:read"])).memberId}`;
const freshKeyPath = async () => `/dashboard/api-keys/${(await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now())).id}`;
// The dashboard catalog routes: a plan to read and change, and factories for what a success consumes.
const dev = { teamId: team.teamId, environment: "development" as const };
const catalogDeps = { sql: t.db.sql, chains: t.config.chains, now: () => new Date(t.clock.now()) };
const matrixPlan = (await createPlanRecord(catalogDeps, dev, OPERATOR, { name: "Matrix dashboard plan" })).id;
const freshPlan = async (withPrice = false) =>
  (
    await createPlanRecord(catalogDeps, dev, OPERATOR, {
      name: "Matrix fresh plan",
      prices: withPrice ? [{ billingPeriod: "monthly", amount: "5", currency: "USDC" }] : [],
    })
  ).id;
const freshCoupon = async () =>
  (await createCoupon(catalogDeps, dev, OPERATOR, { code: `M${randomToken(10)}`, percentOff: "10", duration: "once" })).id;
const matrixCoupon = await freshCoupon();
const PACK_PRICES = [{ network: "base-sepolia", token: "USDC", amount: "1000000" }];
const freshPack = async () =>
  (await createCreditPack(catalogDeps, dev, OPERATOR, { key: `M${randomToken(10)}`, credits: "100", prices: PACK_PRICES })).id;
const matrixPack = await freshPack();
const freshEntitlementPath = async () => {
  const plan = await freshPlan();
  const flag = (await t.db.sql`select id from features where team_id = ${team.teamId} and feature_key = 'matrix-flag'`)[0]!.id as string;
  await setEntitlement(t.db.sql, dev, { planId: plan, featureId: flag, kind: "boolean" });
  return `/dashboard/plans/${plan}/entitlements/matrix-flag`;
};
const DASHBOARD_ROUTES: Record<string, RouteCase> = {
  "GET /dashboard/plans": { method: "GET", path: "/dashboard/plans", ok: 200 },
  "POST /dashboard/plans": { method: "POST", path: "/dashboard/plans", body: { name: "Matrix new plan" }, ok: 201 },
  "GET /dashboard/plans/{id}": { method: "GET", path: `/dashboard/plans/${matrixPlan}`, ok: 200 },
  "PATCH /dashboard/plans/{id}": { method: "PATCH", path: `/dashboard/plans/${matrixPlan}`, body: { tier: "matrix" }, ok: 200 },
  "DELETE /dashboard/plans/{id}": { method: "DELETE", path: async () => `/dashboard/plans/${await freshPlan()}`, ok: 200 },
  "PUT /dashboard/plans/{id}/prices/{period}": {
    method: "PUT",
    path: `/dashboard/plans/${matrixPlan}/prices/monthly`,
    body: { amount: "10", currency: "USDC" },
    ok: 200,
  },
  "DELETE /dashboard/plans/{id}/prices/{period}": {
    method: "DELETE",
    path: async () => `/dashboard/plans/${await freshPlan(true)}/prices/monthly`,
    ok: 200,
  },
  "PUT /dashboard/plans/{id}/entitlements/{feature}": {
    method: "PUT",
    path: `/dashboard/plans/${matrixPlan}/entitlements/matrix-flag`,
    body: { kind: "boolean" },
    ok: 200,
  },
  "DELETE /dashboard/plans/{id}/entitlements/{feature}": { method: "DELETE", path: freshEntitlementPath, ok: 200 },
  "GET /dashboard/coupons": { method: "GET", path: "/dashboard/coupons", ok: 200 },
  "POST /dashboard/coupons": {
    method: "POST",
    path: "/dashboard/coupons",
    body: () => ({ code: `N${randomToken(10)}`, amountOff: "1.5", currency: "USDC", duration: "forever" }),
    ok: 201,
  },
  "GET /dashboard/coupons/{id}": { method: "GET", path: `/dashboard/coupons/${matrixCoupon}`, ok: 200 },
  "PATCH /dashboard/coupons/{id}": { method: "PATCH", path: `/dashboard/coupons/${matrixCoupon}`, body: { name: "Matrix coupon" }, ok: 200 },
  "DELETE /dashboard/coupons/{id}": { method: "DELETE", path: async () => `/dashboard/coupons/${await freshCoupon()}`, ok: 200 },
  "GET /dashboard/credit-packs": { method: "GET", path: "/dashboard/credit-packs", ok: 200 },
  "POST /dashboard/credit-packs": {
    method: "POST",
    path: "/dashboard/credit-packs",
    body: () => ({ key: `M${randomToken(10)}`, credits: "100", prices: PACK_PRICES }),
    ok: 201,
  },
  "GET /dashboard/credit-packs/{id}": { method: "GET", path: `/dashboard/credit-packs/${matrixPack}`, ok: 200 },
  "DELETE /dashboard/credit-packs/{id}": { method: "DELETE", path: async () => `/dashboard/credit-packs/${await freshPack()}`, ok: 200 },
  "GET /dashboard/features": { method: "GET", path: "/dashboard/features", ok: 200 },
  "POST /dashboard/features": {
    method: "POST",
    path: "/dashboard/features",
    body: () => ({ name: "Matrix new feature", featureKey: `matrix-new-${randomToken(10).toLowerCase()}`, featureType: "boolean" }),
    ok: 201,
  },
  "GET /dashboard/features/{feature}": { method: "GET", path: "/dashboard/features/matrix-flag", ok: 200 },
  "PATCH /dashboard/features/{feature}": { method: "PATCH", path: "/dashboard/features/matrix-flag", body: { icon: "flag" }, ok: 200 },
  "DELETE /dashboard/features/{feature}": {
    method: "DELETE",
    path: async () => `/dashboard/${(await freshFeaturePath()).slice(1)}`,
    ok: 200,
  },
};

// A webhook endpoint (never called: its jobs are not run here) with one delivery, and fresh ones for DELETE.
const webhookDeps = { sql: t.db.sql, clock: t.clock, config: t.config };
const devTenant = { teamId: team.teamId, environment: "development" as const };
const freshWebhook = async () => (await createEndpoint(webhookDeps, devTenant, OPERATOR, { url: "https://example.com/hook" })).id;
const matrixWebhook = await freshWebhook();
const matrixDelivery = (await sendTestEvent(webhookDeps, devTenant, OPERATOR, matrixWebhook)).deliveryId;
const matrixMessage = (await t.db.sql`select message_id from webhook_deliveries where id = ${matrixDelivery}`)[0]!.message_id as string;
const wh = "/dashboard/webhooks";
const WEBHOOK_ROUTES: Record<string, RouteCase> = {
  "GET /dashboard/webhooks/event-types": { method: "GET", path: `${wh}/event-types`, ok: 200 },
  "POST /dashboard/webhooks/endpoints": { method: "POST", path: `${wh}/endpoints`, body: { url: "https://example.com/new" }, ok: 201 },
  "GET /dashboard/webhooks/endpoints": { method: "GET", path: `${wh}/endpoints`, ok: 200 },
  "GET /dashboard/webhooks/endpoints/{id}": { method: "GET", path: `${wh}/endpoints/${matrixWebhook}`, ok: 200 },
  "PATCH /dashboard/webhooks/endpoints/{id}": { method: "PATCH", path: `${wh}/endpoints/${matrixWebhook}`, body: { description: "matrix" }, ok: 200 },
  "DELETE /dashboard/webhooks/endpoints/{id}": { method: "DELETE", path: async () => `${wh}/endpoints/${await freshWebhook()}`, ok: 200 },
  "POST /dashboard/webhooks/endpoints/{id}/rotate-secret": {
    method: "POST",
    path: `${wh}/endpoints/${matrixWebhook}/rotate-secret`,
    body: {},
    ok: 200,
  },
  "GET /dashboard/webhooks/endpoints/{id}/secret": { method: "GET", path: `${wh}/endpoints/${matrixWebhook}/secret`, ok: 200 },
  "POST /dashboard/webhooks/endpoints/{id}/test": { method: "POST", path: `${wh}/endpoints/${matrixWebhook}/test`, ok: 202 },
  "POST /dashboard/webhooks/endpoints/{id}/replay": {
    method: "POST",
    path: `${wh}/endpoints/${matrixWebhook}/replay`,
    body: { messageId: matrixMessage },
    ok: 202,
  },
  "GET /dashboard/webhooks/endpoints/{id}/deliveries": { method: "GET", path: `${wh}/endpoints/${matrixWebhook}/deliveries`, ok: 200 },
  "GET /dashboard/webhooks/deliveries/{id}": { method: "GET", path: `${wh}/deliveries/${matrixDelivery}`, ok: 200 },
  "POST /dashboard/webhooks/deliveries/{id}/replay": { method: "POST", path: `${wh}/deliveries/${matrixDelivery}/replay`, ok: 202 },
  "GET /dashboard/webhooks/notifications": { method: "GET", path: `${wh}/notifications`, ok: 200 },
};

// Invoice deliveries: an issued invoice, sent to the endpoint above (no SMTP here).
const matrixSendInvoice = (await issuedInvoice(t.db.sql, t.config.chains, devTenant, new Date(t.clock.now()), [line(1_000_000n)])).id;
const INVOICE_DELIVERY_ROUTES: Record<string, RouteCase> = {
  "POST /dashboard/invoices/{id}/send": {
    method: "POST",
    path: `/dashboard/invoices/${matrixSendInvoice}/send`,
    body: { channel: "webhook" },
    ok: 202,
  },
};
// Invoice documents: an issued invoice to export.
const matrixExportInvoice = (await issuedInvoice(t.db.sql, t.config.chains, devTenant, new Date(t.clock.now()), [line(1_000_000n)])).id;
const INVOICE_DOCUMENT_ROUTES: Record<string, RouteCase> = {
  "GET /dashboard/invoices/{id}/camt054": { method: "GET", path: `/dashboard/invoices/${matrixExportInvoice}/camt054`, ok: 200 },
};
// Invoice payments: settlement wallets, invoice settings and payment proofs (billing roles; the
// catalog session holds none). A proof on matrix-chain (endpoint down) answers 202 at once.
const matrixWallet = `0x${"2".repeat(40)}`;
await setSettlementWallet(
  { sql: t.db.sql, registry: t.config.chains },
  { tenant: dev, actor: OPERATOR, now: new Date(t.clock.now()) },
  "matrix-chain",
  { wallet: matrixWallet },
);
const matrixProofInvoice = (
  await issuedInvoice(t.db.sql, t.config.chains, dev, new Date(t.clock.now()), [line(5_000_000n)], { network: "matrix-chain" })
).id;
const freshWalletPath = async () => {
  await setSettlementWallet({ sql: t.db.sql, registry: t.config.chains }, { tenant: dev, actor: OPERATOR, now: new Date(t.clock.now()) }, "sepolia", {
    wallet: matrixWallet,
  });
  return "/dashboard/settlement-wallets/sepolia";
};
const BILLING_ROUTES: Record<string, RouteCase> = {
  "GET /dashboard/settlement-wallets": { method: "GET", path: "/dashboard/settlement-wallets", ok: 200 },
  "GET /dashboard/x402-payments": { method: "GET", path: "/dashboard/x402-payments", ok: 200 },
  "PUT /dashboard/settlement-wallets/{network}": {
    method: "PUT",
    path: "/dashboard/settlement-wallets/matrix-chain",
    body: { wallet: matrixWallet },
    ok: 200,
  },
  "DELETE /dashboard/settlement-wallets/{network}": { method: "DELETE", path: freshWalletPath, ok: 200 },
  "GET /dashboard/invoice-settings": { method: "GET", path: "/dashboard/invoice-settings", ok: 200 },
  "PUT /dashboard/invoice-settings": { method: "PUT", path: "/dashboard/invoice-settings", body: { paymentTermsDays: 14 }, ok: 200 },
  "POST /dashboard/invoices/{id}/payments": { method: "POST", path: `/dashboard/invoices/${matrixProofInvoice}/payments`, body: randomHash, ok: 202 },
};
// Invoices: a draft to read and replace, an issued invoice large enough to take a credit note
// per call, and fresh drafts for what a success consumes (issue, void).
const invoiceNow = new Date(t.clock.now());
const freshDraft = async () => (await inTx(t.db.sql, t.config.chains, dev, invoiceNow, (c) => createInvoice(c, invoiceInput([line(1_000_000n)])))).id;
const matrixDraft = await freshDraft();
const matrixIssued = (await issuedInvoice(t.db.sql, t.config.chains, dev, invoiceNow, [line(1_000_000_000n)])).id;
const invoiceBody = { currency: "USDC", lineItems: [{ description: "Matrix", quantity: 1, unitAmount: "1", taxRate: "0" }] };
const di = "/dashboard/invoices";
const INVOICE_DASHBOARD_ROUTES: Record<string, RouteCase> = {
  "GET /dashboard/invoices": { method: "GET", path: di, ok: 200 },
  "POST /dashboard/invoices": { method: "POST", path: di, body: invoiceBody, ok: 201 },
  "GET /dashboard/invoices/{id}": { method: "GET", path: `${di}/${matrixDraft}`, ok: 200 },
  "PUT /dashboard/invoices/{id}": { method: "PUT", path: `${di}/${matrixDraft}`, body: invoiceBody, ok: 200 },
  "POST /dashboard/invoices/{id}/issue": { method: "POST", path: async () => `${di}/${await freshDraft()}/issue`, ok: 200 },
  "POST /dashboard/invoices/{id}/void": { method: "POST", path: async () => `${di}/${await freshDraft()}/void`, ok: 200 },
  "POST /dashboard/invoices/{id}/credit-notes": {
    method: "POST",
    path: `${di}/${matrixIssued}/credit-notes`,
    body: { reason: "Matrix", amount: "0.01" },
    ok: 201,
  },
};
// Operating subscriptions: a live subscription (rows as activation leaves them) to read, cancel at its
// period's end and resume, as often as the matrix calls; the settings (billing roles; the catalog session holds none).
const matrixSubscription = (await subscriptionFixture(t.db.sql, dev, { company: "matrix-subscriber", planId: matrixPlan, now: invoiceNow }))
  .subscription.id;
const ds = "/dashboard/subscriptions";
const SUBSCRIPTION_DASHBOARD_ROUTES: Record<string, RouteCase> = {
  "GET /dashboard/subscriptions": { method: "GET", path: ds, ok: 200 },
  "GET /dashboard/subscriptions/{id}": { method: "GET", path: `${ds}/${matrixSubscription}`, ok: 200 },
  "POST /dashboard/subscriptions/{id}/cancel": { method: "POST", path: `${ds}/${matrixSubscription}/cancel`, body: {}, ok: 200 },
  "POST /dashboard/subscriptions/{id}/resume": { method: "POST", path: `${ds}/${matrixSubscription}/resume`, ok: 200 },
  "GET /dashboard/subscription-settings": { method: "GET", path: "/dashboard/subscription-settings", ok: 200 },
  "PUT /dashboard/subscription-settings": { method: "PUT", path: "/dashboard/subscription-settings", body: { taxRate: "1" }, ok: 200 },
};
// Reports: sums over the service's clock (default ranges), nothing written.
const REPORT_ROUTES: Record<string, RouteCase> = {
  "GET /dashboard/reports/usage": { method: "GET", path: "/dashboard/reports/usage", ok: 200 },
  "GET /dashboard/reports/revenue": { method: "GET", path: "/dashboard/reports/revenue", ok: 200 },
  "GET /dashboard/reports/renewals": { method: "GET", path: "/dashboard/reports/renewals", ok: 200 },
};
const INVOICE_ROUTES: Record<string, RouteCase> = {
  ...INVOICE_DASHBOARD_ROUTES,
  "GET /invoices": { method: "GET", path: "/invoices", ok: 200 },
  "GET /invoices/{id}": { method: "GET", path: `/invoices/${matrixIssued}`, ok: 200 },
  "GET /invoices/{id}/credit-notes": { method: "GET", path: `/invoices/${matrixIssued}/credit-notes`, ok: 200 },
};

// Escrow: matrix-chain has no escrow contract, so an allowed reservation is answered 409 escrow_not_configured (checked
// before anything is written); a reservation inserted here serves the read, and its resolution is 409 (not disputed).
const matrixEscrow = await (async () => {
  const id = `esc_matrix${randomToken(8)}`;
  const at = new Date(t.clock.now());
  const address = `0x${"4".repeat(40)}`;
  await t.db.sql`insert into escrow_reservations (id, team_id, environment, network, contract, request_nonce, payer, payee, token,
    token_symbol, amount, window_ends_at, consent_deadline, consent_signature, status, created_at, updated_at, authorized_at)
    values (${id}, ${team.teamId}, 'development', 'matrix-chain', ${address}, ${`matrix-${id}`}, ${address}, ${address}, ${address},
    'USDC', 1, ${at}, ${at}, '0x00', 'authorized', ${at}, ${at}, ${at})`;
  return id;
})();
const escrowBody = {
  network: "matrix-chain",
  token: "USDC",
  payer: `0x${"5".repeat(40)}`,
  amount: "1",
  requestNonce: "matrix-nonce",
  windowEnd: Math.floor(t.clock.now() / 1000) + 3600,
  deadline: Math.floor(t.clock.now() / 1000) + 600,
  signature: `0x${"ab".repeat(65)}`,
};
const ESCROW_ROUTES: Record<string, RouteCase> = {
  "POST /escrow/reservations": { method: "POST", path: "/escrow/reservations", body: escrowBody, ok: 409 },
  "GET /escrow/reservations": { method: "GET", path: "/escrow/reservations", ok: 200 },
  "GET /escrow/reservations/{id}": { method: "GET", path: `/escrow/reservations/${matrixEscrow}`, ok: 200 },
  "POST /escrow/reservations/{id}/resolve": {
    method: "POST",
    path: `/escrow/reservations/${matrixEscrow}/resolve`,
    body: { outcome: "refunded" },
    ok: 409,
  },
};
// Auto-topup: a fresh configuration per call of the routes that change one.
const freshTopup = async () =>
  (
    await configureTopup(
      { sql: t.db.sql, chains: t.config.chains },
      { tenant: dev, actor: OPERATOR, now: new Date(t.clock.now()) },
      {
        minBalanceThreshold: "1",
        topupAmount: "2",
        targetWallet: `0x${Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => b.toString(16).padStart(2, "0")).join("")}`,
        chainId: 31999,
      },
    )
  ).id;
const matrixFunder = mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: 4 });
const topupBody = { minBalanceThreshold: "1", topupAmount: "2", targetWallet: matrixWallet, chainId: 31999 };
const AGENT_ROUTES: Record<string, RouteCase> = {
  "POST /agent/dispatch": { method: "POST", path: "/agent/dispatch", body: topupBody, ok: 201 },
  "GET /dashboard/agent-dispatch": { method: "GET", path: "/dashboard/agent-dispatch", ok: 200 },
  "POST /dashboard/agent-dispatch/{id}/disable": {
    method: "POST",
    path: async () => `/dashboard/agent-dispatch/${await freshTopup()}/disable`,
    ok: 200,
  },
  "DELETE /dashboard/agent-dispatch/{id}": { method: "DELETE", path: async () => `/dashboard/agent-dispatch/${await freshTopup()}`, ok: 200 },
  "GET /dashboard/agent-topups": { method: "GET", path: "/dashboard/agent-topups", ok: 200 },
  "GET /dashboard/agent-funding": { method: "GET", path: "/dashboard/agent-funding", ok: 200 },
  // matrix-chain has no operator key: registering is refused (409) once the credential passed.
  "PUT /dashboard/agent-funding/{network}": {
    method: "PUT",
    path: "/dashboard/agent-funding/matrix-chain",
    body: () =>
      fundingBody({
        chains: t.config.chains,
        tenant: dev,
        network: "matrix-chain",
        wallet: matrixFunder,
        dailyCap: 100n,
        issuedAt: new Date(t.clock.now()),
      }),
    ok: 409,
  },
  "DELETE /dashboard/agent-funding/{network}": { method: "DELETE", path: "/dashboard/agent-funding/matrix-chain", ok: 404 },
};

// A company's entitlements and overrides in the dashboard: customers:read to read, customers:write to change.
const freshOverridePath = async () => {
  const flag = (await t.db.sql`select id from features where team_id = ${team.teamId} and feature_key = 'matrix-flag'`)[0]!.id as string;
  await setOverride(t.db.sql, { teamId: team.teamId, environment: "development" }, { company: "matrix-co", featureId: flag, kind: "boolean" });
  return "/dashboard/companies/matrix-co/overrides/matrix-flag";
};
const COMPANY_DASHBOARD_ROUTES: Record<string, RouteCase> = {
  "GET /dashboard/companies/{id}": { method: "GET", path: "/dashboard/companies/matrix-co", ok: 200 },
  "GET /dashboard/companies/{id}/entitlements": { method: "GET", path: "/dashboard/companies/matrix-co/entitlements", ok: 200 },
  "GET /dashboard/companies/{id}/check": { method: "GET", path: "/dashboard/companies/matrix-co/check?feature=matrix-flag", ok: 200 },
  "PUT /dashboard/companies/{id}/overrides/{feature}": {
    method: "PUT",
    path: "/dashboard/companies/matrix-co/overrides/matrix-flag",
    body: { kind: "boolean", enabled: true },
    ok: 200,
  },
  "DELETE /dashboard/companies/{id}/overrides/{feature}": { method: "DELETE", path: freshOverridePath, ok: 200 },
};

const ROUTES: Record<string, RouteCase> = {
  ...COMPANY_DASHBOARD_ROUTES,
  ...BILLING_ROUTES,
  ...ESCROW_ROUTES,
  ...AGENT_ROUTES,
  ...DASHBOARD_ROUTES,
  ...WEBHOOK_ROUTES,
  ...INVOICE_DELIVERY_ROUTES,
  ...INVOICE_DOCUMENT_ROUTES,
  ...INVOICE_ROUTES,
  ...SUBSCRIPTION_DASHBOARD_ROUTES,
  ...REPORT_ROUTES,
  "POST /api-keys/tokens": { method: "POST", path: "/api-keys/tokens", body: { company: { id: "matrix-co" } }, ok: 201 },
  "POST /access-tokens": { method: "POST", path: "/access-tokens", body: { company: { id: "matrix-co" }, user: { id: "matrix-user" } }, ok: 201 },
  "GET /companies": { method: "GET", path: "/companies", ok: 200 },
  "GET /users": { method: "GET", path: "/users", ok: 200 },
  "GET /audit-log": { method: "GET", path: "/audit-log", ok: 200 },
  "GET /dashboard/audit-log/verification": { method: "GET", path: "/dashboard/audit-log/verification", ok: 200 },
  "PATCH /companies/{id}": { method: "PATCH", path: "/companies/matrix-co", body: { name: "Matrix Co" }, ok: 200 },
  "PUT /features/{id}": { method: "PUT", path: freshFeaturePath, body: { name: "Matrix feature", icon: "grid" }, ok: 200 },
  "DELETE /features/{id}": { method: "DELETE", path: freshFeaturePath, ok: 200 },
  "GET /check": { method: "GET", path: "/check?company=matrix-co&feature=matrix-flag", ok: 200 },
  "GET /flags/check": { method: "GET", path: "/flags/check?company=matrix-co&flag=matrix-flag", ok: 200 },
  "GET /entitlements": { method: "GET", path: "/entitlements?company=matrix-co", ok: 200 },
  "POST /usage/consume": { method: "POST", path: "/usage/consume", body: { company: "matrix-co", feature: "matrix-flag" }, ok: 200 },
  "POST /events": { method: "POST", path: "/events", body: { event_type: "track", name: "matrix-flag", company: { id: "matrix-co" } }, ok: 200 },
  "GET /events": { method: "GET", path: "/events", ok: 200 },
  "POST /proofs/zktls": { method: "POST", path: "/proofs/zktls", body: async () => ({ proof: await signedProof(t.clock.now()) }), ok: 201 },
  "GET /proofs/zktls": { method: "GET", path: "/proofs/zktls", ok: 200 },
  "POST /payment-links": { method: "POST", path: "/payment-links", body: linkBody, ok: 201 },
  "GET /payment-links": { method: "GET", path: "/payment-links", ok: 200 },
  "GET /payment-links/{id}": { method: "GET", path: `/payment-links/${matrixLink}`, ok: 200 },
  "POST /checkout-sessions": { method: "POST", path: "/checkout-sessions", body: { paymentLinkId: matrixLink }, ok: 201 },
  "POST /checkout-sessions/{id}/payments": {
    method: "POST",
    path: async () => `/checkout-sessions/${await freshSession()}/payments`,
    body: randomHash,
    ok: 202,
  },
  "GET /checkout-sessions": { method: "GET", path: "/checkout-sessions", ok: 200 },
  "GET /checkout-sessions/{id}": { method: "GET", path: `/checkout-sessions/${matrixSession}`, ok: 200 },
  "GET /dashboard/session": { method: "GET", path: "/dashboard/session", ok: 200 },
  "POST /dashboard/sign-out": { method: "POST", path: "/dashboard/sign-out", ok: 200, fresh: true },
  "POST /dashboard/session/environment": { method: "POST", path: "/dashboard/session/environment", body: { environment: "development" }, ok: 200 },
  "GET /dashboard/teams": { method: "GET", path: "/dashboard/teams", ok: 200 },
  "GET /dashboard/members": { method: "GET", path: "/dashboard/members", ok: 200 },
  "POST /dashboard/members": {
    method: "POST",
    path: "/dashboard/members",
    body: () => ({ email: `inv-${randomToken(8)}@test.dev`, roles: ["catalog:read"] }),
    ok: 201,
  },
  "GET /dashboard/invitations": { method: "GET", path: "/dashboard/invitations", ok: 200 },
  "PATCH /dashboard/members/{id}": { method: "PATCH", path: `/dashboard/members/${matrixMember}`, body: { roles: ["catalog:read"] }, ok: 200 },
  "DELETE /dashboard/members/{id}": { method: "DELETE", path: freshMemberPath, ok: 200 },
  "GET /dashboard/api-keys": { method: "GET", path: "/dashboard/api-keys", ok: 200 },
  "POST /dashboard/api-keys": { method: "POST", path: "/dashboard/api-keys", body: { name: "Matrix", type: "secret" }, ok: 201 },
  "DELETE /dashboard/api-keys/{id}": { method: "DELETE", path: freshKeyPath, ok: 200 },
  // Refunds
  "POST /invoices/{id}/refunds": { method: "POST", path: `/invoices/${matrixInvoice}/refunds`, body: refundBody, ok: 409 },
  // Subscriptions: allowed calls reach the handler, which answers 404 for what does not exist.
  "POST /subscriptions/activate": {
    method: "POST",
    path: "/subscriptions/activate",
    body: { planId: "matrix-none", paymentAccount: `0x${"2".repeat(40)}`, company: { id: "matrix-co" } },
    ok: 404,
  },
  "POST /subscriptions/cancel": { method: "POST", path: "/subscriptions/cancel", body: {}, ok: 404 },
  "POST /mandates/revoke": { method: "POST", path: "/mandates/revoke", body: { mandateId: "mnd_matrix" }, ok: 404 },
  "GET /mandates/{id}/status": { method: "GET", path: "/mandates/mnd_matrix/status", ok: 404 },
  // The embed token's company has no subscription: 409; the dashboard names a company that does not exist: 404.
  "POST /companies/plan": { method: "POST", path: "/companies/plan", body: { planId: "matrix-none" }, ok: 409 },
  "POST /companies/plan/preview": { method: "POST", path: "/companies/plan/preview", body: { planId: "matrix-none" }, ok: 409 },
  "POST /dashboard/companies/{id}/plan": { method: "POST", path: "/dashboard/companies/matrix-none/plan", body: { planId: "matrix-none" }, ok: 404 },
  "POST /dashboard/companies/{id}/plan/preview": {
    method: "POST",
    path: "/dashboard/companies/matrix-none/plan/preview",
    body: { planId: "matrix-none" },
    ok: 404,
  },
};

// ✓ = allowed (the route's success status); 403 = authenticated but the wrong kind or missing permission.
const Y = "ok" as const;
const DASHBOARD_ONLY = {
  secret: 403,
  secretScoped: 403,
  restricted: 403,
  restrictedNoTokens: 403,
  publishable: 403,
  legacy: 403,
  embedToken: 403,
  sessionJwt: 403,
  dashboardAdmin: Y,
} as const;
// A customer's own routes: its embed token (and the browser session it becomes), no other credential.
const EMBED_ONLY = {
  secret: 403,
  secretScoped: 403,
  restricted: 403,
  restrictedNoTokens: 403,
  publishable: 403,
  legacy: 403,
  embedToken: Y,
  sessionJwt: Y,
  dashboardAdmin: 403,
  dashboardCatalog: 403,
} as const;
// Dashboard catalog routes: catalog:read reads (the fixture's catalog session holds it), catalog:write changes (admin only here).
const dashboardRows = Object.fromEntries(
  Object.keys(DASHBOARD_ROUTES).map((route) => [route, { ...DASHBOARD_ONLY, dashboardCatalog: route.startsWith("GET ") ? Y : 403 }]),
);
// Webhooks: a webhooks role for everything (admin holds them all; the catalog session holds none).
const webhookRows = Object.fromEntries(Object.keys(WEBHOOK_ROUTES).map((route) => [route, { ...DASHBOARD_ONLY, dashboardCatalog: 403 }]));
// Invoice deliveries: role billing:write (admin holds it; the catalog session does not).
const invoiceDeliveryRows = Object.fromEntries(
  Object.keys(INVOICE_DELIVERY_ROUTES).map((route) => [route, { ...DASHBOARD_ONLY, dashboardCatalog: 403 }]),
);
// Invoice documents: billing:read (admin holds it; the catalog session does not).
const invoiceDocumentRows = Object.fromEntries(
  Object.keys(INVOICE_DOCUMENT_ROUTES).map((route) => [route, { ...DASHBOARD_ONLY, dashboardCatalog: 403 }]),
);
const billingRows = Object.fromEntries(Object.keys(BILLING_ROUTES).map((route) => [route, { ...DASHBOARD_ONLY, dashboardCatalog: 403 }]));
// Invoices. Rule 8: sk_/rk_ holding invoices.read (the fixture's scoped keys hold other
// permissions), a dashboard session with billing:read (admin); pk_, legacy and embed credentials never.
// The dashboard's invoice routes: billing roles only (the catalog session holds none).
const INVOICE_READ = { ...DASHBOARD_ONLY, secret: Y, dashboardCatalog: 403 } as const;
const invoiceRows = {
  ...Object.fromEntries(Object.keys(INVOICE_DASHBOARD_ROUTES).map((route) => [route, { ...DASHBOARD_ONLY, dashboardCatalog: 403 }])),
  "GET /invoices": INVOICE_READ,
  "GET /invoices/{id}": INVOICE_READ,
  "GET /invoices/{id}/credit-notes": INVOICE_READ,
};
// Operating subscriptions: billing roles only (admin holds them; the catalog session does not).
const subscriptionDashboardRows = Object.fromEntries(
  Object.keys(SUBSCRIPTION_DASHBOARD_ROUTES).map((route) => [route, { ...DASHBOARD_ONLY, dashboardCatalog: 403 }]),
);
// Escrow: reserving takes server keys with payments.write (the fixture's scoped keys hold other permissions); reads the
// same keys and billing:read sessions; a resolution only a billing:write session (admin). Never legacy keys, pk_ or embed tokens.
const ESCROW_KEYS = { ...DASHBOARD_ONLY, secret: Y, dashboardAdmin: 403, dashboardCatalog: 403 } as const;
const ESCROW_READ = { ...DASHBOARD_ONLY, secret: Y, dashboardCatalog: 403 } as const;
const escrowRows = {
  "POST /escrow/reservations": ESCROW_KEYS,
  "GET /escrow/reservations": ESCROW_READ,
  "GET /escrow/reservations/{id}": ESCROW_READ,
  "POST /escrow/reservations/{id}/resolve": { ...DASHBOARD_ONLY, dashboardCatalog: 403 as const },
};
// Company entitlements and overrides: customers roles (admin holds them; the catalog session does not).
const companyDashboardRows = Object.fromEntries(
  Object.keys(COMPANY_DASHBOARD_ROUTES).map((route) => [route, { ...DASHBOARD_ONLY, dashboardCatalog: 403 }]),
);
// Reports: usage is the catalog's metering (catalog:read: the catalog session reads it); money and renewals billing:read.
const reportRows = {
  "GET /dashboard/reports/usage": { ...DASHBOARD_ONLY, dashboardCatalog: Y },
  "GET /dashboard/reports/revenue": { ...DASHBOARD_ONLY, dashboardCatalog: 403 },
  "GET /dashboard/reports/renewals": { ...DASHBOARD_ONLY, dashboardCatalog: 403 },
} as const;
const MATRIX: Record<string, Record<string, typeof Y | 403>> = {
  ...companyDashboardRows,
  ...reportRows,
  ...billingRows,
  ...escrowRows,
  ...subscriptionDashboardRows,
  ...dashboardRows,
  ...webhookRows,
  ...invoiceDeliveryRows,
  ...invoiceDocumentRows,
  ...invoiceRows,
  //                        secret  secretScoped  restricted  restrictedNoTokens  publishable  legacy  embedToken  sessionJwt  dashboardAdmin  dashboardCatalog
  "POST /api-keys/tokens": {
    secret: Y,
    secretScoped: 403,
    restricted: Y,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: 403,
    dashboardCatalog: 403,
  },
  "POST /access-tokens": {
    secret: Y,
    secretScoped: 403,
    restricted: Y,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: 403,
    dashboardCatalog: 403,
  },
  "GET /companies": {
    secret: Y,
    secretScoped: Y,
    restricted: Y,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /users": {
    secret: Y,
    secretScoped: Y,
    restricted: Y,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /audit-log": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /dashboard/audit-log/verification": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "PATCH /companies/{id}": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "PUT /features/{id}": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "DELETE /features/{id}": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /check": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: Y,
    publishable: Y,
    legacy: Y,
    embedToken: Y,
    sessionJwt: Y,
    dashboardAdmin: 403,
    dashboardCatalog: 403,
  },
  "GET /flags/check": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: Y,
    publishable: Y,
    legacy: Y,
    embedToken: Y,
    sessionJwt: Y,
    dashboardAdmin: 403,
    dashboardCatalog: 403,
  },
  "GET /entitlements": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: Y,
    publishable: Y,
    legacy: Y,
    embedToken: Y,
    sessionJwt: Y,
    dashboardAdmin: 403,
    dashboardCatalog: 403,
  },
  "POST /usage/consume": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: Y,
    sessionJwt: Y,
    dashboardAdmin: 403,
    dashboardCatalog: 403,
  },
  "POST /events": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: Y,
    sessionJwt: Y,
    dashboardAdmin: 403,
    dashboardCatalog: 403,
  },
  "GET /events": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: Y,
  }, // zkTLS proofs: server keys (companies.write to submit, customers.read to list) and dashboard readers of customers.
  "POST /proofs/zktls": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: 403,
    dashboardCatalog: 403,
  },
  "GET /proofs/zktls": {
    secret: Y,
    secretScoped: Y,
    restricted: Y,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },

  // Auto-topup: configuring takes a server key with payments.write; the dashboard routes billing:read / billing:write.
  "POST /agent/dispatch": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: 403,
    dashboardCatalog: 403,
  },
  "GET /dashboard/agent-dispatch": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "POST /dashboard/agent-dispatch/{id}/disable": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "DELETE /dashboard/agent-dispatch/{id}": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /dashboard/agent-topups": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /dashboard/agent-funding": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "PUT /dashboard/agent-funding/{network}": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "DELETE /dashboard/agent-funding/{network}": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },

  // payments.write for payment-link and checkout writes; checkout-session reads: legacy key or dashboard only (rule 7).
  "POST /payment-links": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /payment-links": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /payment-links/{id}": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "POST /checkout-sessions": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "POST /checkout-sessions/{id}/payments": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /checkout-sessions": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /checkout-sessions/{id}": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /dashboard/session": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: Y,
  },
  "POST /dashboard/sign-out": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: Y,
  },
  "POST /dashboard/session/environment": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: Y,
  },
  "GET /dashboard/teams": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: Y,
  },
  "GET /dashboard/members": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "POST /dashboard/members": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /dashboard/invitations": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "PATCH /dashboard/members/{id}": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "DELETE /dashboard/members/{id}": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /dashboard/api-keys": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "POST /dashboard/api-keys": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "DELETE /dashboard/api-keys/{id}": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  // Refunds: invoices.write for server keys, billing:write for dashboard sessions; no legacy or browser credentials.
  "POST /invoices/{id}/refunds": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: 403,
    sessionJwt: 403,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  }, // Subscriptions: activation per spec rule 7; mandates take subscriptions.write / .read (billing roles).
  "POST /subscriptions/activate": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: Y,
    sessionJwt: Y,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "POST /subscriptions/cancel": {
    secret: 403,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: 403,
    embedToken: Y,
    sessionJwt: Y,
    dashboardAdmin: 403,
    dashboardCatalog: 403,
  },
  "POST /companies/plan": EMBED_ONLY,
  "POST /companies/plan/preview": EMBED_ONLY,
  "POST /dashboard/companies/{id}/plan": { ...DASHBOARD_ONLY, dashboardCatalog: 403 },
  "POST /dashboard/companies/{id}/plan/preview": { ...DASHBOARD_ONLY, dashboardCatalog: 403 },
  "POST /mandates/revoke": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: Y,
    sessionJwt: Y,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
  "GET /mandates/{id}/status": {
    secret: Y,
    secretScoped: 403,
    restricted: 403,
    restrictedNoTokens: 403,
    publishable: 403,
    legacy: Y,
    embedToken: Y,
    sessionJwt: Y,
    dashboardAdmin: Y,
    dashboardCatalog: 403,
  },
};

beforeAll(async () => {
  for (const name of ["secret", "secretScoped", "restricted", "restrictedNoTokens", "publishable", "legacy"] as const)
    creds[name] = { token: team.keys[name] };
  const embed = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "matrix-co" }, ttlSeconds: 900 } });
  const jwt = await t.call("POST", "/access-tokens", {
    token: team.keys.secret,
    body: { company: { id: "matrix-co" }, user: { email: "u@matrix.test" } },
  });
  creds.embedToken = { token: embed.body.token };
  creds.sessionJwt = { token: jwt.body.token };
  // As a browser sends them: the cookie, and the session's CSRF token on writes (csrf.test covers its absence).
  creds.dashboardAdmin = dashboardCookie(team.dashboardAdmin, team.dashboardAdminCsrf);
  creds.dashboardCatalog = dashboardCookie(team.dashboardCatalog, team.dashboardCatalogCsrf);
});

test("every route in the access table has a row in this test, and no more", () => {
  expect(Object.keys(MATRIX).sort()).toEqual(Object.keys(ACCESS).sort());
});

describe("credential matrix", () => {
  for (const [route, row] of Object.entries(MATRIX)) {
    for (const [credential, expected] of Object.entries(row)) {
      test(`${route} with ${credential} -> ${expected === Y ? ROUTES[route]!.ok : 403}`, async () => {
        const r = ROUTES[route]!;
        let credentials = creds[credential];
        if (r.fresh && credential.startsWith("dashboard")) {
          const s = await dashboardSession(
            credential === "dashboardAdmin" ? "admin@test.dev" : "cat@test.dev",
            credential === "dashboardAdmin" ? ["admin"] : ["catalog:read"],
          );
          credentials = dashboardCookie(s.session, s.csrfToken);
        }
        const res = await t.call(r.method, await pathOf(r), { ...credentials, body: await bodyOf(r) });
        if (expected === Y) {
          expect(res.status).toBe(r.ok);
        } else {
          expect(res.status).toBe(403);
          expect(Object.keys(res.body).sort()).toEqual(["code", "error"]);
          expect(["wrong_credential_kind", "missing_permission"]).toContain(res.body.code);
        }
      });
    }
  }
});

describe("401: missing or invalid credentials", () => {
  const expect401 = async (options: { token?: string; cookie?: string; headers?: Record<string, string> }, code: string) => {
    for (const r of Object.values(ROUTES)) {
      const res = await t.call(r.method, await pathOf(r), { ...options, body: await bodyOf(r) });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String), code });
    }
  };

  test("no Authorization header -> missing_credentials", () => expect401({}, "missing_credentials"));
  test("a non-Bearer scheme -> invalid_credentials", () =>
    expect401({ headers: { authorization: `Basic ${team.keys.secret}` } }, "invalid_credentials"));
  test("an unknown key of a valid shape -> invalid_credentials", () => expect401({ token: `sk_test_${"A".repeat(40)}` }, "invalid_credentials"));
  test("garbage -> invalid_credentials", () => expect401({ token: "hello" }, "invalid_credentials"));
  test("a real key with its environment segment changed -> invalid_credentials", () =>
    expect401({ token: team.keys.secret.replace("sk_test_", "sk_live_") }, "invalid_credentials"));
  test("a real key with its type segment changed -> invalid_credentials", () =>
    expect401({ token: team.keys.secret.replace("sk_test_", "rk_test_") }, "invalid_credentials"));
  test("a tampered embed token -> invalid_credentials", () =>
    expect401({ token: creds.embedToken!.token!.slice(0, -2) + "xx" }, "invalid_credentials"));
  test("a JWT with alg none -> invalid_credentials", () => {
    const [, payload] = creds.sessionJwt!.token!.split(".");
    const none = `${btoa(JSON.stringify({ alg: "none", typ: "JWT" })).replace(/=+$/, "")}.${payload}.`;
    return expect401({ token: none }, "invalid_credentials");
  });
  test("a credential in the query string is ignored -> missing_credentials", async () => {
    const res = await t.call("GET", `/companies?access_token=${team.keys.secret}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("missing_credentials");
  });

  test("an expired key -> expired_credentials", async () => {
    const key = await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now(), { expiresAt: new Date(t.clock.now() + 60_000) });
    expect((await t.call("GET", "/companies", { token: key.key })).status).toBe(200);
    t.clock.advance(60_001);
    try {
      await expect401({ token: key.key }, "expired_credentials");
    } finally {
      t.clock.advance(-60_001);
    }
  });

  test("a revoked key -> revoked_credentials, and the embed tokens it minted die with it", async () => {
    const key = await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now());
    const minted = await t.call("POST", "/api-keys/tokens", { token: key.key, body: { company: { id: "matrix-co" } } });
    expect(minted.status).toBe(201);
    expect((await t.call("GET", "/companies", { token: key.key })).status).toBe(200);
    await revokeKey(t.db.sql, { teamId: team.teamId, environment: "development" }, key.id);
    // The NOTIFY reaches this instance's cache asynchronously; wait for it (bounded).
    for (let i = 0; i < 50 && (await t.call("GET", "/companies", { token: key.key })).status === 200; i++) await Bun.sleep(20);
    await expect401({ token: key.key }, "revoked_credentials");
    await expect401({ token: minted.body.token }, "revoked_credentials");
  });

  test("an expired embed token -> expired_credentials", async () => {
    const minted = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "matrix-co" }, ttlSeconds: 60 } });
    t.clock.advance(61_000);
    try {
      await expect401({ token: minted.body.token }, "expired_credentials");
    } finally {
      t.clock.advance(-61_000);
    }
  });

  test("an expired dashboard session -> expired_credentials", async () => {
    const s = await createDashboardSession(
      t.db.sql,
      { teamId: team.teamId, environment: "development", userEmail: "x@test.dev", roles: ["admin"], ttlHours: 1 },
      t.clock.now(),
    );
    t.clock.advance(3_600_001);
    try {
      await expect401({ cookie: `be_session=${s.session}` }, "expired_credentials");
    } finally {
      t.clock.advance(-3_600_001);
    }
  });
});

describe("live and test keys land in their environment", () => {
  test("sk_live creates in production; sk_test does not see it, and the reverse", async () => {
    const live = await t.call("POST", "/api-keys/tokens", { token: team.keys.secretLive, body: { company: { id: "live-only", name: "Live Co" } } });
    expect(live.status).toBe(201);
    const test_ = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "test-only", name: "Test Co" } } });
    const liveList = await t.call("GET", "/companies", { token: team.keys.secretLive });
    const testList = await t.call("GET", "/companies", { token: team.keys.secret });
    const ids = (r: { body: { data: { externalId: string }[] } }) => r.body.data.map((c) => c.externalId);
    expect(ids(liveList)).toContain("live-only");
    expect(ids(liveList)).not.toContain("test-only");
    expect(ids(testList)).toContain("test-only");
    expect(ids(testList)).not.toContain("live-only");
    expect(live.body.companyId).not.toBe(test_.body.companyId);
  });
});

describe("signed but malformed embed tokens", () => {
  test("a correctly signed token without a numeric exp is refused, not immortal", async () => {
    const { signEmbedToken } = await import("../../src/auth/tokens");
    const minted = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "matrix-co" } } });
    const claims = {
      jti: "tok_x",
      teamId: team.teamId,
      environment: "development",
      companyId: minted.body.companyId,
      issuedByKeyId: team.keyIds.secret,
      exp: "never",
    };
    const forged = signEmbedToken(t.config.tokenSigningSecret, claims as never);
    const res = await t.call("GET", "/companies", { token: forged });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("invalid_credentials");
  });

  test("a token naming another team's key as its issuer is refused", async () => {
    const { signEmbedToken } = await import("../../src/auth/tokens");
    const { createTeamFixture: makeTeam } = await import("../helpers/fixtures");
    const other = await makeTeam(t, "Issuer mismatch");
    const claims = {
      jti: "tok_y",
      teamId: team.teamId,
      environment: "development" as const,
      companyId: "comp_x",
      issuedByKeyId: other.keyIds.secret!,
      exp: Math.floor(t.clock.now() / 1000) + 600,
    };
    const res = await t.call("GET", "/companies", { token: signEmbedToken(t.config.tokenSigningSecret, claims) });
    expect(res.status).toBe(401);
  });
});

describe("mandates: a key that may revoke a mandate may read its status", () => {
  const keyWith = async (permissions: string[]) =>
    (await newKey(t.db.sql, team.teamId, "RESTRICTED", "development", t.clock.now(), { permissions })).key;
  const status = (token: string) => t.call("GET", "/mandates/mnd_matrix/status", { token });
  const revoke = (token: string) => t.call("POST", "/mandates/revoke", { token, body: { mandateId: "mnd_matrix" } });

  test("subscriptions.write: revoke and status are allowed (404: no such mandate)", async () => {
    const key = await keyWith(["subscriptions.write"]);
    expect([(await revoke(key)).status, (await status(key)).status]).toEqual([404, 404]);
  });

  test("subscriptions.read: status allowed, revoke 403 missing_permission; neither: both 403", async () => {
    const reader = await keyWith(["subscriptions.read"]);
    expect((await status(reader)).status).toBe(404);
    expect((await revoke(reader)).body.code).toBe("missing_permission");
    const neither = await keyWith(["customers.read"]);
    expect((await status(neither)).body).toEqual({
      error: "Permission 'subscriptions.read' or 'subscriptions.write' is required",
      code: "missing_permission",
    });
    expect((await revoke(neither)).status).toBe(403);
  });
});
