/** The dashboard's pages (docs/dashboard.md): what src/app.ts mounts beside the API. */
import { logRequest, withRequestId } from "../http/request-context";
import type { Logger } from "../lib/logger";
import type { ApiFetch } from "./api";
import { dashboardPages } from "./routes";

/** The pages' handler: each answer carries a request id and is logged as the API's are (its API calls have their own). */
export function pagesHandler(api: ApiFetch, logger: Logger): (request: Request) => Promise<Response> {
  const pages = dashboardPages(api, logger);
  return withRequestId(async (request) => {
    const response = await pages.handle(request);
    logRequest(logger, request, response.status);
    return response;
  }) as (request: Request) => Promise<Response>;
}

/** Whether a request is for the pages: `/dashboard` and below (the API's own dashboard routes are under /api/v1). */
export function isPageRequest(url: string): boolean {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0 || !url.startsWith("/dashboard", start)) return false;
  const next = url[start + "/dashboard".length];
  return next === undefined || next === "/" || next === "?" || next === "#";
}
