/**
 * Members and invitations in Chromium: invite through the page (the link shown once, with a copy button), accept it
 * in a fresh browser, change a member's roles (and see a write control go on another page), a refusal printed with
 * the boxes kept, remove after a confirmation; a read-only member sees no control and a forged post changes nothing;
 * hostile names and emails print as text.
 */
import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { createOperator } from "../../src/modules/teams/operators";
import { PASSWORD, browser as sessionOf, newOperator, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const IMG = "<img src=x onerror=window.__x=1>";
const SCRIPT = '"><script>window.__x=2</script>';

const bed = await startDashboard();
const { t } = bed;
const { teamId, owner } = await newTeamWithOwner(t);
const ownerApi = await sessionOf(t, owner.email);
const reader = await newOperator(t, teamId, ["members:read"]);

const members = async () => (await ownerApi.read("/dashboard/members")).body.data as { id: string; email: string; name: string; roles: string[] }[];

/** The link of the invitation the first test makes through the page, accepted by the next in a fresh browser. */
let invitationLink = "";

/** A form post made by script from the page (with the page's cookie), as a forged request would be. */
const post = (page: Page, path: string, fields: [string, string][]) =>
  page.evaluate(
    async ({ path, fields }) => {
      const res = await fetch(path, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });
      return { status: res.status, text: await res.text() };
    },
    { path, fields },
  );

