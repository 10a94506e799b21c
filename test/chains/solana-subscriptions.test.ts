/**
 * Solana subscriptions through a real ChainPool: the worker's adapter signs with the operator key from its
 * environment and talks JSON-RPC to a node over litesvm (solana-ledger-rpc.ts), where the real SPL Token,
 * Associated Token Account and Memo programs run every transaction. Balances, delegations and the
 * subscription mint are read back from litesvm with @solana/spl-token.
 */
import { describe, expect, test } from "bun:test";
import { Keypair, PublicKey } from "@solana/web3.js";
import type { ChainOperation, OperationResult, SubscriptionFailure } from "../../src/chains/subscription-types";
import { newReference, solanaSubscriptionsUnderTest, usdc } from "../helpers/chains/solana-subscriptions";

const { chain, pool } = solanaSubscriptionsUnderTest();

const activate = (amount: bigint, reference = newReference(), payer = chain.payer) =>
  pool.subscription({ op: "activate", request: { ...chain.parties(payer), amount, periodSeconds: 2_419_200, reference } });
const charge = (tokenId: string, amount: bigint, reference = newReference(), payer = chain.payer, payee = chain.payee) =>
  pool.subscription({ op: "charge", request: { ...chain.parties(payer, payee), tokenId, amount, reference } });
const lookup = (reference: string, payer = chain.payer) => pool.subscription({ op: "lookup", request: { ...chain.parties(payer), reference } });

function landed(result: OperationResult): ChainOperation {
  if (!result.ok) throw new Error(`expected a landed operation, got ${result.reason}: ${result.detail}`);
  return result;
}

function expectRefusal(result: unknown, reason: SubscriptionFailure): void {
  expect(result).toEqual({ ok: false, reason, detail: expect.any(String) });
}

/** Runs `act` and says how many transactions the node executed meanwhile. */
async function sent<T>(act: () => Promise<T>): Promise<{ result: T; transactions: number }> {
  const before = chain.rpc.executed.length;
  const result = await act();
  return { result, transactions: chain.rpc.executed.length - before };
}

