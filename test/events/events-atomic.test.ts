/**
 * POST /events: an event and who it is about (a new company, user, membership) commit together or not
 * at all. The event write is made to fail for real, by a trigger this file installs on `events`, after
 * the identity writes have run in the same transaction; the meter's neighbours in the batch still succeed.
 */
import { describe, expect, test } from "bun:test";
import { Meter } from "../../src/modules/entitlements/meter";
import type { MeterRequest } from "../../src/modules/entitlements/usage";
import { planTrackIdentity } from "../../src/modules/events/identity";
import { upsertCompany } from "../../src/modules/customers/identify";
import { apiError } from "../../src/lib/errors";
import type { Principal } from "../../src/auth/kinds";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";

const t = await createTestApp();
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId);
const sql = t.db.sql;

await sql.unsafe(`
  create function test_fail_event() returns trigger language plpgsql as $$
  begin
    if new.name = 'atomic-boom' then raise exception 'test: the event write failed'; end if;
    return new;
  end $$;
  create trigger test_fail_event before insert on events for each row execute function test_fail_event();
`);

/** What is stored about the companies and users named `prefix…` by the integrator. */
async function storedAbout(prefix: string) {
  const companies = await sql`select id from companies where team_id = ${team.teamId} and external_id like ${prefix + "%"}`;
  const users = await sql`select id from users where team_id = ${team.teamId} and external_id like ${prefix + "%"}`;
  const links =
    await sql`select m.company_id from company_memberships m join users u on u.id = m.user_id where u.team_id = ${team.teamId} and u.external_id like ${prefix + "%"}`;
  return { companies: companies.length, users: users.length, links: links.length };
}

const trackNew = (name: string, who: string) =>
  t.call("POST", "/events", {
    token: team.keys.legacy,
    body: { event_type: "track", name, company: { id: `${who}-co`, traits: { seats: 3 } }, user: { id: `${who}-user`, email: `${who}@corp.test` } },
  });

describe("POST /events: the event and who it is about commit together", () => {
  test("an event write that fails after a new company and user were upserted leaves neither, and its neighbours succeed", async () => {
    const [failed, ...others] = await Promise.all([
      trackNew("atomic-boom", "boom-a"),
      ...Array.from({ length: 5 }, (_, i) => trackNew("page_viewed", `fine-a${i}`)),
    ]);
    expect(failed!.status).toBe(500);
    expect(await storedAbout("boom-a")).toEqual({ companies: 0, users: 0, links: 0 });
    expect(others.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await storedAbout("fine-a")).toEqual({ companies: 5, users: 5, links: 5 });
    const [events] = await sql`select count(*)::int as n from events where team_id = ${team.teamId} and name = 'page_viewed' and user_id is not null`;
    expect(events!.n).toBe(5);
  });
});

describe("the meter: identity writes inside one batch", () => {
  const principal: Principal = {
    kind: "legacy",
    credentialId: "key_atomic",
    teamId: team.teamId,
    environment: "development",
    permissions: null,
    roles: [],
  };
  const base = {
    teamId: team.teamId,
    environment: "development" as const,
    source: "events" as const,
    quantity: 1n,
    traits: {},
    idempotencyKey: null,
  };

  async function trackRequest(name: string, who: string): Promise<MeterRequest> {
    const plan = await planTrackIdentity(t.deps, principal, { company: { id: `${who}-co` }, user: { id: `${who}-user` } });
    return {
      ...base,
      name,
      companyId: plan.companyId,
      userId: plan.userId,
      featureId: null,
      enforcement: { kind: "record" },
      identity: plan.write && { when: "before", write: plan.write },
    };
  }

  test("the failing request of a batch fails alone, its identity undone; the batch's others commit theirs", async () => {
    const requests = [
      await trackRequest("page_viewed", "batch-b0"),
      await trackRequest("atomic-boom", "boom-b"),
      await trackRequest("page_viewed", "batch-b1"),
      await trackRequest("page_viewed", "batch-b2"),
    ];
    const committed: number[] = [];
    const meter = new Meter(sql, t.clock, () => committed.push(1), { maxBatch: 100, maxConcurrent: 1 });
    // Submitted in one turn of the event loop: one batch.
    const settled = await Promise.allSettled(requests.map((r) => meter.submit(r)));
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toContain("the event write failed");
    expect(await storedAbout("boom-b")).toEqual({ companies: 0, users: 0, links: 0 });
    expect(await storedAbout("batch-b")).toEqual({ companies: 3, users: 3, links: 3 });
    for (const s of settled.filter((s) => s.status === "fulfilled")) expect(s.value.userId).toStartWith("user_");
  });

  test("a write refused once the use is counted undoes the batch: that use is not counted, the others are", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "atomic-quota-co", catalog.planId);
    const quota = { kind: "quota" as const, periodStart: Date.UTC(2026, 0, 1), limit: 10n };
    const metered = {
      ...base,
      source: "consume" as const,
      name: "api-calls",
      companyId,
      userId: null,
      featureId: catalog.features.apiCalls,
      enforcement: quota,
    };
    const refusing = {
      when: "ifAccepted" as const,
      async write(tx: Parameters<typeof upsertCompany>[0]) {
        await upsertCompany(tx, principal, { id: "late-refused-co" });
        throw apiError("wrong_company", "This token is scoped to another company");
      },
    };
    const meter = new Meter(sql, t.clock, () => {}, { maxBatch: 100, maxConcurrent: 1 });
    const settled = await Promise.allSettled([meter.submit(metered), meter.submit({ ...metered, identity: refusing }), meter.submit(metered)]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ status: 403 });
    const [counter] =
      await sql`select used from usage_counters where company_id = ${companyId} and feature_id = ${catalog.features.apiCalls} and period_start = ${new Date(quota.periodStart)}`;
    expect(counter!.used).toBe(2n);
    expect((await sql`select id from companies where external_id = 'late-refused-co'`).length).toBe(0);
  });
});
