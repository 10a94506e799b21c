/**
 * `agent-dispatch …` and `agent-topup list` from the operator CLI (subprocesses, as an operator runs them): what
 * the CLI lists is what the dashboard routes list, disable and delete go through the same service and are audited as
 * the operator, an id of another team is a 404 (exit 1) that changes nothing, and a bad limit exits 2 naming it.
 */
import { expect, test } from "bun:test";
import { configureTopup } from "../../src/modules/agents/configure";
import { createTestApp, TEST_SECRETS } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";

const SPAWNS_TIMEOUT = 120_000;
const t = await createTestApp();
const alpha = await createTeamFixture(t, "Alpha");
const beta = await createTeamFixture(t, "Beta");

function cli(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: t.db.url, ...TEST_SECRETS } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}
function ok(...args: string[]) {
  const r = cli(...args);
  expect(r).toMatchObject({ code: 0, err: "" });
  return JSON.parse(r.out);
}

const configure = (teamId: string, wallet: string) =>
  configureTopup(
    { sql: t.db.sql, chains: t.config.chains },
    { tenant: { teamId, environment: "development" }, actor: { kind: "test", id: "test", requestId: null }, now: new Date(t.clock.now()) },
    { minBalanceThreshold: "10", topupAmount: "25", targetWallet: wallet, chainId: 11155111 },
  );

test(
  "list as the dashboard does, disable and delete audited as the operator; another team's id is a 404; a bad limit exits 2",
  async () => {
    const one = await configure(alpha.teamId, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    const two = await configure(alpha.teamId, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
    const theirs = await configure(beta.teamId, "0x90F79bf6EB2c4f870365E785982E1f101E93b906");

    const listed = ok("agent-dispatch", "list", "--team", alpha.teamId);
    const dashboard = await t.call("GET", "/dashboard/agent-dispatch", { token: alpha.dashboardAdmin });
    expect(listed).toEqual(dashboard.body);
    expect(listed.data.map((c: { id: string }) => c.id)).toEqual([two.id, one.id]);
    const paged = ok("agent-dispatch", "list", "--team", alpha.teamId, "--limit", "1");
    expect(paged.count).toBe(1);
    // A cursor of the CLI pages on through the dashboard route.
    const next = await t.call("GET", `/dashboard/agent-dispatch?limit=1&cursor=${encodeURIComponent(paged.nextCursor)}`, {
      token: alpha.dashboardAdmin,
    });
    expect(next.body.data.map((c: { id: string }) => c.id)).toEqual([one.id]);

    expect(ok("agent-dispatch", "disable", one.id, "--team", alpha.teamId).data).toMatchObject({ id: one.id, enabled: false, chainId: 11155111 });
    const refused = cli("agent-dispatch", "delete", theirs.id, "--team", alpha.teamId);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.err)).toEqual({ error: `No agent dispatch configuration ${theirs.id}` });
    expect(ok("agent-dispatch", "list", "--team", beta.teamId).data.map((c: { id: string }) => c.id)).toEqual([theirs.id]);
    expect(ok("agent-dispatch", "delete", two.id, "--team", alpha.teamId).data.id).toBe(two.id);
    expect(ok("agent-dispatch", "list", "--team", alpha.teamId).data.map((c: { id: string; enabled: boolean }) => [c.id, c.enabled])).toEqual([
      [one.id, false],
    ]);

    expect(ok("agent-topup", "list", "--team", alpha.teamId, "--config", one.id)).toEqual({ data: [], count: 0, nextCursor: null });
    const bad = cli("agent-dispatch", "list", "--team", alpha.teamId, "--limit", "500");
    expect(bad.code).toBe(2);
    expect(Object.keys(JSON.parse(bad.err).details)).toEqual(["query.limit"]);

    const audit = await t.db
      .sql`select action, actor_kind from audit_log where team_id = ${alpha.teamId} and action like 'agent_dispatch.%' order by seq`;
    expect(audit.map((r) => [r.action, r.actor_kind])).toEqual([
      ["agent_dispatch.configure", "test"],
      ["agent_dispatch.configure", "test"],
      ["agent_dispatch.disable", "operator"],
      ["agent_dispatch.delete", "operator"],
    ]);
  },
  SPAWNS_TIMEOUT,
);
