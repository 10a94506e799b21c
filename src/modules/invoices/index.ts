/** The invoice routes: the spec's reads (routes.ts) and the dashboard's management (dashboard-routes.ts). */
export { invoiceRoutes } from "./routes";
export { dashboardInvoiceRoutes } from "./lifecycle/routes";
