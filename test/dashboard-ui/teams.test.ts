/**
 * Switching team in Chromium: the header's "Switch team" opens the operator's teams, a switch (the operator's password,
 * a wrong one refused with the team kept) starts a session in the other team (the header and the data change, the old session is over); hostile team names print as text.
 */
import { expect, test } from "bun:test";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { createTeam } from "../../src/modules/teams/team";
import { PASSWORD, browser as sessionOf, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const IMG = "<img src=x onerror=window.__x=1>";

const bed = await startDashboard();
const { t } = bed;
const { owner } = await newTeamWithOwner(t);
const other = await createTeam(t.db.sql, `Other ${IMG}`);
await createDashboardSession(
  t.db.sql,
  { teamId: other.id, environment: "development", userEmail: owner.email, roles: ["keys:read", "keys:write"] },
  t.clock.now(),
);
await (await sessionOf(t, owner.email)).write("POST", "/dashboard/api-keys", { name: "First team key", type: "secret" });
const otherKey = await (async () => {
  const s = await createDashboardSession(
    t.db.sql,
    { teamId: other.id, environment: "development", userEmail: "x@example.test", roles: ["owner"] },
    t.clock.now(),
  );
  return t.call("POST", "/dashboard/api-keys", { token: s.session, body: { name: "Other team key", type: "secret" } });
})();

test(
  "Switch team lists the operator's teams; a switch changes the header and the data, and ends the old session",
  async () => {
    expect(otherKey.status).toBe(201);
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    expect(await page.locator("tbody").textContent()).toContain("First team key");
    const oldCookie = (await page.context().cookies()).find((c) => c.name === "be_session")!.value;
    await page.getByRole("link", { name: "Switch team" }).click();
    await page.waitForURL("**/dashboard/teams");
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await rows.first().textContent()).toContain("Current team");
    expect(await rows.nth(1).locator("td").first().textContent()).toBe(`Other ${IMG}`);
    expect(await rows.nth(1).locator("td").nth(2).textContent()).toBe("keys:read, keys:write");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "teams");

    // The switch asks for the password: a wrong one is refused on the page, the team chosen kept.
    await page.getByLabel("Team", { exact: true }).selectOption(other.id);
    await page.getByLabel("Your password").fill("not the password");
    await page.getByRole("button", { name: "Switch team" }).click();
    expect(await page.locator(".form-error").textContent()).toBeTruthy();
    expect(await page.getByLabel("Team", { exact: true }).inputValue()).toBe(other.id);
    expect(await page.locator(".team strong").textContent()).toBe("Dashboard team");
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Switch team" }).click();
    await page.waitForURL("**/dashboard/teams?done=switched");
    expect(await page.locator(".team strong").textContent()).toBe(`Other ${IMG}`);
    expect(await page.getByRole("status").textContent()).toContain(`You are now signed in to Other ${IMG}`);
    expect(await page.locator("tbody tr").nth(1).textContent()).toContain("Current team");
    // Nothing made from the hostile name.
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __x?: unknown }).__x)).toBeUndefined();

    await page.goto("/dashboard/api-keys");
    const keys = await page.locator("tbody").textContent();
    expect(keys).toContain("Other team key");
    expect(keys).not.toContain("First team key");
    // The session the browser held before is over.
    expect((await t.call("GET", "/dashboard/session", { cookie: `be_session=${oldCookie}` })).status).toBe(401);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a forged switch (no CSRF token, or a team the operator is not in, even with the password) is refused and the session stays",
  async () => {
    const stranger = await createTeam(t.db.sql, "Stranger team");
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/teams");
    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const post = (fields: Record<string, string>) =>
      page.evaluate(async (fields) => {
        const res = await fetch("/dashboard/teams/switch", { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });
        return { status: res.status, text: await res.text() };
      }, fields);
    expect((await post({ teamId: other.id, password: PASSWORD })).status).toBe(403);
    const notMember = await post({ teamId: stranger.id, password: PASSWORD, csrf });
    expect(notMember.status).toBeGreaterThanOrEqual(400);
    expect(notMember.status).toBeLessThan(500);
    await page.goto("/dashboard/teams");
    expect(await page.locator(".team strong").textContent()).toBe("Dashboard team");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
