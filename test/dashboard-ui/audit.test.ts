/**
 * The audit log page in Chromium: the members section's actions listed with their actor, filters and the next page,
 * the chain "verified up to entry N"; an entry edited in the database shows the chain broken at that entry; a member
 * without audit:read is refused.
 */
import { expect, test } from "bun:test";
import { recordAudit } from "../../src/modules/audit/repo";
import { OPERATOR } from "../../src/modules/teams/roles";
import { PASSWORD, browser as sessionOf, newOperator, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const bed = await startDashboard();
const { t } = bed;
const { teamId, owner } = await newTeamWithOwner(t);
const ownerApi = await sessionOf(t, owner.email);
// What the members pages do, through the API: an invitation, a role change, a removal.
await ownerApi.write("POST", "/dashboard/members", { email: "audited@example.test", roles: ["catalog:read"] });
const changed = await newOperator(t, teamId, ["catalog:read"], "changed@example.test");
await ownerApi.write("PATCH", `/dashboard/members/${changed.memberId}`, { roles: ["catalog:read", "billing:read"] });
const removed = await newOperator(t, teamId, ["catalog:read"], "removed@example.test");
await ownerApi.write("DELETE", `/dashboard/members/${removed.memberId}`);
// Ids from integrators' data (a company's id is theirs to choose) print in the log: hostile ones too.
const IMG = "<img src=x onerror=window.__x=1>";
const SCRIPT = '"><script>window.__x=2</script>';
await recordAudit(t.db.sql, {
  teamId,
  environment: "development",
  actor: { kind: "secret", id: SCRIPT, requestId: null },
  action: "company.update",
  resourceType: "company",
  resourceId: IMG,
});

const chain = async () =>
  t.db.sql`select id, chain_seq, action from audit_log where team_id = ${teamId} and environment = 'development' order by chain_seq`;

test(
  "the log lists the members' actions with who made them, filters by action, and the chain is verified up to its newest entry",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.getByRole("link", { name: "Audit log" }).click();
    await page.waitForURL("**/dashboard/audit-log");
    const entries = await chain();
    const head = Number(entries.at(-1)!.chain_seq);
    expect(await page.locator(".chain").textContent()).toContain(`Chain verified up to entry ${head}.`);
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(entries.length);
    // Newest first, as the API answers.
    expect(await rows.first().locator("td").first().textContent()).toBe(String(head));
    for (const action of ["invitation.create", "member.roles_change", "member.remove"]) {
      const row = rows.filter({ hasText: action });
      expect(await row.count()).toBe(1);
      expect(await row.textContent()).toContain(`${owner.email} (${owner.id})`);
    }
    expect(await rows.filter({ hasText: "member.remove" }).textContent()).toContain(removed.memberId);
    const hostile = rows.filter({ hasText: "company.update" });
    expect(await hostile.textContent()).toContain(IMG);
    expect(await hostile.textContent()).toContain(SCRIPT);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.locator("script").count()).toBe(1);
    expect(await page.evaluate(() => (window as { __x?: unknown }).__x)).toBeUndefined();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "audit-log");

    await page.getByLabel("Action").fill("member.remove");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/\/dashboard\/audit-log\?action=member.remove&/);
    expect(await rows.count()).toBe(1);
    expect(await page.getByLabel("Action").inputValue()).toBe("member.remove");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "an entry edited in the database shows the chain broken at that entry; a member without audit:read is refused",
  async () => {
    const entries = await chain();
    const victim = entries[1]!;
    await t.db.sql`update audit_log set action = 'member.nothing_happened' where id = ${victim.id}`;
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/audit-log");
    const status = page.locator(".chain");
    expect(await status.getAttribute("role")).toBe("alert");
    expect(await status.textContent()).toContain(`Chain broken at entry ${victim.chain_seq} (${victim.id}): hash_mismatch.`);
    expect(await status.textContent()).toContain("it was edited after it was written");
    expect(await page.locator("tr.chain-break-row td").first().textContent()).toBe(`${victim.chain_seq} broken here`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "audit-log-broken");

    const reader = await newOperator(t, teamId, ["catalog:read"]);
    const theirs = await bed.newPage();
    await signInThroughPage(theirs, reader.email, PASSWORD);
    const answer = (await theirs.goto("/dashboard/audit-log"))!;
    expect(answer.status()).toBe(403);
    expect(await theirs.getByRole("alert").textContent()).toBe("Dashboard role 'audit:read' is required");
    await page.context().close();
    await theirs.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "long logs page with the API's cursor, the filter kept on the next page",
  async () => {
    // More than a page of the API's (50): entries written as the services write them.
    for (let i = 0; i < 55; i++)
      await recordAudit(t.db.sql, {
        teamId,
        environment: "development",
        actor: OPERATOR,
        action: "test.paged",
        resourceType: "test",
        resourceId: `t${i}`,
      });
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/audit-log?action=test.paged");
    const seen: string[] = [];
    for (;;) {
      seen.push(...(await page.locator("tbody tr td:first-child").allTextContents()));
      const next = page.getByRole("link", { name: "Next page" });
      if ((await next.count()) === 0) break;
      expect(await next.getAttribute("href")).toContain("action=test.paged");
      await next.click();
    }
    expect(seen.length).toBe(55);
    expect(new Set(seen).size).toBe(55);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
