/**
 * A claim whose settlement's outcome was lost belongs to the request that made it: after the lease, what is granted
 * is the claim's (its company, its pack's credits), whoever asks and whatever is offered now. Another company's
 * embed token with the same body and payment is a replay. A retry is matched against the claim, not today's offer
 * (an archived or repriced pack does not strand it), and while pending it is answered without terms to pay again.
 * x402.reconcile completes the claims nobody retries: the landed Transfer granted, an expired unspent authorization
 * failed, one still valid left for the retry.
 */
import { describe, expect, test } from "bun:test";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { Hex } from "viem";
import { enqueueJob } from "../../src/jobs/enqueue";
import { archiveCreditPack, createCreditPack } from "../../src/modules/catalog/credit-packs/edit";
import { OPERATOR } from "../../src/modules/teams/roles";
import { createCompanyOnPlan } from "../helpers/catalog";
import { drainJobs } from "../helpers/jobs";
import { PACK_CREDITS, PACK_PRICE, post, termsOf, url, x402Service } from "../helpers/x402";

const JOB_TIMEOUT_MS = 1500;
const LEASE_MS = 2 * JOB_TIMEOUT_MS;
const { bed, t, fetchService, payingFetch, main } = await x402Service({ CHAIN_JOB_TIMEOUT_MS: String(JOB_TIMEOUT_MS) });
const sql = t.db.sql;
const client = bed.anvil.client;
const offered = termsOf(await fetchService(url("/usage/consume"), post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens" })))!
  .accepts[0]!;
const creditsOf = async (companyId: string) =>
  BigInt((await sql`select coalesce(sum(remaining), 0)::text as n from credit_grants where company_id = ${companyId}`)[0]!.n);
const rowOf = async (nonce: string) => ({
  ...(await sql`select status, failure_reason, company_id, credits::text, tx_hash from x402_payments where nonce = ${nonce.toLowerCase()}`)[0],
});
const embedToken = async (company: string) =>
  (await t.call("POST", "/api-keys/tokens", { token: main.team.keys.secret, body: { company: { id: company } } })).body.token as string;
const reconcile = async () => {
  await enqueueJob(sql, "x402.reconcile", {});
  return (await drainJobs(t)).completed.map((j) => j.task);
};

/** A paid request whose settlement is left in the mempool (answered settlement_pending); `land` mines it, else it is dropped. */
async function lostSettlement(send: (header: string) => Promise<Response>, land: boolean) {
  const payload = await bed.authorize({ to: bed.payee, value: String(PACK_PRICE) });
  const header = encodePaymentSignatureHeader({ x402Version: 2, accepted: offered, payload });
  await client.setAutomine(false);
  const first = await send(header);
  expect(first.status).toBe(402);
  expect(termsOf(first)).toMatchObject({ error: "settlement_pending", accepts: [] });
  if (land) await client.mine({ blocks: 1 });
  else await client.request({ method: "anvil_dropAllTransactions" } as never);
  await client.setAutomine(true);
  return { header, nonce: payload.authorization.nonce, from: payload.authorization.from as Hex };
}

describe("after the lease", () => {
  test("another company's embed token with the same body and payment is a replay; the claim's company gets the credits", async () => {
    const otherId = await createCompanyOnPlan(t, main.team.keys.legacy, main.team.teamId, "other-co", main.catalog.planId);
    const [mine, theirs] = [await embedToken("agent-co"), await embedToken("other-co")];
    const body = { event_type: "track", name: "ai-tokens" };
    const send = (token: string) => (header: string) => fetchService(url("/events"), post(token, body, { "payment-signature": header }));
    const credits = await main.credits();
    const { header, nonce } = await lostSettlement(send(mine), true);
    t.clock.advance(LEASE_MS + 1);
    const stolen = await send(theirs)(header);
    expect(stolen.status).toBe(402);
    expect(termsOf(stolen)?.error).toBe("invalid_exact_evm_nonce_already_used");
    expect(await creditsOf(otherId)).toBe(0n);
    expect(await rowOf(nonce)).toMatchObject({ status: "claimed", company_id: main.companyId });
    const retry = await send(mine)(header);
    expect(retry.status).toBe(200);
    expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
    expect(await creditsOf(otherId)).toBe(0n);
  });

  test("the pack was archived and a new one offered: the retry completes the claim with the claimed pack's credits", async () => {
    const send = (header: string) =>
      fetchService(
        url("/usage/consume"),
        post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens", idempotencyKey: "repriced" }, { "payment-signature": header }),
      );
    const credits = await main.credits();
    const before = await bed.balances();
    const { header, nonce } = await lostSettlement(send, true);
    const deps = { sql, chains: t.config.chains, now: () => new Date(t.clock.now()) };
    await archiveCreditPack(deps, main.tenant, OPERATOR, main.pack.id);
    const bigger = await createCreditPack(deps, main.tenant, OPERATOR, {
      key: "bigger",
      name: "Bigger",
      credits: "100",
      prices: [{ network: "anvil", token: "USDC", amount: String(2n * PACK_PRICE) }],
      offerOnPaymentRequired: true,
    });
    try {
      expect(termsOf(await send(header))).toMatchObject({ error: "settlement_pending", accepts: [] }); // within the lease
      t.clock.advance(LEASE_MS + 1);
      const retry = await send(header);
      expect(retry.status).toBe(200);
      expect(decodePaymentResponseHeader(retry.headers.get("payment-response")!).success).toBe(true);
      expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
      expect(await rowOf(nonce)).toMatchObject({ status: "settled", credits: String(PACK_CREDITS) });
      expect(await bed.balances()).toEqual({ ...before, payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE });
    } finally {
      await archiveCreditPack(deps, main.tenant, OPERATOR, bigger.id);
      await sql`update credit_packs set archived_at = null where id = ${main.pack.id}`;
    }
  });

  test("a pending payment is answered without terms: the paying client does not pay a second time", async () => {
    const before = await bed.balances();
    const send = (header: string) =>
      fetchService(
        url("/usage/consume"),
        post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens" }, { "payment-signature": header }),
      );
    const { header } = await lostSettlement(send, false);
    const pending = await send(header);
    expect(pending.status).toBe(402);
    expect(termsOf(pending)).toMatchObject({ error: "settlement_pending", accepts: [] });
    // @x402/fetch given that 402 finds no requirement to pay, so it signs nothing and gives up.
    const paying = payingFetch()(
      url("/usage/consume"),
      post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens" }, { "payment-signature": header }),
    );
    await expect(paying).rejects.toThrow(/payment requirements/);
    expect(await bed.balances()).toEqual(before);
    expect((await sql`select count(*)::int as n from x402_payments where status = 'claimed' and team_id = ${main.team.teamId}`)[0]!.n).toBe(1);
    // Left for the next test's job to fail once expired.
  });
});

describe("x402.reconcile", () => {
  test("a claim nobody retries: the job waits out the lease, grants the landed Transfer to the claim's company, once", async () => {
    // The body's idempotencyKey: the refused attempt's stored refusal must not answer the late retry.
    const body = { company: "agent-co", feature: "ai-tokens", idempotencyKey: "nobody-retries" };
    const use = (b: object) => fetchService(url("/usage/consume"), post(main.team.keys.secret, b));
    for (let i = 0; (await use({ company: "agent-co", feature: "ai-tokens" })).status === 200; i++) expect(i).toBeLessThan(50); // spend what earlier tests bought
    expect((await use(body)).status).toBe(402);
    const credits = await main.credits();
    const send = (header: string) => fetchService(url("/usage/consume"), post(main.team.keys.secret, body, { "payment-signature": header }));
    const { nonce, header } = await lostSettlement(send, true);
    expect(await reconcile()).toContain("x402.reconcile");
    expect(await rowOf(nonce)).toMatchObject({ status: "claimed" }); // its request's lease still holds
    t.clock.advance(LEASE_MS + 1);
    await reconcile();
    const row = await rowOf(nonce);
    expect(row).toMatchObject({ status: "settled", company_id: main.companyId, credits: String(PACK_CREDITS) });
    expect(await main.credits()).toBe(credits + PACK_CREDITS);
    await reconcile();
    expect(await main.credits()).toBe(credits + PACK_CREDITS);
    // The client's late retry is answered from the record, and its use is decided again (not the stored refusal).
    const retry = await send(header);
    expect(retry.status).toBe(200);
    expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
    expect(decodePaymentResponseHeader(retry.headers.get("payment-response")!).transaction).toBe(row.tx_hash);
  });

  test("never landed: left while the authorization is valid, failed once it expired; nothing moves", async () => {
    const credits = await main.credits();
    const before = await bed.balances();
    const send = (header: string) =>
      fetchService(
        url("/usage/consume"),
        post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens" }, { "payment-signature": header }),
      );
    const { nonce, from } = await lostSettlement(send, false);
    t.clock.advance(LEASE_MS + 1);
    await reconcile();
    expect(await rowOf(nonce)).toMatchObject({ status: "claimed" });
    t.clock.advance(400_000); // past validBefore (chain time + 300 s when signed)
    await reconcile();
    expect(await rowOf(nonce)).toMatchObject({ status: "failed", failure_reason: "invalid_exact_evm_payload_authorization_valid_before" });
    expect(await main.credits()).toBe(credits);
    expect(await bed.balances()).toEqual(before);
    expect(await bed.nonceUsed(from, nonce as Hex)).toBe(false);
  });
});
