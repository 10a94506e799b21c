/**
 * POST /proofs/zktls and GET /proofs/zktls: a proof is verified before anything is stored, stored once across
 * the whole service, listed with the spec's pagination, and never to another team or environment. Every
 * response is held to the served OpenAPI document (test/helpers/contract.ts, through t.call).
 */
import { describe, expect, test } from "bun:test";
import { submitProof } from "../../src/modules/proofs/submit";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { ATTESTOR_A, ATTESTOR_B, signedProof, STRANGER, TEST_ATTESTORS } from "../helpers/zktls";

const t = await createTestApp({ ZKTLS_ATTESTORS: TEST_ATTESTORS });
const alpha = await createTeamFixture(t, "Alpha");
const beta = await createTeamFixture(t, "Beta");
const SK = alpha.keys.secret;

const stored = async () => Number((await t.db.sql`select count(*)::int as n from zktls_proofs`)[0]!.n);
const submit = (body: unknown, token = SK) => t.call("POST", "/proofs/zktls", { token, body });

// Two companies of alpha: one named by the integrator's id, one we refer to by our comp_ id.
for (const id of ["acme", "globex"]) {
  const res = await t.call("POST", "/events", { token: alpha.keys.legacy, body: { event_type: "identify", company: { id, name: id } } });
  expect(res.status).toBe(200);
}
const globexId = (await t.db.sql`select id from companies where team_id = ${alpha.teamId} and external_id = 'globex'`)[0]!.id as string;

describe("POST /proofs/zktls", () => {
  test("a proof signed by a configured attestor is stored and answered 201 with the record", async () => {
    const proof = await signedProof(t.clock.now(), [ATTESTOR_A, ATTESTOR_B]);
    const before = await stored();
    const res = await submit({ company: { id: "acme" }, proof });
    expect(res.status).toBe(201);
    expect(res.body.proof).toMatchObject({
      id: expect.stringMatching(/^zkp_/),
      companyId: expect.stringMatching(/^comp_/),
      provider: "http",
      identifier: proof.identifier.toLowerCase(),
      owner: proof.claimData.owner.toLowerCase(),
      timestamp: new Date(proof.claimData.timestampS * 1000).toISOString(),
      epoch: 1,
      parameters: proof.claimData.parameters,
      context: proof.claimData.context,
      signers: [ATTESTOR_A.address, ATTESTOR_B.address],
      createdAt: new Date(t.clock.now()).toISOString(),
    });
    expect(await stored()).toBe(before + 1);
  });

  test("without a company, the proof is the tenant's alone (companyId null)", async () => {
    const res = await submit({ proof: await signedProof(t.clock.now()) });
    expect(res.status).toBe(201);
    expect(res.body.proof.companyId).toBeNull();
  });

  test("every refusal names its reason and stores nothing", async () => {
    const now = t.clock.now();
    const good = await signedProof(now);
    const cases: [string, unknown][] = [
      ["identifier_mismatch", { ...good, claimData: { ...good.claimData, parameters: '{"url":"https://elsewhere"}' } }],
      ["stale", await signedProof(now, [ATTESTOR_A], { timestampS: Math.floor(now / 1000) - 601 })],
      ["unknown_attestor", await signedProof(now, [STRANGER])],
      ["too_few_signatures", await signedProof(now, [])],
      ["bad_signature", { ...good, signatures: [`0x${"00".repeat(65)}`] }],
    ];
    const before = await stored();
    for (const [reason, proof] of cases) {
      const res = await submit({ company: { id: "acme" }, proof });
      expect({ reason, status: res.status }).toEqual({ reason, status: 400 });
      expect(res.body).toMatchObject({ error: expect.any(String), details: { reason, "body.proof": expect.any(String) } });
    }
    const malformed = await submit({ proof: { identifier: "0x12" } });
    expect(malformed.status).toBe(400);
    const unknownCompany = await submit({ company: { id: "nobody" }, proof: await signedProof(now) });
    expect(unknownCompany.status).toBe(404);
    expect(await stored()).toBe(before);
  });

  test("with no attestor configured every proof is refused (no_attestors)", async () => {
    const tenant = { teamId: alpha.teamId, environment: "development" as const };
    const policy = { attestors: [], minSignatures: 1, maxAgeSeconds: 600 };
    const attempt = submitProof({ db: t.db.sql, tenant, policy, now: new Date(t.clock.now()) }, { proof: await signedProof(t.clock.now()) });
    await expect(attempt).rejects.toMatchObject({ code: "proof_refused", details: { reason: "no_attestors" } });
  });

  test("a replay is 409 proof_replayed, from the same team or any other, and stores nothing", async () => {
    const proof = await signedProof(t.clock.now());
    expect((await submit({ proof })).status).toBe(201);
    const before = await stored();
    for (const token of [SK, alpha.keys.secretLive, beta.keys.secret]) {
      const res = await submit({ proof }, token);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: "proof_replayed" });
    }
    expect(await stored()).toBe(before);
  });
});

