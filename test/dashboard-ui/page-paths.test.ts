/** Which requests the pages answer: /dashboard and below, never the API's own /api/v1/dashboard routes. */
import { expect, test } from "bun:test";
import { isPageRequest } from "../../src/ui";
import { safeReturn, sameOrigin } from "../../src/ui/response";

test("isPageRequest: /dashboard and its subpaths only", () => {
  const pages = ["http://h/dashboard", "http://h/dashboard/", "http://h/dashboard/api-keys", "http://h:3000/dashboard?x=1"];
  const api = ["http://h/api/v1/dashboard/session", "http://h/dashboardx", "http://h/", "http://h/api/v1/companies?next=/dashboard"];
  expect(pages.map(isPageRequest)).toEqual(pages.map(() => true));
  expect(api.map(isPageRequest)).toEqual(api.map(() => false));
});

test("safeReturn goes back only to one of our pages", () => {
  expect(
    ["/dashboard/features", "/dashboard", "//evil.example", "https://evil.example/dashboard", "/dashboard/../api", undefined].map(safeReturn),
  ).toEqual(["/dashboard/features", "/dashboard", "/dashboard", "/dashboard", "/dashboard", "/dashboard"]);
});

test("sameOrigin: a post naming another origin or site is not ours; one naming none (a non-browser client) is", () => {
  const at = (headers: Record<string, string>) =>
    sameOrigin(new Request("http://h:3000/dashboard/sign-in", { method: "POST", headers: { host: "h:3000", ...headers } }));
  expect(at({ origin: "http://h:3000", "sec-fetch-site": "same-origin" })).toBe(true);
  expect(at({})).toBe(true);
  expect(at({ origin: "https://evil.example" })).toBe(false);
  expect(at({ origin: "http://h:3000", "sec-fetch-site": "cross-site" })).toBe(false);
  expect(at({ "sec-fetch-site": "same-site" })).toBe(false);
  expect(at({ origin: "null" })).toBe(false);
  // Behind a proxy that rewrites Host, the browser's Sec-Fetch-Site decides.
  expect(at({ origin: "https://billing.example", "sec-fetch-site": "same-origin" })).toBe(true);
});
