/**
 * Every form post of the dashboard, sent as a hostile client would (no browser): with every field named twice (a
 * list where a page expects text), with fields of the wrong names, and with nothing at all, by the owner with a
 * valid CSRF token. Each answer is a page with a 2xx, 3xx or 4xx status, never a 500, and nothing is logged as
 * an error of a page.
 */
import { expect, test } from "bun:test";
import { serverFetch } from "../../src/app";
import { dashboardPages } from "../../src/ui/routes";
import { createTestApp } from "../helpers/app";
import { browser as sessionOf, newTeamWithOwner } from "../helpers/dashboard";

const t = await createTestApp({ DASHBOARD_COOKIE_SECURE: "false" });
const fetchPage = serverFetch(t.deps, t.app);
const { owner } = await newTeamWithOwner(t);
const api = await sessionOf(t, owner.email);

/** Every POST route of the pages, with its path parameters filled; sign-out last (it ends the session). */
const posts = dashboardPages(() => new Response(null), t.logger)
  .routes.filter((r) => r.method === "POST")
  .map((r) => r.path.replace(/:[^/]+/g, "x1"))
  .sort((a, b) => Number(a === "/dashboard/sign-out") - Number(b === "/dashboard/sign-out"));

const NAMES = [
  "name",
  "description",
  "url",
  "amount",
  "email",
  "password",
  "roles",
  "eventTypes",
  "featureKey",
  "environment",
  "teamId",
  "token",
  "status",
  "reason",
  "limit",
  "price",
  "period",
  "back",
  "planIds",
  "txHash",
];

const send = (path: string, body: URLSearchParams) =>
  fetchPage(
    new Request(`http://127.0.0.1${path}`, {
      method: "POST",
      body,
      headers: { cookie: `be_session=${api.session}`, "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" },
    }),
  );

test("the pages have form posts to try (the list is read from the routes, not written here)", () => {
  expect(posts.length).toBeGreaterThan(30);
});

test("each form post answers a page (never a 500) with every field twice, with unknown fields, and empty", async () => {
  const failures: string[] = [];
  for (const path of posts) {
    const twice = new URLSearchParams([["csrf", api.csrf]]);
    for (const name of NAMES) for (const value of ["a", "b"]) twice.append(name, value);
    const bodies = {
      twice,
      unknown: new URLSearchParams([
        ["csrf", api.csrf],
        ["zz", "1"],
      ]),
      empty: new URLSearchParams(),
    };
    for (const [kind, body] of Object.entries(bodies)) {
      const res = await send(path, body);
      if (res.status >= 500) failures.push(`${kind} ${path}: ${res.status}`);
      // Signed in all along: a post that is not sign-out never lands on the sign-in page.
      if (path !== "/dashboard/sign-out" && res.headers.get("location") === "/dashboard/sign-in") failures.push(`${kind} ${path}: signed out`);
    }
  }
  expect(failures).toEqual([]);
  expect(t.logs.filter((line) => line.includes("dashboard page failed"))).toEqual([]);
}, 60_000);
