/**
 * Which transaction paid a lost settlement: only the Transfer the authorization itself made (the log right after its
 * AuthorizationUsed), never another Transfer of the same payer, payee and value in the same transaction. A contract
 * lands two authorizations in one transaction (test/fixtures/Eip3009Batch.sol): the first pays the price, the second
 * (same nonce as a second payment the service claimed) moves nothing to the payee. One pack is granted, not two,
 * and one Transfer can back one payment only.
 */
import { expect, test } from "bun:test";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { encodeFunctionData, parseSignature, type Hex } from "viem";
import { foundry } from "viem/chains";
import { EIP3009_ABI } from "../../src/chains/evm/eip3009";
import type { Eip3009Authorization } from "../../src/chains/x402-types";
import { account, compileFixture, deploy } from "../helpers/chains/anvil";
import { PACK_CREDITS, PACK_PRICE, post, termsOf, url, x402Service } from "../helpers/x402";

const JOB_TIMEOUT_MS = 1500;
const { bed, t, fetchService, main } = await x402Service({ CHAIN_JOB_TIMEOUT_MS: String(JOB_TIMEOUT_MS) });
const client = bed.anvil.client;
const sql = t.db.sql;
const offered = termsOf(await fetchService(url("/usage/consume"), post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens" })))!
  .accepts[0]!;

/** The calldata of transferWithAuthorization for a signed authorization. */
const transferCall = (p: { authorization: Eip3009Authorization; signature: string }) => {
  const s = parseSignature(p.signature as Hex);
  const a = p.authorization;
  const args = [a.from, a.to, BigInt(a.value), BigInt(a.validAfter), BigInt(a.validBefore), a.nonce, Number(s.v), s.r, s.s] as const;
  return encodeFunctionData({ abi: EIP3009_ABI, functionName: "transferWithAuthorization", args: args as never });
};

test("two lost settlements, one transaction with one payment's Transfer: only that payment is granted; the other stays claimed", async () => {
  const batch = await deploy(bed.anvil, (await compileFixture("Eip3009Batch.sol")).Eip3009Batch!);
  const before = await bed.balances();
  const credits = await main.credits();
  const a1 = await bed.authorize({ to: bed.payee, value: String(PACK_PRICE) });
  const a2 = await bed.authorize({ to: bed.payee, value: String(PACK_PRICE) });
  const send = (p: typeof a1, key: string) =>
    fetchService(
      url("/usage/consume"),
      post(
        main.team.keys.secret,
        { company: "agent-co", feature: "ai-tokens", idempotencyKey: key },
        { "payment-signature": encodePaymentSignatureHeader({ x402Version: 2, accepted: offered, payload: p }) },
      ),
    );
  await client.setAutomine(false);
  expect(termsOf(await send(a1, "batch-1"))?.error).toBe("settlement_pending");
  expect(termsOf(await send(a2, "batch-2"))?.error).toBe("settlement_pending");
  await client.request({ method: "anvil_dropAllTransactions" } as never);
  await client.setAutomine(true);
  // The payer spends a2's nonce on a transfer of nothing to itself, in the transaction that lands a1.
  const b2 = await bed.authorize({ to: bed.payer.address, value: "0", nonce: a2.authorization.nonce });
  const hash = await client.writeContract({
    address: batch,
    abi: (await compileFixture("Eip3009Batch.sol")).Eip3009Batch!.abi,
    functionName: "run",
    args: [bed.usdc, [transferCall(a1), transferCall(b2)]],
    account: account(0),
    chain: foundry,
  });
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe("success");
  t.clock.advance(2 * JOB_TIMEOUT_MS + 1);

  const r1 = await send(a1, "batch-1");
  expect(r1.status).toBe(200);
  expect(decodePaymentResponseHeader(r1.headers.get("payment-response")!).transaction).toBe(hash);
  const r2 = await send(a2, "batch-2");
  expect(r2.status).toBe(402);
  expect(termsOf(r2)).toMatchObject({ error: "settlement_pending", accepts: [] });
  expect(r2.headers.get("payment-response")).toBeNull();

  expect(await bed.balances()).toEqual({ ...before, payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE });
  expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n); // one pack, one use
  const rows = await sql`select nonce, status, tx_hash, log_index from x402_payments where team_id = ${main.team.teamId} order by seq`;
  expect(rows.map((r) => ({ ...r }))).toEqual([
    { nonce: a1.authorization.nonce.toLowerCase(), status: "settled", tx_hash: hash, log_index: 1 },
    { nonce: a2.authorization.nonce.toLowerCase(), status: "claimed", tx_hash: null, log_index: null },
  ]);

  // One Transfer backs one payment: the database refuses a second payment on the same log.
  const [settled, claimed] = rows as unknown as { nonce: string }[];
  const grant = await sql`select credit_grant_id from x402_payments where nonce = ${settled!.nonce}`;
  const again = sql`update x402_payments set status = 'settled', tx_hash = ${hash}, log_index = 1, credit_grant_id = ${grant[0]!.credit_grant_id},
                      settled_at = now() where nonce = ${claimed!.nonce}`;
  await expect(again).rejects.toThrow(/x402_payments_transfer/);
});

test("a lost settlement whose nonce was spent beside another authorization's Transfer is not granted for that Transfer", async () => {
  const batch = await deploy(bed.anvil, (await compileFixture("Eip3009Batch.sol")).Eip3009Batch!);
  const credits = await main.credits();
  const presented = await bed.authorize({ to: bed.payee, value: String(PACK_PRICE) });
  const header = encodePaymentSignatureHeader({ x402Version: 2, accepted: offered, payload: presented });
  const send = () =>
    fetchService(
      url("/usage/consume"),
      post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens", idempotencyKey: "beside" }, { "payment-signature": header }),
    );
  await client.setAutomine(false);
  expect(termsOf(await send())?.error).toBe("settlement_pending");
  await client.request({ method: "anvil_dropAllTransactions" } as never);
  await client.setAutomine(true);
  // Another authorization of the price (never presented to the service), then the presented nonce spent on nothing.
  const other = await bed.authorize({ to: bed.payee, value: String(PACK_PRICE) });
  const spent = await bed.authorize({ to: bed.payer.address, value: "0", nonce: presented.authorization.nonce });
  const hash = await client.writeContract({
    address: batch,
    abi: (await compileFixture("Eip3009Batch.sol")).Eip3009Batch!.abi,
    functionName: "run",
    args: [bed.usdc, [transferCall(other), transferCall(spent)]],
    account: account(0),
    chain: foundry,
  });
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe("success");
  const before = await bed.balances();
  t.clock.advance(2 * JOB_TIMEOUT_MS + 1);
  const retry = await send();
  expect(retry.status).toBe(402);
  expect(termsOf(retry)).toMatchObject({ error: "settlement_pending", accepts: [] });
  expect(await main.credits()).toBe(credits);
  expect(await bed.balances()).toEqual(before);
  const [row] = await sql`select status, tx_hash from x402_payments where nonce = ${presented.authorization.nonce.toLowerCase()}`;
  expect({ ...row }).toEqual({ status: "claimed", tx_hash: null });
});
