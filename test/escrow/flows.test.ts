/**
 * The escrow's life on anvil, end to end (docs/escrow.md#states): authorized -> captured after the window by the job;
 * -> captured early by a verified zkTLS proof naming the nonce; -> disputed by the payer (its wallet's signature, or
 * its company's embed token) -> refunded or captured by the operator's resolution. After every step the contract's
 * reservation, the balances and the row agree; each change sends its webhook in its transaction and operators' changes
 * are audited. Refusals (after the window, twice, not the payer, another company's or team's token, malformed) change
 * nothing on chain or in the table.
 */
import { describe, expect, test } from "bun:test";
import type { HDAccount } from "viem/accounts";
import { escrowApp } from "../helpers/escrow";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs } from "../helpers/jobs";
import { signedProof } from "../helpers/zktls";
import { canonicalJson } from "../../src/modules/proofs/compute";
import { enqueueJob } from "../../src/jobs/enqueue";

const e = await escrowApp();
const { bed, t, team, reserved, expectChainMatches, disputeBody } = e;
const AMOUNT = 5_000_000n;

// Every escrow event goes to one endpoint, so the outbox shows what each change sent.
const hook = await t.call("POST", "/dashboard/webhooks/endpoints", {
  token: team.dashboardAdmin,
  body: { url: "https://example.com/escrow", eventTypes: ["escrow.authorized", "escrow.captured", "escrow.disputed", "escrow.refunded"] },
});
expect(hook.status).toBe(201);
// Sorted: messages carry the service's clock, which the steps of one test share, so their order is not recorded.
const events = async (id: string) =>
  (await t.db.sql`select event_type, body from webhook_messages where team_id = ${team.teamId}`)
    .filter((m) => JSON.parse(m.body as string).data.id === id)
    .map((m) => m.event_type as string)
    .sort();

const embedToken = async (key: string, company: string) => {
  const res = await t.call("POST", "/api-keys/tokens", { token: key, body: { company: { id: company }, ttlSeconds: 900 } });
  expect(res.status).toBe(201);
  return res.body.token as string;
};
const dispute = (body: Record<string, unknown>, token?: string) => t.call("POST", "/public/escrow/dispute", { body, ...(token ? { token } : {}) });
const resolve = (id: string, outcome: string, token = team.dashboardAdmin) =>
  t.call("POST", `/escrow/reservations/${id}/resolve`, { token, body: { outcome } });

/** `act` changes neither balances, the reservation on chain nor its row. */
async function unchanged(nonce: string, act: () => Promise<void>) {
  const snapshot = async () => {
    const { status, pending_action, dispute_reason, updated_at } = (await e.row(nonce)) ?? {};
    return { balances: await bed.balances(), chain: await bed.reservation(nonce), row: { status, pending_action, dispute_reason, updated_at } };
  };
  const before = await snapshot();
  await act();
  expect(await snapshot()).toEqual(before);
}

