/**
 * One role per file name (README "Layout"): SQL runs only in repo.ts files, no exported function takes more
 * than four positional parameters, no query file takes more than twelve `$n`, and no file is named for a
 * role the house does not have (model.ts, views.ts) or carries a role as a suffix (plans-repo.ts).
 * KNOWN_* lists name what the domains still do today; they only shrink (a listed file that no longer breaks
 * the rule fails the test, so the list is emptied as the files are fixed).
 */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import ts from "typescript";
import { ROOT, readSources } from "./source";

const sources = await readSources();

/** The names of src/db/queries.ts that run a statement (or name one to run). */
const RUNS_SQL = new Set(["queries", "run", "runOne", "runCount", "runPlannedPerCall", "deleteInBatches"]);
/** A postgres.js tagged template (sql`...`, tx`...`) or an unsafe call, outside comments. */
const TAGGED_SQL = /(?<![\w.])(sql|tx|db|trx)`|\.unsafe\(/;
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

function runsSql(file: (typeof sources)[number]): boolean {
  const fromQueries = file.imports.some((i) => i.file === "src/db/queries.ts" && i.names.some((n) => RUNS_SQL.has(n)));
  return fromQueries || TAGGED_SQL.test(withoutComments(file.text));
}

/** Files outside src/db that run SQL and are not (yet) named repo.ts. */
const KNOWN_SQL_OUTSIDE_REPO: string[] = [
  "src/modules/audit/verify.ts",
  "src/modules/catalog/coupons.ts",
  "src/modules/catalog/entitlements.ts",
  "src/modules/catalog/feature-writes.ts",
  "src/modules/catalog/features.ts",
  "src/modules/catalog/plans-repo.ts",
  "src/modules/catalog/redeem.ts",
  "src/modules/changes/publish.ts",
  "src/modules/customers/plan.ts",
  "src/modules/entitlements/catalog.ts",
  "src/modules/entitlements/company-state.ts",
  "src/modules/entitlements/credits.ts",
  "src/modules/entitlements/meter-identity.ts",
  "src/modules/entitlements/meter.ts",
  "src/modules/entitlements/runtime.ts",
  "src/modules/events/index.ts",
  "src/modules/events/retention.ts",
  "src/modules/invoices/backfill.ts",
  "src/modules/invoices/credit-notes-repo.ts",
  "src/modules/invoices/prepare.ts",
  "src/modules/invoices/read.ts",
  "src/modules/invoices/refunds.ts",
  "src/modules/invoices/settings.ts",
  "src/modules/invoices/settlement.ts",
  "src/modules/subscriptions/quotes.ts",
  "src/modules/subscriptions/read.ts",
  "src/modules/subscriptions/settings.ts",
  "src/modules/teams/invitations.ts",
  "src/modules/teams/members.ts",
  "src/modules/teams/operators.ts",
  "src/modules/teams/service.ts",
  "src/modules/teams/sessions.ts",
  "src/modules/teams/sign-in.ts",
  "src/modules/teams/team.ts",
  "src/modules/teams/throttle.ts",
  "src/modules/webhooks/delivery-repo.ts",
];

test("SQL runs only in files named repo.ts (outside src/db)", () => {
  const found = sources.filter((f) => !f.path.startsWith("src/db/") && !f.path.endsWith("/repo.ts") && runsSql(f)).map((f) => f.path);
  expect(found.filter((p) => !KNOWN_SQL_OUTSIDE_REPO.includes(p))).toEqual([]);
  expect(KNOWN_SQL_OUTSIDE_REPO.filter((p) => !found.includes(p))).toEqual([]);
});

/** Exported functions with more than four positional parameters, as `path: name`. */
const KNOWN_LONG_SIGNATURES: string[] = [
  "src/chains/evm/operator.ts: sendAsOperator",
  "src/chains/solana/balances.ts: judgeToken",
  "src/chains/solana/balances.ts: judgeNative",
  "src/chains/solana/balances.ts: nativeFalls",
  "src/chains/solana/landed.ts: findOperation",
  "src/chains/solana/landed.ts: readOperation",
  "src/chains/solana/spl.ts: transferChecked",
  "src/http/pagination.ts: pageResponse",
  "src/modules/audit/repo.ts: listAuditPage",
  "src/modules/catalog/coupons.ts: createCoupon",
  "src/modules/catalog/coupons.ts: listCouponPage",
  "src/modules/catalog/coupons.ts: updateCoupon",
  "src/modules/catalog/feature-writes.ts: updateFeature",
  "src/modules/catalog/feature-writes.ts: removeFeature",
  "src/modules/catalog/feature-writes.ts: deleteFeature",
  "src/modules/catalog/feature-writes.ts: setFeatureArchived",
  "src/modules/catalog/features.ts: listFeaturePage",
  "src/modules/catalog/plan-rules.ts: checkPrice",
  "src/modules/catalog/plans-repo.ts: listPlanPage",
  "src/modules/catalog/plans-repo.ts: updatePlanRow",
  "src/modules/catalog/plans-repo.ts: upsertPrice",
  "src/modules/catalog/plans-repo.ts: replaceOnchainIds",
  "src/modules/catalog/plans.ts: createPlanRecord",
  "src/modules/catalog/plans.ts: updatePlanRecord",
  "src/modules/catalog/plans.ts: setPlanPrice",
  "src/modules/catalog/plans.ts: removePlanPrice",
  "src/modules/catalog/redeem.ts: checkCoupon",
  "src/modules/catalog/repo.ts: upsertOverride",
  "src/modules/catalog/repo.ts: upsertPlanEntitlement",
  "src/modules/catalog/service.ts: audited",
  "src/modules/catalog/write.ts: auditedWrite",
  "src/modules/catalog/write.ts: catalogWrite",
  "src/modules/customers/identify.ts: upsertUser",
  "src/modules/customers/plan.ts: assignPlan",
  "src/modules/customers/repo.ts: findCompanyByKeys",
  "src/modules/customers/repo.ts: findCompanyIdByKeys",
  "src/modules/customers/repo.ts: listCompanyPage",
  "src/modules/customers/repo.ts: findUserByKeys",
  "src/modules/customers/repo.ts: listUserPage",
  "src/modules/customers/update.ts: updateCompany",
  "src/modules/entitlements/company-state.ts: loadCompanyState",
  "src/modules/entitlements/compute.ts: decide",
  "src/modules/entitlements/credits.ts: grantCreditsInTx",
  "src/modules/entitlements/service.ts: evaluate",
  "src/modules/events/identity.ts: planTrackIdentity",
  "src/modules/invoices/deliveries/repo.ts: insertWebhookDeliveries",
  "src/modules/invoices/deliveries/repo.ts: recordAttempt",
  "src/modules/invoices/document-links.ts: signDocumentToken",
  "src/modules/invoices/links.ts: documentLinks",
  "src/modules/invoices/manage.ts: replaceDraft",
  "src/modules/invoices/manage.ts: creditInvoice",
  "src/modules/invoices/overdue.ts: markOverdueInvoices",
  "src/modules/invoices/proof-submit.ts: submitProof",
  "src/modules/invoices/proofs.ts: proveInvoicePayment",
  "src/modules/invoices/read.ts: listInvoiceRows",
  "src/modules/invoices/read.ts: readInvoicePage",
  "src/modules/invoices/refund-proof.ts: refundInvoice",
  "src/modules/invoices/repo.ts: insertInvoice",
  "src/modules/invoices/repo.ts: updateDraft",
  "src/modules/invoices/repo.ts: issueDraft",
  "src/modules/invoices/repo.ts: setInvoiceStatus",
  "src/modules/invoices/repo.ts: addInvoiceAmounts",
  "src/modules/invoices/settings.ts: setSettlementWallet",
  "src/modules/invoices/settings.ts: updateInvoiceSettings",
  "src/modules/payments/links.ts: createPaymentLink",
  "src/modules/payments/paid.ts: grantPurchase",
  "src/modules/payments/paid.ts: invoiceOrLeave",
  "src/modules/payments/session-claim.ts: claim",
  "src/modules/payments/session-claim.ts: releaseClaim",
  "src/modules/payments/sessions.ts: openCheckoutSession",
  "src/modules/payments/settle.ts: submitPayment",
  "src/modules/payments/settle.ts: applyVerdict",
  "src/modules/subscriptions/activate.ts: activateSubscription",
  "src/modules/subscriptions/activation-consent.ts: verifyActivationConsent",
  "src/modules/subscriptions/change-outcome.ts: recordChangeLanded",
  "src/modules/subscriptions/change-outcome.ts: recordChangeRefused",
  "src/modules/subscriptions/change-payments.ts: paidByTransfer",
  "src/modules/subscriptions/change-payments.ts: pulledThroughMandate",
  "src/modules/subscriptions/change-plan.ts: changePlan",
  "src/modules/subscriptions/change-preview.ts: previewPlanChange",
  "src/modules/subscriptions/change-quote.ts: quotePlanChange",
  "src/modules/subscriptions/change-steps.ts: requote",
  "src/modules/subscriptions/change-steps.ts: issueChangeInvoice",
  "src/modules/subscriptions/finalize.ts: finalizeActivation",
  "src/modules/subscriptions/finalize.ts: expireActivation",
  "src/modules/subscriptions/manage.ts: cancelSubscription",
  "src/modules/subscriptions/manage.ts: resumeSubscription",
  "src/modules/subscriptions/mandate-refresh.ts: refreshLapsedMandate",
  "src/modules/subscriptions/mandates.ts: revokeMandate",
  "src/modules/subscriptions/outcome.ts: recordLanded",
  "src/modules/subscriptions/outcome.ts: recordRefused",
  "src/modules/subscriptions/proration-terms.ts: nextTerms",
  "src/modules/subscriptions/pulls.ts: recordPull",
  "src/modules/subscriptions/quotes.ts: recordQuote",
  "src/modules/subscriptions/quotes.ts: quotedRequest",
  "src/modules/subscriptions/read.ts: readSubscriptionPage",
  "src/modules/subscriptions/repo.ts: setCompanyPlanAnchored",
  "src/modules/subscriptions/repo.ts: drawMandate",
  "src/modules/subscriptions/repo.ts: renewMandateTerms",
  "src/modules/subscriptions/repo.ts: endMandate",
  "src/modules/subscriptions/repo.ts: completeCharge",
  "src/modules/subscriptions/repo.ts: countCharges",
  "src/modules/subscriptions/settings.ts: updateSubscriptionSettings",
  "src/modules/subscriptions/terms.ts: activationTerms",
  "src/modules/subscriptions/terms.ts: planTerms",
  "src/modules/teams/invitations.ts: inviteMember",
  "src/modules/teams/members.ts: changeRoles",
  "src/modules/teams/members.ts: setMemberRoles",
  "src/modules/teams/service.ts: revokeKey",
  "src/modules/teams/sign-in.ts: startSession",
  "src/modules/teams/sign-in.ts: createSignInLink",
  "src/modules/webhooks/deliveries.ts: listDeliveries",
  "src/modules/webhooks/deliveries.ts: replayMessage",
  "src/modules/webhooks/delivery-repo.ts: insertMessage",
  "src/modules/webhooks/delivery-repo.ts: insertDelivery",
  "src/modules/webhooks/delivery-repo.ts: listDeliveryPage",
  "src/modules/webhooks/delivery-repo.ts: recordDelivery",
  "src/modules/webhooks/delivery-repo.ts: skipDelivery",
  "src/modules/webhooks/delivery-repo.ts: claimAttempt",
  "src/modules/webhooks/delivery-repo.ts: finishAttempt",
  "src/modules/webhooks/delivery-repo.ts: listNotificationPage",
  "src/modules/webhooks/emit.ts: emitEvent",
  "src/modules/webhooks/emit.ts: enqueueAttempt",
  "src/modules/webhooks/repo.ts: updateEndpointRow",
  "src/modules/webhooks/repo.ts: rotateEndpointRow",
  "src/modules/webhooks/repo.ts: disableEndpointRow",
  "src/modules/webhooks/service.ts: updateEndpoint",
  "src/modules/webhooks/service.ts: rotateSecret",
];

function longSignatures(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const exported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const positional = (params: ts.NodeArray<ts.ParameterDeclaration>) =>
    params.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === "this")).length;
  const found: string[] = [];
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && exported(statement) && positional(statement.parameters) > 4)
      found.push(`${path}: ${statement.name?.text ?? "default"}`);
    if (ts.isVariableStatement(statement) && exported(statement))
      for (const d of statement.declarationList.declarations) {
        const init = d.initializer;
        if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) && positional(init.parameters) > 4)
          found.push(`${path}: ${d.name.getText(file)}`);
      }
  }
  return found;
}

test("no exported function takes more than four positional parameters (pass one context or options object)", () => {
  const found = sources.flatMap((f) => longSignatures(f.path, f.text));
  expect(found.filter((s) => !KNOWN_LONG_SIGNATURES.includes(s))).toEqual([]);
  expect(KNOWN_LONG_SIGNATURES.filter((s) => !found.includes(s))).toEqual([]);
});

/** Query files with more than twelve distinct `$n`, by file name. */
const KNOWN_WIDE_QUERIES: string[] = [
  "checkout_session_insert.sql",
  "company_override_upsert.sql",
  "coupon_insert.sql",
  "coupon_update.sql",
  "invoice_insert.sql",
  "invoice_lines_insert_many.sql",
  "invoice_update_draft.sql",
  "mandate_insert.sql",
  "meter_settle.sql",
  "payment_insert_for_invoice.sql",
  "payment_link_insert.sql",
  "plan_change_quote_insert.sql",
  "plan_entitlement_upsert.sql",
  "refund_insert.sql",
  "subscription_charge_insert.sql",
  "subscription_insert.sql",
  "subscription_update_state.sql",
];

test("no sql/queries file takes more than twelve positional parameters (take one named record, or split it)", async () => {
  const found: string[] = [];
  for await (const name of new Glob("*.sql").scan(`${ROOT}/sql/queries`)) {
    const text = (await Bun.file(`${ROOT}/sql/queries/${name}`).text()).replace(/--.*$/gm, "");
    if (new Set(text.match(/\$\d+/g) ?? []).size > 12) found.push(name);
  }
  found.sort();
  expect(found.filter((n) => !KNOWN_WIDE_QUERIES.includes(n))).toEqual([]);
  expect(KNOWN_WIDE_QUERIES.filter((n) => !found.includes(n))).toEqual([]);
});

/** Files of src/modules named for a role the house does not have, or with a role as a suffix. */
const KNOWN_ROLE_NAMES: string[] = [
  "src/modules/catalog/coupon-model.ts",
  "src/modules/catalog/dashboard-deps.ts",
  "src/modules/catalog/model.ts",
  "src/modules/catalog/plan-model.ts",
  "src/modules/catalog/plans-repo.ts",
  "src/modules/customers/model.ts",
  "src/modules/dashboard/key-routes.ts",
  "src/modules/dashboard/member-routes.ts",
  "src/modules/dashboard/model.ts",
  "src/modules/dashboard/session-routes.ts",
  "src/modules/entitlements/model.ts",
  "src/modules/events/model.ts",
  "src/modules/invoices/credit-notes-repo.ts",
  "src/modules/invoices/dashboard-routes.ts",
  "src/modules/invoices/model.ts",
  "src/modules/invoices/proof-model.ts",
  "src/modules/invoices/proof-routes.ts",
  "src/modules/invoices/refund-docs.ts",
  "src/modules/invoices/refund-routes.ts",
  "src/modules/invoices/settings-model.ts",
  "src/modules/invoices/settings-routes.ts",
  "src/modules/payments/model.ts",
  "src/modules/subscriptions/change-docs.ts",
  "src/modules/subscriptions/change-routes.ts",
  "src/modules/subscriptions/change-schemas.ts",
  "src/modules/subscriptions/dashboard-docs.ts",
  "src/modules/subscriptions/dashboard-routes.ts",
  "src/modules/subscriptions/model.ts",
  "src/modules/subscriptions/settings-model.ts",
  "src/modules/subscriptions/views.ts",
  "src/modules/tokens/model.ts",
  "src/modules/webhooks/delivery-model.ts",
  "src/modules/webhooks/delivery-repo.ts",
  "src/modules/webhooks/delivery-routes.ts",
  "src/modules/webhooks/endpoint-routes.ts",
  "src/modules/webhooks/model.ts",
];

test("role names: no model.ts or views.ts, and no role as a suffix (-repo, -routes, -schemas, -model, -docs, -rows, -deps) in src/modules", () => {
  const found = sources
    .map((f) => f.path)
    .filter((p) => {
      const name = p.split("/").pop()!;
      return (
        name === "model.ts" || name === "views.ts" || (p.startsWith("src/modules/") && /-(repo|routes|schemas|model|docs|rows|deps)\.ts$/.test(name))
      );
    });
  expect(found.filter((p) => !KNOWN_ROLE_NAMES.includes(p))).toEqual([]);
  expect(KNOWN_ROLE_NAMES.filter((p) => !found.includes(p))).toEqual([]);
});
