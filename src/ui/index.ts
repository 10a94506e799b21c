/** The dashboard's pages (docs/dashboard.md): what src/app.ts mounts beside the API. */
export { dashboardPages } from "./routes";
export type { ApiFetch } from "./api";

/** Whether a request is for the pages: `/dashboard` and below (the API's own dashboard routes are under /api/v1). */
export function isPageRequest(url: string): boolean {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0 || !url.startsWith("/dashboard", start)) return false;
  const next = url[start + "/dashboard".length];
  return next === undefined || next === "/" || next === "?" || next === "#";
}