describe("capture after the window", () => {
  test("the job captures only once the window has ended, on both clocks; the payee is paid once", async () => {
    const r = await reserved({ windowEnd: (await bed.now()) + 120 });
    // Before the window's end: nothing.
    await unchanged(r.requestNonce, async () => {
      await drainJobsWithCapture();
    });
    expect((await expectChainMatches(r.requestNonce)).chain.status).toBe("authorized");
    const before = await bed.balances();
    await e.elapse(121);
    const ran = await drainJobsWithCapture();
    expect(ran).toContain("escrow.capture_due");
    const { db } = await expectChainMatches(r.requestNonce);
    expect(db.status).toBe("captured");
    expect(db.capture_tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(db.captured_early).toBe(false);
    expect(await bed.balances()).toEqual({ payer: before.payer, payee: before.payee + AMOUNT, escrow: before.escrow - AMOUNT });
    // Again: nothing left to capture, nothing moves.
    await unchanged(r.requestNonce, async () => {
      await drainJobsWithCapture();
    });
    expect(await events(r.id)).toEqual(["escrow.authorized", "escrow.captured"]);
  });
});

/** Queues the capture schedule's job (as its tick would) and runs the queue; the tasks that ran. */
async function drainJobsWithCapture(): Promise<string[]> {
  await enqueueJob(t.db.sql, "escrow.capture_due", {});
  return (await drainJobs(t)).completed.map((j) => j.task);
}

describe("early capture on a proof of delivery", () => {
  test("a verified proof whose context names the nonce captures within the window; one naming another tenant's does not", async () => {
    const r = await reserved({ deliveryProvider: "http" });
    const before = await bed.balances();
    const proof = await signedProof(t.clock.now(), undefined, { context: canonicalJson({ requestNonce: r.requestNonce, companyId: "acme" }) });
    // Another team submits a proof naming this nonce: its job finds no reservation of its own.
    const other = await createTeamFixture(t, "Proof stranger");
    const strangerProof = await signedProof(t.clock.now(), undefined, { context: canonicalJson({ requestNonce: r.requestNonce, x: 1 }) });
    expect((await t.call("POST", "/proofs/zktls", { token: other.keys.secret, body: { proof: strangerProof } })).status).toBe(201);
    await unchanged(r.requestNonce, async () => {
      await drainJobs(t);
    });
    const submitted = await t.call("POST", "/proofs/zktls", { token: team.keys.secret, body: { company: { id: "acme" }, proof } });
    expect(submitted.status).toBe(201);
    const ran = (await drainJobs(t)).completed.map((j) => j.task);
    expect(ran).toContain("escrow.capture_on_proof");
    const { db } = await expectChainMatches(r.requestNonce);
    expect({ status: db.status, early: db.captured_early, proof: db.capture_proof_id }).toEqual({
      status: "captured",
      early: true,
      proof: submitted.body.proof.id,
    });
    expect(await bed.balances()).toEqual({ payer: before.payer, payee: before.payee + AMOUNT, escrow: before.escrow - AMOUNT });
    expect(await events(r.id)).toEqual(["escrow.authorized", "escrow.captured"]);
  });

  test("the proof's job is queued in the proof's transaction: a replayed proof queues nothing", async () => {
    const r = await reserved({ deliveryProvider: "http" });
    const proof = await signedProof(t.clock.now(), undefined, { context: canonicalJson({ requestNonce: r.requestNonce }) });
    const body = { company: { id: "acme" }, proof };
    expect((await t.call("POST", "/proofs/zktls", { token: team.keys.secret, body })).status).toBe(201);
    expect((await t.call("POST", "/proofs/zktls", { token: team.keys.secret, body })).status).toBe(409);
    const jobs = await t.db.sql`select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks k
      on k.id = j.task_id where k.identifier = 'escrow.capture_on_proof' and j.payload->>'requestNonce' = ${r.requestNonce}`;
    expect(jobs[0]!.n).toBe(1);
    await drainJobs(t);
    expect((await expectChainMatches(r.requestNonce)).db.status).toBe("captured");
  });
});

describe("disputes and their resolution", () => {
  test("the payer's signature disputes within the window; the operator refunds: the payer gets its money back", async () => {
    const r = await reserved();
    const reason = "The report was empty";
    const before = await bed.balances();
    const res = await dispute(await disputeBody(bed.payer, r.requestNonce, reason));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, receipt: { requestNonce: r.requestNonce, status: "disputed" } });
    // Public, so limited per client address: the window's headers, as on the rate-limited routes.
    expect(res.headers.get("ratelimit-limit")).toBe("500");
    const disputed = await expectChainMatches(r.requestNonce);
    expect({ status: disputed.db.status, reason: disputed.db.dispute_reason, via: disputed.db.disputed_via }).toEqual({
      status: "disputed",
      reason,
      via: "signature",
    });
    expect(await bed.balances()).toEqual(before);
    // A disputed reservation is not captured when its window ends.
    await e.elapse(3601);
    await unchanged(r.requestNonce, async () => {
      await drainJobsWithCapture();
    });
    const resolved = await resolve(r.id, "refunded");
    expect(resolved.status).toBe(200);
    expect(resolved.body.reservation.status).toBe("refunded");
    const { db } = await expectChainMatches(r.requestNonce);
    expect(db.refund_tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await bed.balances()).toEqual({ payer: before.payer + AMOUNT, payee: before.payee, escrow: before.escrow - AMOUNT });
    expect(await events(r.id)).toEqual(["escrow.authorized", "escrow.disputed", "escrow.refunded"]);
    const audit = await t.db.sql`select action, actor_kind, actor_id from audit_log where resource_id = ${r.id} order by seq`;
    expect(audit.map((a) => [a.action, a.actor_kind])).toEqual([
      ["escrow.dispute", "payer_wallet"],
      ["escrow.resolve", "dashboard"],
    ]);
    expect(audit[0]!.actor_id).toBe(bed.payer.address.toLowerCase());
    // The webhook carries the reservation as the API shows it.
    const refundedHook = (await t.db.sql`select body from webhook_messages where event_type = 'escrow.refunded' and team_id = ${team.teamId}`)
      .map((m) => JSON.parse(m.body as string))
      .find((m) => m.data.id === r.id);
    expect(refundedHook.data).toEqual(resolved.body.reservation);
    // Resolved once: a second resolution is refused and moves nothing.
    await unchanged(r.requestNonce, async () => {
      const again = await resolve(r.id, "captured");
      expect(again.status).toBe(409);
      expect(again.body.details).toMatchObject({ reason: "not_disputed", status: "refunded" });
    });
  });

  test("the company's embed token disputes; the operator captures: the payee is paid", async () => {
    const r = await reserved();
    const token = await embedToken(team.keys.secret, "acme");
    const res = await dispute({ requestNonce: r.requestNonce, failureReason: "Late delivery" }, token);
    expect(res.status).toBe(200);
    const d = await expectChainMatches(r.requestNonce);
    expect({ status: d.db.status, via: d.db.disputed_via }).toEqual({ status: "disputed", via: "embed_token" });
    const before = await bed.balances();
    const resolved = await resolve(r.id, "captured");
    expect(resolved.status).toBe(200);
    const { db } = await expectChainMatches(r.requestNonce);
    expect({ status: db.status, early: db.captured_early }).toEqual({ status: "captured", early: false });
    expect(await bed.balances()).toEqual({ payer: before.payer, payee: before.payee + AMOUNT, escrow: before.escrow - AMOUNT });
    expect(await events(r.id)).toEqual(["escrow.authorized", "escrow.captured", "escrow.disputed"]);
  });

  test("refusals change nothing: twice, after the window, not the payer, another company's or team's token", async () => {
    const r = await reserved({ windowEnd: (await bed.now()) + 300 });
    const reason = "Broken";
    const body = (signer: HDAccount) => disputeBody(signer, r.requestNonce, reason);
    await unchanged(r.requestNonce, async () => {
      // Someone else's wallet: the same answer as a nonce nobody reserved.
      const stranger = await dispute(await body(bed.otherPayer));
      expect(stranger.status).toBe(403);
      expect(stranger.body).toMatchObject({ error: expect.any(String), details: { reason: "not_payer" } });
      const unknown = await dispute({ ...(await body(bed.payer)), requestNonce: "never-reserved" });
      expect({ status: unknown.status, body: unknown.body }).toEqual({ status: stranger.status, body: stranger.body });
      // The payer's signature of another reason does not carry this one.
      const otherReason = await dispute({ ...(await body(bed.payer)), failureReason: "Something else" });
      expect(otherReason.status).toBe(403);
      // Another company's token of the same team, and another team's token of a company also called acme.
      await t.call("POST", "/events", { token: team.keys.legacy, body: { event_type: "identify", company: { id: "globex", name: "Globex" } } });
      const globex = await dispute({ requestNonce: r.requestNonce, failureReason: reason }, await embedToken(team.keys.secret, "globex"));
      expect(globex.status).toBe(403);
      const otherTeam = await createTeamFixture(t, "Other team");
      await t.call("POST", "/events", { token: otherTeam.keys.legacy, body: { event_type: "identify", company: { id: "acme", name: "Acme" } } });
      const theirs = await dispute({ requestNonce: r.requestNonce, failureReason: reason }, await embedToken(otherTeam.keys.secret, "acme"));
      expect(theirs.status).toBe(403);
      expect(theirs.body).toEqual(stranger.body);
      // A server key is not the payer's proof, and the answer tells nobody whether it is a valid key: the same 401.
      const server = await dispute({ requestNonce: r.requestNonce, failureReason: reason }, team.keys.secret);
      const forged = await dispute({ requestNonce: r.requestNonce, failureReason: reason }, `${team.keys.secret.slice(0, -4)}zzzz`);
      expect({ status: server.status, body: server.body }).toEqual({ status: 401, body: forged.body });
      // Malformed bodies: 400 first.
      for (const bad of [
        { requestNonce: r.requestNonce },
        { requestNonce: "has space", failureReason: reason, network: "anvil", signature: (await body(bed.payer)).signature },
        { ...(await body(bed.payer)), failureReason: "" },
        await disputeBody(bed.payer, r.requestNonce, "   "),
        { ...(await body(bed.payer)), payee: undefined },
        { ...(await body(bed.payer)), signature: "0x12" },
        { ...(await body(bed.payer)), network: undefined },
        { requestNonce: r.requestNonce, failureReason: reason },
        { ...(await body(bed.payer)), unexpected: 1 },
      ]) {
        const res = await dispute(bad);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: expect.any(String), details: expect.any(Object) });
      }
    });
    // The payer disputes once; a second time is refused.
    expect((await dispute(await body(bed.payer))).status).toBe(200);
    await unchanged(r.requestNonce, async () => {
      const twice = await dispute(await body(bed.payer));
      expect(twice.status).toBe(409);
      expect(twice.body.details).toMatchObject({ reason: "not_disputable", status: "disputed" });
    });
    // After the window: refused.
    const late = await reserved({ windowEnd: (await bed.now()) + 60 });
    await e.elapse(61);
    await unchanged(late.requestNonce, async () => {
      const res = await dispute(await disputeBody(bed.payer, late.requestNonce, reason));
      expect(res.status).toBe(409);
      expect(res.body.details).toMatchObject({ reason: "window_closed" });
    });
  });

  test("only a dashboard session with billing:write resolves; a key or a catalog session may not", async () => {
    const r = await reserved();
    const token = await embedToken(team.keys.secret, "acme");
    expect((await dispute({ requestNonce: r.requestNonce, failureReason: "x" }, token)).status).toBe(200);
    await unchanged(r.requestNonce, async () => {
      expect((await resolve(r.id, "refunded", team.keys.secret)).status).toBe(403);
      expect((await resolve(r.id, "refunded", team.dashboardCatalog)).status).toBe(403);
      expect((await resolve(r.id, "sideways")).status).toBe(400);
      const other = await createTeamFixture(t, "Resolver elsewhere");
      expect((await resolve(r.id, "refunded", other.dashboardAdmin)).status).toBe(404);
    });
  });
});
