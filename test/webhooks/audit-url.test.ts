/** An endpoint URL's path and query (often a bearer token) never reach the audit log, which roles without webhooks:read may read. */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";

const t = await createTestApp();

test("create, update and delete audit the URL's origin only", async () => {
  const team = await createTeamFixture(t);
  const admin = { token: team.dashboardAdmin };
  const base = "/dashboard/webhooks/endpoints";
  const created = await t.call("POST", base, { ...admin, body: { url: "https://hooks.example.com/services/T0/B0/s3cr3tPathToken?key=q5ecr3t" } });
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  const updated = await t.call("PATCH", `${base}/${id}`, { ...admin, body: { url: "https://hooks.example.com/services/T0/B1/an0therT0ken" } });
  expect(updated.status).toBe(200);
  expect((await t.call("DELETE", `${base}/${id}`, admin)).status).toBe(200);
  const entries = await t.db.sql`select action, details from audit_log where resource_id = ${id} order by chain_seq`;
  expect(entries.map((e) => e.action)).toEqual(["webhook_endpoint.create", "webhook_endpoint.update", "webhook_endpoint.delete"]);
  for (const e of entries) expect(e.details.url).toBe("https://hooks.example.com/…");
  const log = JSON.stringify(entries);
  for (const secret of ["s3cr3tPathToken", "q5ecr3t", "an0therT0ken"]) expect(log).not.toContain(secret);
});
