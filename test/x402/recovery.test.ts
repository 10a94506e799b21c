/**
 * A settlement whose outcome the service did not learn (anvil stops mining, so the settle job runs past its
 * deadline): the claim stays, the payment is `settlement_pending`, and after the claim's lease (twice the chain job
 * deadline) the same request's retry completes it from the chain: the transaction that landed is granted, one that
 * never landed is sent again, an authorization that expired meanwhile is failed. Never settled or granted twice.
 */
import { describe, expect, test } from "bun:test";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { PACK_CREDITS, PACK_PRICE, post, termsOf, url, x402Service } from "../helpers/x402";

const JOB_TIMEOUT_MS = 1500;
const { bed, t, fetchService, main } = await x402Service({ CHAIN_JOB_TIMEOUT_MS: String(JOB_TIMEOUT_MS) });
const sql = t.db.sql;
const offered = termsOf(await fetchService(url("/usage/consume"), post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens" })))!
  .accepts[0]!;
const client = bed.anvil.client;

/** A paid request whose settlement is left in the mempool: answered settlement_pending. */
async function lostSettlement(idempotencyKey: string) {
  const payload = await bed.authorize({ to: bed.payee, value: String(PACK_PRICE) });
  const header = encodePaymentSignatureHeader({ x402Version: 2, accepted: offered, payload });
  const send = () =>
    fetchService(
      url("/usage/consume"),
      post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens", idempotencyKey }, { "payment-signature": header }),
    );
  await client.setAutomine(false);
  const first = await send();
  expect(first.status).toBe(402);
  expect(termsOf(first)?.error).toBe("settlement_pending");
  const [row] = await sql`select status from x402_payments where nonce = ${payload.authorization.nonce.toLowerCase()}`;
  expect(row?.status).toBe("claimed");
  return { send, payload };
}

const pendingHashes = async () => {
  const content = (await client.request({ method: "txpool_content" } as never)) as { pending: Record<string, Record<string, { hash: string }>> };
  return Object.values(content.pending).flatMap((byNonce) => Object.values(byNonce).map((tx) => tx.hash));
};

describe("a settlement whose answer was lost", () => {
  test("it landed: the retry within the lease is pending; after it, the landed transaction is granted, once", async () => {
    const before = await bed.balances();
    const credits = await main.credits();
    const { send } = await lostSettlement("lost-landed");
    const hashes = await pendingHashes();
    expect(hashes).toHaveLength(1);
    await client.mine({ blocks: 1 });
    await client.setAutomine(true);
    expect(await bed.balances()).toEqual({ ...before, payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE });
    expect(await main.credits()).toBe(credits); // landed, not granted yet
    expect(termsOf(await send())?.error).toBe("settlement_pending"); // the claim's lease still holds
    t.clock.advance(2 * JOB_TIMEOUT_MS + 1);
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(decodePaymentResponseHeader(retry.headers.get("payment-response")!).transaction).toBe(hashes[0]!);
    expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.headers.get("payment-response")).toBe(retry.headers.get("payment-response"));
    expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
    expect(await bed.balances()).toEqual({ ...before, payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE });
  });

  test("it never landed: the retry after the lease sends it again", async () => {
    const before = await bed.balances();
    const credits = await main.credits();
    const { send } = await lostSettlement("lost-dropped");
    await client.request({ method: "anvil_dropAllTransactions" } as never);
    await client.setAutomine(true);
    expect(await bed.balances()).toEqual(before);
    t.clock.advance(2 * JOB_TIMEOUT_MS + 1);
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(await bed.balances()).toEqual({ ...before, payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE });
    expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
  });

  test("it never landed and expired meanwhile: failed with the reason, nothing moves, the answer stays", async () => {
    const before = await bed.balances();
    const credits = await main.credits();
    const { send, payload } = await lostSettlement("lost-expired");
    await client.request({ method: "anvil_dropAllTransactions" } as never);
    await client.setAutomine(true);
    t.clock.advance(400_000); // past the authorization's validBefore (chain time + 300 s when signed)
    for (let i = 0; i < 2; i++) {
      const retry = await send();
      expect(retry.status).toBe(402);
      expect(termsOf(retry)?.error).toBe("invalid_exact_evm_payload_authorization_valid_before");
    }
    const [row] = await sql`select status, failure_reason from x402_payments where nonce = ${payload.authorization.nonce.toLowerCase()}`;
    expect(row).toEqual({ status: "failed", failure_reason: "invalid_exact_evm_payload_authorization_valid_before" });
    const failed = await t.call("GET", "/dashboard/x402-payments?status=failed", { token: main.team.dashboardAdmin });
    expect(
      failed.body.data.map((p: { payer: string; status: string; failureReason: string; txHash: string | null }) => [
        p.status,
        p.failureReason,
        p.txHash,
      ]),
    ).toEqual([["failed", "invalid_exact_evm_payload_authorization_valid_before", null]]);
    expect(await bed.balances()).toEqual(before);
    expect(await main.credits()).toBe(credits);
    expect(await bed.nonceUsed(payload.authorization.from as `0x${string}`, payload.authorization.nonce as `0x${string}`)).toBe(false);
  });
});