describe("solana subscriptions: activation and renewals", () => {
  let tokenId = "";
  const activation = newReference();

  test("readAutopay: the approved amount is the remaining cap; no period allowance, no expiry", async () => {
    expect(await pool.subscription({ op: "readAutopay", request: chain.parties() })).toEqual({
      ok: true,
      installed: true,
      periodAllowance: null,
      periodSeconds: null,
      remaining: usdc(500),
      expiresAt: null,
      balance: usdc(1_000),
    });
  });

  test("activate pulls the first period and mints one subscription token to the payer, supply fixed", async () => {
    const operation = landed(await activate(usdc(25), activation));
    tokenId = operation.tokenId;
    expect(operation).toEqual({ ok: true, txHash: chain.rpc.executed.at(-1)!.signature, tokenId, amount: usdc(25), blockNumber: expect.any(BigInt) });
    expect(operation.blockNumber).toBe(BigInt(chain.rpc.executed.at(-1)!.result.slot));
    expect(chain.balance(chain.payer.publicKey)).toBe(usdc(975));
    expect(chain.balance(chain.payee.publicKey)).toBe(usdc(25));
    expect(chain.tokenAccount(chain.payer.publicKey)?.delegatedAmount).toBe(usdc(475));

    const mint = chain.readMint(new PublicKey(tokenId));
    expect({ supply: mint.supply, decimals: mint.decimals, mintAuthority: mint.mintAuthority }).toEqual({
      supply: 1n,
      decimals: 0,
      mintAuthority: null,
    });
    const held = chain.tokenAccount(chain.payer.publicKey, mint.address);
    expect({ owner: held?.owner.toBase58(), amount: held?.amount }).toEqual({ owner: chain.payer.publicKey.toBase58(), amount: 1n });
  });

  test("the activation is found by its reference, and a second activate with it sends nothing", async () => {
    const first = landed(await lookup(activation).then((r) => (r.ok ? (r.operation as OperationResult) : r)));
    const again = await sent(() => activate(usdc(25), activation));
    expect(again.result).toEqual(first);
    expect(again.transactions).toBe(0);
    expect(chain.balance(chain.payer.publicKey)).toBe(usdc(975));
  });

  test("three charges pull through the delegate, each with its own transaction and slot", async () => {
    const operations: ChainOperation[] = [];
    for (let period = 0; period < 3; period++) operations.push(landed(await charge(tokenId, usdc(25))));
    expect(operations.map((o) => o.amount)).toEqual([usdc(25), usdc(25), usdc(25)]);
    expect(operations.map((o) => o.tokenId)).toEqual([tokenId, tokenId, tokenId]);
    expect(new Set(operations.map((o) => o.txHash)).size).toBe(3);
    expect(new Set(operations.map((o) => o.blockNumber)).size).toBe(3);
    expect(chain.balance(chain.payer.publicKey)).toBe(usdc(900));
    expect(chain.balance(chain.payee.publicKey)).toBe(usdc(100));
    expect(await pool.subscription({ op: "readAutopay", request: chain.parties() })).toMatchObject({
      installed: true,
      remaining: usdc(400),
      balance: usdc(900),
    });
  });

  test("a reused charge reference returns the first charge and never pulls twice", async () => {
    const reference = newReference();
    const first = landed(await charge(tokenId, usdc(10), reference));
    const again = await sent(() => charge(tokenId, usdc(10), reference));
    expect(again).toEqual({ result: first, transactions: 0 });
    expect(await lookup(reference)).toEqual({ ok: true, operation: first });
    expect(chain.balance(chain.payer.publicKey)).toBe(usdc(890));
  });

  test("the charge's memo carries the reference, as the node lists it for the payee's account", async () => {
    const reference = newReference();
    const operation = landed(await charge(tokenId, usdc(1), reference));
    const listed = await fetch(chain.rpc.url, {
      method: "POST",
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "getSignaturesForAddress",
        params: [chain.tokenAddress(chain.payee.publicKey).toBase58(), { limit: 1 }],
      }),
    }).then((r) => r.json() as Promise<{ result: { signature: string; memo: string }[] }>);
    expect(listed.result[0]).toMatchObject({ signature: operation.txHash, memo: expect.stringContaining(`charge ${reference} ${tokenId}`) });
  });

  test("a payee other than the activation's cannot be pulled to, and nothing is sent", async () => {
    const stranger = Keypair.generate();
    const attempt = await sent(() => charge(tokenId, usdc(5), newReference(), chain.payer, stranger));
    expectRefusal(attempt.result, "autopay_not_installed");
    expect(attempt.transactions).toBe(0);
  });

  test("more than the remaining cap is insufficient_allowance, without a transaction", async () => {
    const attempt = await sent(() => charge(tokenId, usdc(400)));
    expectRefusal(attempt.result, "insufficient_allowance");
    expect(attempt.transactions).toBe(0);
  });

  test("after the payer spends its balance, a charge is insufficient_balance", async () => {
    chain.transfer(chain.payer, chain.issuer.publicKey, chain.balance(chain.payer.publicKey) - usdc(3));
    const attempt = await sent(() => charge(tokenId, usdc(25)));
    expectRefusal(attempt.result, "insufficient_balance");
    expect(attempt.transactions).toBe(0);
  });

  test("after the payer revokes the delegate, autopay is not installed and charges are refused", async () => {
    chain.revoke(chain.payer);
    expect(await pool.subscription({ op: "readAutopay", request: chain.parties() })).toMatchObject({
      installed: false,
      remaining: 0n,
      balance: usdc(3),
    });
    expectRefusal(await charge(tokenId, usdc(1)), "autopay_not_installed");
  });

  test("a team wallet without a token account for the token gets one at activation, the operator paying its rent", async () => {
    const [payer, team] = [chain.newPayer(), Keypair.generate()];
    const request = { ...chain.parties(payer, team), amount: usdc(12), periodSeconds: 2_419_200, reference: newReference() };
    expect(chain.tokenAccount(team.publicKey)).toBeNull();
    expect(landed(await pool.subscription({ op: "activate", request })).amount).toBe(usdc(12));
    expect(chain.balance(team.publicKey)).toBe(usdc(12));
  });

  test("a pull that uses up the approved amount clears the delegate: autopay is then not installed", async () => {
    const payer = chain.newPayer(usdc(100), usdc(10));
    const request = { ...chain.parties(payer), amount: usdc(10), periodSeconds: 2_419_200, reference: newReference() };
    landed(await pool.subscription({ op: "activate", request }));
    expect(chain.tokenAccount(payer.publicKey)?.delegate).toBeNull();
    expect(await pool.subscription({ op: "readAutopay", request: chain.parties(payer) })).toMatchObject({ installed: false, remaining: 0n });
  });

  test("revoke answers ok without a transaction: only the owner can revoke an SPL delegate", async () => {
    const attempt = await sent(() => pool.subscription({ op: "revoke", request: { ...chain.parties(), tokenId, reference: newReference() } }));
    expect(attempt).toEqual({ result: { ok: true, txHash: "", tokenId, amount: 0n, blockNumber: 0n }, transactions: 0 });
  });
});