test(
  "invite through the page: the link is shown once with a copy button, and gone on reload",
  async () => {
    const page = await bed.newPage();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/members");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "members");
    await page.getByLabel("Email").fill("grace@example.test");
    await page.getByLabel("catalog:read").check();
    await page.getByLabel("catalog:write").check();
    await page.getByRole("button", { name: "Invite" }).click();
    const link = (await page.locator("#invite-link").textContent())!;
    expect(link).toMatch(new RegExp(`^${bed.base}/dashboard/invitations/accept#token=dinv_[\\w-]+$`));
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(await page.locator("tr", { hasText: "grace@example.test" }).textContent()).toContain("catalog:read, catalog:write");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "members-invited");
    await page.reload(); // shown once: a reload lists the invitation without its link
    expect(await page.locator("#invite-link").count()).toBe(0);
    expect(await page.content()).not.toContain(link.split("#token=")[1]!);
    invitationLink = link;
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "the invitation made through the page, accepted in a fresh browser: a refusal beside its field, then signed in with the roles given; the link is spent",
  async () => {
    const link = invitationLink;
    expect(link).toBeTruthy();
    const fresh = await bed.newPage();
    await fresh.goto(link);
    expect(fresh.url()).toBe(`${bed.base}/dashboard/invitations/accept`); // the token left the address bar
    expect(await fresh.getByLabel("Invitation token").inputValue()).toBe(link.split("#token=")[1]!);
    expect(await fresh.evaluate(() => document.activeElement?.id)).toBe("name");
    expect(await seriousViolations(fresh)).toEqual([]);
    await screenshot(fresh, "invitation-accept");
    await fresh.getByLabel("Your name").fill("Grace");
    await fresh.getByLabel("Password").fill("short");
    await fresh.getByRole("button", { name: "Accept and sign in" }).click();
    // The API's message beside the field, the name and token kept, the invitation not spent.
    expect(await fresh.locator("#password-error").textContent()).toBe("12 to 256 characters");
    expect(await fresh.getByLabel("Your name").inputValue()).toBe("Grace");
    await fresh.getByLabel("Password").fill(PASSWORD);
    await fresh.getByRole("button", { name: "Accept and sign in" }).click();
    await fresh.waitForURL("**/dashboard/teams");
    expect(await fresh.locator(".who").textContent()).toBe("grace@example.test");
    expect(await fresh.locator("tbody tr").textContent()).toContain("catalog:read, catalog:write");
    expect((await members()).find((m) => m.email === "grace@example.test")?.roles).toEqual(["catalog:read", "catalog:write"]);
    // The same link again: spent.
    const again = await bed.newPage();
    await again.goto(link);
    await again.getByLabel("Your name").fill("Mallory");
    await again.getByLabel("Password").fill(PASSWORD);
    await again.getByRole("button", { name: "Accept and sign in" }).click();
    expect(await again.getByRole("alert").textContent()).toBe("This invitation is unknown, already accepted or expired");
    for (const p of [fresh, again]) await p.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "an invitation the API refuses comes back with its message and what was typed: no role (beside the boxes), an existing member (above the form)",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/members");
    await page.getByLabel("Email").fill("nobody-yet@example.test");
    await page.getByRole("button", { name: "Invite" }).click();
    const direct = await ownerApi.write("POST", "/dashboard/members", { email: "nobody-yet@example.test", roles: [] });
    expect(direct.status).toBe(400);
    expect(await page.locator("#roles-error").textContent()).toBe(direct.body.details["body.roles"]);
    expect(await page.getByLabel("Email").inputValue()).toBe("nobody-yet@example.test");
    await page.getByLabel("Email").fill(reader.email);
    await page.getByLabel("billing:read").check();
    await page.getByRole("button", { name: "Invite" }).click();
    expect(await page.getByRole("alert").textContent()).toBe(`${reader.email} is already a member of this team`);
    expect(await page.getByLabel("Email").inputValue()).toBe(reader.email);
    expect(await page.getByLabel("billing:read").isChecked()).toBe(true);
    expect((await ownerApi.read("/dashboard/invitations")).body.data.some((i: { email: string }) => i.email === reader.email)).toBe(false);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "change roles: the member loses catalog:write and the features form is gone from their page; a refusal is printed with the boxes kept",
  async () => {
    const editor = await newOperator(t, teamId, ["catalog:read", "catalog:write"], "editor@example.test");
    const theirs = await bed.newPage();
    await signInThroughPage(theirs, editor.email, PASSWORD);
    await theirs.goto("/dashboard/features");
    expect(await theirs.getByRole("button", { name: "Create feature" }).count()).toBe(1);

    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/members");
    await page
      .locator("tr", { hasText: "editor@example.test" })
      .getByRole("link", { name: /Change roles/ })
      .click();
    await page.waitForURL("**/roles");
    expect(await page.getByLabel("catalog:write").isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "members-roles");
    await page.getByLabel("catalog:write").uncheck();
    await page.getByRole("button", { name: "Save roles" }).click();
    await page.waitForURL("**/dashboard/members?done=roles");
    expect(await page.getByRole("status").textContent()).toContain("Roles changed");
    expect(await page.locator("tr", { hasText: "editor@example.test" }).locator("td").nth(2).textContent()).toBe("catalog:read");

    await theirs.reload();
    expect(await theirs.getByRole("button", { name: "Create feature" }).count()).toBe(0);
    expect(await theirs.locator("main").textContent()).toContain("not change it");

    // A manager with members:write and catalog:read may not grant a role they lack: the API's refusal, the boxes as ticked.
    const manager = await newOperator(t, teamId, ["members:read", "members:write", "catalog:read"]);
    const m = await bed.newPage();
    await signInThroughPage(m, manager.email, PASSWORD);
    await m.goto(`/dashboard/members/${editor.memberId}/roles`);
    await m.getByLabel("billing:write").check();
    await m.getByRole("button", { name: "Save roles" }).click();
    expect(await m.getByRole("alert").textContent()).toBeTruthy();
    const refusal = (await m.getByRole("alert").textContent())!;
    const api = await ownerApi.read("/dashboard/members"); // unchanged
    expect(api.body.data.find((x: { id: string }) => x.id === editor.memberId).roles).toEqual(["catalog:read"]);
    const direct = await (await sessionOf(t, manager.email)).write("PATCH", `/dashboard/members/${editor.memberId}`, {
      roles: ["catalog:read", "billing:write"],
    });
    expect(refusal).toBe(direct.body.error);
    expect(await m.getByLabel("billing:write").isChecked()).toBe(true);
    for (const p of [theirs, page, m]) await p.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "remove a member after the confirmation page: their session ends",
  async () => {
    const leaving = await newOperator(t, teamId, ["catalog:read"], "leaving@example.test");
    const theirs = await sessionOf(t, leaving.email);
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/members");
    await page
      .locator("tr", { hasText: "leaving@example.test" })
      .getByRole("link", { name: /Remove/ })
      .click();
    await page.waitForURL("**/remove");
    expect(await page.locator("main").textContent()).toContain("Every session they hold ends");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "members-remove");
    expect((await theirs.read("/dashboard/session")).status).toBe(200); // nothing yet
    await page.getByRole("button", { name: "Remove member" }).click();
    await page.waitForURL("**/dashboard/members?done=removed");
    expect(await page.getByRole("status").textContent()).toContain("Member removed");
    expect(await page.locator("tbody").first().textContent()).not.toContain("leaving@example.test");
    expect((await members()).some((x) => x.email === "leaving@example.test")).toBe(false);
    expect((await theirs.read("/dashboard/session")).status).toBe(401);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a read-only member (members:read) sees members and invitations but no control; forged posts change nothing",
  async () => {
    const target = await newOperator(t, teamId, ["catalog:read"], "target@example.test");
    const before = await members();
    const invitationsBefore = (await ownerApi.read("/dashboard/invitations")).body.data.length;
    const page = await bed.newPage();
    await signInThroughPage(page, reader.email, PASSWORD);
    await page.goto("/dashboard/members");
    expect(await page.locator("tbody").first().textContent()).toContain("target@example.test");
    expect(await page.locator("main form").count()).toBe(0);
    expect(await page.getByRole("link", { name: /Change roles|Remove/ }).count()).toBe(0);
    expect(await page.locator("main").textContent()).toContain("not invite, change or remove");
    await screenshot(page, "members-read-only");
    expect((await page.goto(`/dashboard/members/${target.memberId}/remove`))!.status()).toBe(403);
    expect(await page.locator("main form").count()).toBe(0);
    await page.goto("/dashboard/members");

    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const invite = await post(page, "/dashboard/members", [
      ["csrf", csrf],
      ["email", "forged@example.test"],
      ["roles", "owner"],
    ]);
    expect(invite.status).toBe(403);
    expect(invite.text).toContain("members:write");
    const roles = await post(page, `/dashboard/members/${target.memberId}/roles`, [
      ["csrf", csrf],
      ["roles", "admin"],
    ]);
    expect(roles.status).toBe(403);
    const remove = await post(page, `/dashboard/members/${target.memberId}/remove`, [["csrf", csrf]]);
    expect(remove.status).toBe(403);
    // The owner's page without the CSRF token: refused too.
    const ownerPage = await bed.newPage();
    await signInThroughPage(ownerPage, owner.email, PASSWORD);
    const noToken = await post(ownerPage, `/dashboard/members/${target.memberId}/remove`, []);
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain("CSRF");

    expect(await members()).toEqual(before);
    expect((await ownerApi.read("/dashboard/invitations")).body.data.length).toBe(invitationsBefore);
    await page.context().close();
    await ownerPage.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "hostile names and emails print as text on the members, roles, remove and accept pages",
  async () => {
    // The API's email format refuses `<` and `"`; an account made by the CLI's operator check takes them.
    const hostileEmail = `${SCRIPT}@example.test`;
    await createOperator(t.db.sql, { email: hostileEmail, name: IMG, password: PASSWORD }, t.config.passwordHashMemoryKib);
    await createDashboardSession(t.db.sql, { teamId, environment: "development", userEmail: hostileEmail, roles: ["catalog:read"] }, t.clock.now());
    const hostile = (await members()).find((m) => m.email === hostileEmail)!;
    const page = await bed.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await signInThroughPage(page, owner.email, PASSWORD);
    const inert = async (texts: string[]) => {
      expect(await page.evaluate(() => (window as { __x?: unknown }).__x)).toBeUndefined();
      expect(await page.locator("img").count()).toBe(0);
      expect(await page.locator("script").count()).toBe(1);
      const shown = (await page.locator("body").innerText()).replace(/\s+/g, " ");
      for (const text of texts) expect(shown).toContain(text);
    };
    await page.goto("/dashboard/members");
    await inert([IMG, hostileEmail]);
    await page.goto(`/dashboard/members/${hostile.id}/roles`);
    await inert([IMG, hostileEmail]);
    await page.goto(`/dashboard/members/${hostile.id}/remove`);
    await inert([`Remove ${IMG} (${hostileEmail})`]);
    // The accept page keeps what was typed, as text, after a refusal.
    await page.goto("/dashboard/invitations/accept");
    await page.getByLabel("Invitation token").fill(SCRIPT);
    await page.getByLabel("Your name").fill(IMG);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Accept and sign in" }).click();
    expect(await page.getByLabel("Your name").inputValue()).toBe(IMG);
    await inert([]);
    expect(errors).toEqual([]);
    expect(bed.blocked).toEqual([]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
