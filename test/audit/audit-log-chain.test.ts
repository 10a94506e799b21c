/** GET /audit-log shows each entry's place in the tamper-evident chain, the same chain `audit verify` checks. */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { verifyAuditChain } from "../../src/modules/audit/verify";

const t = await createTestApp();
const team = await createTeamFixture(t);

test("entries carry chainSeq, prevHash and hash: newest first, each linked to the one before it, the newest being the verified head", async () => {
  for (let i = 0; i < 2; i++) await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: `co-${i}` } } });
  const res = await t.call("GET", "/audit-log?limit=200", { cookie: `be_session=${team.dashboardAdmin}` });
  expect(res.status).toBe(200);
  const entries = res.body.data as { chainSeq: number; prevHash: string; hash: string }[];
  expect(entries.length).toBeGreaterThanOrEqual(7); // the fixture's keys, then the two tokens
  expect(entries.map((e) => e.chainSeq)).toEqual(entries.map((_, i) => entries.length - i));
  for (let i = 0; i + 1 < entries.length; i++) expect(entries[i]!.prevHash).toBe(entries[i + 1]!.hash);
  expect(entries.at(-1)!.prevHash).toBe("0".repeat(64));
  const verdict = await verifyAuditChain(t.db.sql, { teamId: team.teamId, environment: "development" });
  expect(verdict).toEqual({ ok: true, entries: entries.length, head: { chainSeq: entries[0]!.chainSeq, hash: entries[0]!.hash } });
});