// Five proofs of a fresh team: three of initech (two by provider "shop"), two without a company.
const gamma = await createTeamFixture(t, "Gamma");
await t.call("POST", "/events", { token: gamma.keys.legacy, body: { event_type: "identify", company: { id: "initech", name: "Initech" } } });
const ids: string[] = [];
for (const [company, provider] of [
  ["initech", "http"],
  ["initech", "shop"],
  [null, "http"],
  ["initech", "shop"],
  [null, "shop"],
] as const) {
  const proof = await signedProof(t.clock.now(), [ATTESTOR_A], { provider });
  const res = await submit(company ? { company: { id: company }, proof } : { proof }, gamma.keys.secret);
  expect(res.status).toBe(201);
  ids.unshift(res.body.proof.id);
}
const list = async (query: string, token = gamma.keys.secret) => {
  const res = await t.call("GET", `/proofs/zktls${query}`, { token });
  expect(res.status).toBe(200);
  return res.body as { data: { id: string; provider: string; companyId: string | null }[]; count: number; nextCursor: string | null };
};

describe("GET /proofs/zktls", () => {
  test("newest first, across pages with a cursor", async () => {
    const first = await list("?limit=2");
    expect(first.count).toBe(2);
    const second = await list(`?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
    const third = await list(`?limit=2&cursor=${encodeURIComponent(second.nextCursor!)}`);
    expect(third.nextCursor).toBeNull();
    expect([...first.data, ...second.data, ...third.data].map((p) => p.id)).toEqual(ids);
    expect((await list("")).data.map((p) => p.id)).toEqual(ids);
  });

  test("companyId (ours or the integrator's) and providerId filter, and page together", async () => {
    const initechId = (await t.db.sql`select id from companies where team_id = ${gamma.teamId} and external_id = 'initech'`)[0]!.id;
    expect((await list("?companyId=initech")).data.map((p) => p.id)).toEqual([ids[1]!, ids[3]!, ids[4]!]);
    expect((await list(`?companyId=${initechId}`)).count).toBe(3);
    expect((await list("?providerId=shop")).data.map((p) => p.id)).toEqual([ids[0]!, ids[1]!, ids[3]!]);
    const page = await list("?companyId=initech&providerId=shop&limit=1");
    expect(page.data.map((p) => p.id)).toEqual([ids[1]!]);
    const next = await list(`?companyId=initech&providerId=shop&limit=1&cursor=${encodeURIComponent(page.nextCursor!)}`);
    expect(next.data.map((p) => p.id)).toEqual([ids[3]!]);
    expect(next.nextCursor).toBeNull();
    expect((await list("?companyId=nobody")).count).toBe(0);
    // A cursor of one filter is not a cursor of another.
    const other = await t.call("GET", `/proofs/zktls?providerId=http&limit=1&cursor=${encodeURIComponent(page.nextCursor!)}`, {
      token: gamma.keys.secret,
    });
    expect(other.status).toBe(400);
  });

  test("another team, or the same team's other environment, sees none of them", async () => {
    for (const token of [beta.keys.secret, gamma.keys.secretLive]) {
      const seen = (await list("", token)).data.map((p) => p.id);
      for (const id of ids) expect(seen).not.toContain(id);
    }
    expect((await list(`?companyId=${globexId}`, gamma.keys.secret)).count).toBe(0);
  });

  test("limit is 1 to 200", async () => {
    expect((await t.call("GET", "/proofs/zktls?limit=201", { token: gamma.keys.secret })).status).toBe(400);
    expect((await t.call("GET", "/proofs/zktls?limit=0", { token: gamma.keys.secret })).status).toBe(400);
  });
});
