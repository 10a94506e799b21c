/** GET /dashboard/x402-payments (billing:read): the payments the service took on its 402s, and what became of them. */
import { Elysia } from "elysia";
import { authPlugin, type AuthDeps } from "../../http/auth";
import { ValidationErrorBody } from "../../http/error-schemas";
import { filteredList, Page, pageRequest, pageResponse } from "../../http/pagination";
import type { Db } from "../../db/queries";
import { presentPayment } from "./present";
import { listPaymentRows } from "./repo";
import { X402Payment, X402PaymentListQuery } from "./schemas";

/** What these routes need; the service's wiring (src/app-deps.ts) provides it. */
export type X402RouteDeps = AuthDeps & { sql: Db; config: { tokenSigningSecret: string } };

const LIST_DESCRIPTION = `Every x402 payment a 402 of POST /events or POST /usage/consume was paid with (docs/x402.md), newest first: \`settled\` (the transaction landed and the pack's credits were granted), \`failed\` (the chain refused it; \`failureReason\` is the x402 error code the payer was answered with) or \`claimed\` (being settled, or its outcome not known yet: after the claim's lease the same request's retry or the x402.reconcile job, each minute, completes it from the chain; one still claimed long after that was spent on chain without a Transfer the service could tie to it, and needs an operator's look at the chain). Refusals before a claim (a bad signature, an expired authorization) leave no payment here. Filter with \`status\`.`;

export function x402Routes(deps: X402RouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  return new Elysia().use(authPlugin(deps)).get(
    "/dashboard/x402-payments",
    async ({ principal, query }) => {
      const page = pageRequest(secret, filteredList("dashboard-x402-payments", { status: query.status }), principal, query);
      return pageResponse(page, await listPaymentRows(deps.sql, principal, { ...page, status: query.status ?? null }), presentPayment);
    },
    {
      access: true,
      query: X402PaymentListQuery,
      response: { 200: Page(X402Payment), 400: ValidationErrorBody },
      detail: { tags: ["Dashboard: billing"], summary: "List x402 payments, newest first", description: LIST_DESCRIPTION },
    },
  );
}
