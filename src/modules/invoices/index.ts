/**
 * The invoice domain's one Elysia plugin, mounted once in app.ts: its verbs' routes in the order they match
 * (deliveries, refunds, documents, settings, payment proofs, the spec's reads, the dashboard's management).
 */
import { Elysia } from "elysia";
import { invoiceDeliveryRoutes } from "./deliveries/routes";
import { invoiceDocumentRoutes } from "./documents/routes";
import { dashboardInvoiceRoutes } from "./lifecycle/routes";
import { proofRoutes } from "./payments/routes";
import { invoiceRefundRoutes } from "./refunds/routes";
import { invoiceRoutes } from "./routes";
import { settingsRoutes } from "./settings/routes";

type DepsOf<F extends (deps: never) => unknown> = Parameters<F>[0];

export type InvoicePluginDeps = DepsOf<typeof invoiceDeliveryRoutes> &
  DepsOf<typeof invoiceRefundRoutes> &
  DepsOf<typeof invoiceDocumentRoutes> &
  DepsOf<typeof settingsRoutes> &
  DepsOf<typeof proofRoutes> &
  DepsOf<typeof invoiceRoutes> &
  DepsOf<typeof dashboardInvoiceRoutes>;

export function invoicePlugin(deps: InvoicePluginDeps) {
  return new Elysia()
    .use(invoiceDeliveryRoutes(deps))
    .use(invoiceRefundRoutes(deps))
    .use(invoiceDocumentRoutes(deps))
    .use(settingsRoutes(deps))
    .use(proofRoutes(deps))
    .use(invoiceRoutes(deps))
    .use(dashboardInvoiceRoutes(deps));
}
