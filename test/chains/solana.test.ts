/**
 * Solana adapter against real signed transactions: litesvm executes them, a fake JSON-RPC node on a real
 * port serves what litesvm produced in the RPC's own response shapes, and the adapter reads it over HTTP.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AddressLookupTableAccount, AddressLookupTableProgram, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram } from "@solana/web3.js";
import {
  ACCOUNT_SIZE,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
  createApproveInstruction,
  createAssociatedTokenAccountInstruction,
  createInitializeAccount3Instruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  createTransferCheckedInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { createSolanaAdapter, solanaAdapter } from "../../src/chains/solana";
import { isSignature } from "../../src/chains/solana/base58";
import type { NetworkConfig, PaymentExpectation, PaymentVerdict, RefusalReason, TokenConfig } from "../../src/chains/types";
import { SolanaLedger, type Executed } from "../helpers/chains/solana-ledger";
import { FakeSolanaRpc } from "../helpers/chains/solana-rpc-server";
import { encodeBase58 } from "../helpers/chains/solana-rpc-shape";
import { bindToPayer } from "../../src/modules/payments/settle";
import type { CheckoutSessionRow } from "../../src/modules/payments/rows";

const DECIMALS = 6;
const ledger = new SolanaLedger();
const rpc = new FakeSolanaRpc();
const adapter = createSolanaAdapter({ timeoutMs: 2_000 });

const payer = Keypair.generate();
const merchant = Keypair.generate();
const stranger = Keypair.generate();
const usdcMint = Keypair.generate();
const otherMint = Keypair.generate(); // same decimals, different mint: must never pass for USDC

const USDC: TokenConfig = { symbol: "USDC", decimals: DECIMALS, mint: usdcMint.publicKey.toBase58() };
const SOL: TokenConfig = { symbol: "SOL", decimals: 9, native: true };
const network = (rpcUrl: string): NetworkConfig => ({
  id: "solana-localnet",
  family: "solana",
  testnet: true,
  chainId: null,
  rpcUrl,
  confirmations: 0,
  tokens: [USDC, SOL],
});

const ata = (mint: Keypair, owner: Keypair) => getAssociatedTokenAddressSync(mint.publicKey, owner.publicKey);
const keyIndex = (executed: Executed, key: PublicKey) => (executed.result.transaction.message.accountKeys as string[]).indexOf(key.toBase58());

function expectation(txHash: string, overrides: Partial<PaymentExpectation> = {}): PaymentExpectation {
  return { network: network(rpc.url), token: USDC, txHash, recipient: merchant.publicKey.toBase58(), amount: 25_000_000n, ...overrides };
}

function expectRefusal(verdict: PaymentVerdict, reason: RefusalReason): void {
  expect(verdict).toEqual({ ok: false, reason, detail: expect.any(String) });
}

/** Runs a token transfer signed by the payer and serves its result as finalized. */
function payToken(mint: Keypair, to: Keypair, amount: bigint): Executed {
  const executed = ledger.send(
    [createTransferCheckedInstruction(ata(mint, payer), mint.publicKey, ata(mint, to), payer.publicKey, amount, DECIMALS)],
    [payer],
  );
  rpc.put(executed.signature, executed.result);
  return executed;
}

/** The lookup-table program derives tables from a slot it can find in the SlotHashes sysvar. */
function recentSlot(): bigint {
  const [latest] = ledger.svm.getSlotHashes();
  if (!latest) throw new Error("no slot hashes");
  return latest.slot;
}

function paySol(to: PublicKey, lamports: bigint): Executed {
  const executed = ledger.send([SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports })], [payer]);
  rpc.put(executed.signature, executed.result);
  return executed;
}

beforeAll(() => {
  ledger.fund(payer.publicKey, 10n * BigInt(LAMPORTS_PER_SOL));
  const rent = Number(ledger.svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE)));
  for (const mint of [usdcMint, otherMint]) {
    ledger.mustSend(
      [
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: mint.publicKey,
          lamports: rent,
          space: MINT_SIZE,
          programId: TOKEN_PROGRAM_ID,
        }),
        createInitializeMint2Instruction(mint.publicKey, DECIMALS, payer.publicKey, null),
      ],
      [payer, mint],
    );
  }
  const accounts: [Keypair, Keypair][] = [
    [usdcMint, payer],
    [otherMint, payer],
    [usdcMint, merchant],
    [otherMint, merchant],
    [usdcMint, stranger],
  ];
  ledger.mustSend(
    accounts.map(([mint, owner]) => createAssociatedTokenAccountInstruction(payer.publicKey, ata(mint, owner), owner.publicKey, mint.publicKey)),
    [payer],
  );
  ledger.mustSend(
    [usdcMint, otherMint].map((mint) => createMintToInstruction(mint.publicKey, ata(mint, payer), payer.publicKey, 1_000_000_000n)),
    [payer],
  );
});

afterAll(() => rpc.stop());

describe("solana verifyPayment: SPL token", () => {
  test("a finalized USDC transfer to the recipient's token account is ok", async () => {
    const paid = payToken(usdcMint, merchant, 25_000_000n);
    expect(paid.ok).toBe(true);
    expect(await adapter.verifyPayment(expectation(paid.signature))).toEqual({
      ok: true,
      transfers: [
        { transferIndex: keyIndex(paid, ata(usdcMint, merchant)), amount: 25_000_000n, payer: payer.publicKey.toBase58(), payerDebited: true },
      ],
      blockNumber: ledger.slot,
      blockHash: null,
    });
  });

  test("paying more than asked is ok and reports what was paid", async () => {
    const paid = payToken(usdcMint, merchant, 30_000_001n);
    const verdict = await adapter.verifyPayment(expectation(paid.signature));
    expect(verdict).toMatchObject({ ok: true, transfers: [{ amount: 30_000_001n }] });
  });

  test("another mint with the same decimals is wrong_token", async () => {
    const paid = payToken(otherMint, merchant, 25_000_000n);
    expectRefusal(await adapter.verifyPayment(expectation(paid.signature)), "wrong_token");
  });

  test("the right mint to another owner is wrong_recipient", async () => {
    const paid = payToken(usdcMint, stranger, 25_000_000n);
    expectRefusal(await adapter.verifyPayment(expectation(paid.signature)), "wrong_recipient");
  });

  test("less than the amount due is amount_too_low", async () => {
    const paid = payToken(usdcMint, merchant, 24_999_999n);
    expectRefusal(await adapter.verifyPayment(expectation(paid.signature)), "amount_too_low");
  });

  test("a transfer exceeding the balance fails on chain and is failed", async () => {
    // A plain Transfer this time (not TransferChecked): the SPL program answers InsufficientFunds = Custom(1).
    const executed = ledger.send(
      [createTransferInstruction(ata(usdcMint, payer), ata(usdcMint, merchant), payer.publicKey, 5_000_000_000n)],
      [payer],
    );
    expect(executed.ok).toBe(false);
    expect(executed.result.meta.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    rpc.put(executed.signature, executed.result);
    expectRefusal(await adapter.verifyPayment(expectation(executed.signature)), "failed");
  });

  test("a transaction only confirmed, not finalized, is not_final", async () => {
    const executed = ledger.send(
      [createTransferCheckedInstruction(ata(usdcMint, payer), usdcMint.publicKey, ata(usdcMint, merchant), payer.publicKey, 25_000_000n, DECIMALS)],
      [payer],
    );
    rpc.put(executed.signature, executed.result, "confirmed");
    expectRefusal(await adapter.verifyPayment(expectation(executed.signature)), "not_final");
  });
});

describe("solana verifyPayment: native SOL", () => {
  test("a SOL transfer to the recipient is ok", async () => {
    const paid = paySol(merchant.publicKey, 250_000_000n);
    expect(await adapter.verifyPayment(expectation(paid.signature, { token: SOL, amount: 250_000_000n }))).toEqual({
      ok: true,
      transfers: [{ transferIndex: keyIndex(paid, merchant.publicKey), amount: 250_000_000n, payer: payer.publicKey.toBase58(), payerDebited: true }],
      blockNumber: ledger.slot,
      blockHash: null,
    });
  });

  test("a v0 SOL transfer whose recipient is loaded from a lookup table is ok", async () => {
    const [create, table] = AddressLookupTableProgram.createLookupTable({
      authority: payer.publicKey,
      payer: payer.publicKey,
      recentSlot: recentSlot(),
    });
    const extend = AddressLookupTableProgram.extendLookupTable({
      authority: payer.publicKey,
      payer: payer.publicKey,
      lookupTable: table,
      addresses: [merchant.publicKey],
    });
    ledger.mustSend([create, extend], [payer]);
    ledger.svm.warpToSlot(ledger.slot + 1n); // addresses extended in this slot are usable from the next
    const stored = ledger.svm.getAccount(table.toBase58() as Parameters<typeof ledger.svm.getAccount>[0]);
    if (!stored.exists) throw new Error("lookup table missing");
    const lookup = new AddressLookupTableAccount({ key: table, state: AddressLookupTableAccount.deserialize(stored.data) });

    const paid = ledger.sendV0(
      [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: merchant.publicKey, lamports: 300_000_000n })],
      [payer],
      [lookup],
    );
    expect(paid.result.version).toBe(0);
    expect(paid.result.meta.loadedAddresses.writable).toEqual([merchant.publicKey.toBase58()]);
    rpc.put(paid.signature, paid.result);
    const keyCount = paid.result.transaction.message.accountKeys as string[];
    expect(await adapter.verifyPayment(expectation(paid.signature, { token: SOL, amount: 300_000_000n }))).toEqual({
      ok: true,
      transfers: [{ transferIndex: keyCount.length, amount: 300_000_000n, payer: payer.publicKey.toBase58(), payerDebited: true }],
      blockNumber: ledger.slot,
      blockHash: null,
    });
  });

  test("SOL to someone else is wrong_recipient", async () => {
    const paid = paySol(stranger.publicKey, 250_000_000n);
    expectRefusal(await adapter.verifyPayment(expectation(paid.signature, { token: SOL, amount: 250_000_000n })), "wrong_recipient");
  });

  test("less SOL than due is amount_too_low", async () => {
    const paid = paySol(merchant.publicKey, 249_999_999n);
    expectRefusal(await adapter.verifyPayment(expectation(paid.signature, { token: SOL, amount: 250_000_000n })), "amount_too_low");
  });
});

// A sponsor (a relayer, an agent platform) signs first and pays the fee; the customer signs the transfer
// itself. The payer is the customer, whose balance fell, so a session naming the customer's wallet
// accepts the payment (bindToPayer) and one naming the sponsor does not.
describe("solana verifyPayment: a sponsored transfer names the sender, not the fee payer", () => {
  const sponsor = payer;
  const customer = Keypair.generate();

  beforeAll(() => {
    ledger.fund(customer.publicKey, BigInt(LAMPORTS_PER_SOL));
    ledger.mustSend(
      [
        createAssociatedTokenAccountInstruction(sponsor.publicKey, ata(usdcMint, customer), customer.publicKey, usdcMint.publicKey),
        createMintToInstruction(usdcMint.publicKey, ata(usdcMint, customer), payer.publicKey, 100_000_000n),
      ],
      [payer],
    );
  });

  test("USDC from the customer's token account, fee paid by the sponsor", async () => {
    const paid = ledger.send(
      [
        createTransferCheckedInstruction(
          ata(usdcMint, customer),
          usdcMint.publicKey,
          ata(usdcMint, merchant),
          customer.publicKey,
          25_000_000n,
          DECIMALS,
        ),
      ],
      [sponsor, customer],
    );
    expect(paid.ok).toBe(true);
    expect((paid.result.transaction.message.accountKeys as string[])[0]).toBe(sponsor.publicKey.toBase58());
    rpc.put(paid.signature, paid.result);
    const verdict = await adapter.verifyPayment(expectation(paid.signature));
    expect(verdict).toMatchObject({ ok: true, transfers: [{ amount: 25_000_000n, payer: customer.publicKey.toBase58(), payerDebited: true }] });
    const boundTo = (wallet: Keypair) => ({ customer_wallet: wallet.publicKey.toBase58() }) as CheckoutSessionRow;
    expect(bindToPayer(verdict, boundTo(customer), "solana").ok).toBe(true);
    expect(bindToPayer(verdict, boundTo(sponsor), "solana")).toMatchObject({ ok: false, reason: "wrong_payer" });
  });

  test("a co-signer moving more of the token between its own accounts is not the sender", async () => {
    const second = Keypair.generate(); // a second USDC account of the sponsor's
    const rent = ledger.svm.minimumBalanceForRentExemption(BigInt(ACCOUNT_SIZE));
    ledger.mustSend(
      [
        SystemProgram.createAccount({
          fromPubkey: sponsor.publicKey,
          newAccountPubkey: second.publicKey,
          lamports: Number(rent),
          space: ACCOUNT_SIZE,
          programId: TOKEN_PROGRAM_ID,
        }),
        createInitializeAccount3Instruction(second.publicKey, usdcMint.publicKey, sponsor.publicKey),
      ],
      [sponsor, second],
    );
    const paid = ledger.send(
      [
        createTransferCheckedInstruction(
          ata(usdcMint, customer),
          usdcMint.publicKey,
          ata(usdcMint, merchant),
          customer.publicKey,
          25_000_000n,
          DECIMALS,
        ),
        createTransferCheckedInstruction(ata(usdcMint, sponsor), usdcMint.publicKey, second.publicKey, sponsor.publicKey, 100_000_000n, DECIMALS),
      ],
      [sponsor, customer],
    );
    expect(paid.ok).toBe(true);
    rpc.put(paid.signature, paid.result);
    expect(await adapter.verifyPayment(expectation(paid.signature))).toMatchObject({
      ok: true,
      transfers: [{ amount: 25_000_000n, payer: customer.publicKey.toBase58() }],
    });
  });

  // An SPL delegate signs alone and moves the customer's tokens: no signer's own balance fell, so the verdict
  // names the signer (the delegate, who authorized it) with payerDebited false. A checkout session bound to the
  // delegate accepts it (the binding asks who authorized the transfer: only the delegate's key could); a refund
  // never does (it asks whose money left: src/modules/invoices/refunds/refund.ts).
  test("a delegate's transfer of the customer's USDC names the delegate, not debited", async () => {
    ledger.mustSend([createApproveInstruction(ata(usdcMint, customer), sponsor.publicKey, customer.publicKey, 25_000_000n)], [customer]);
    const paid = ledger.mustSend(
      [
        createTransferCheckedInstruction(
          ata(usdcMint, customer),
          usdcMint.publicKey,
          ata(usdcMint, merchant),
          sponsor.publicKey,
          25_000_000n,
          DECIMALS,
        ),
      ],
      [sponsor],
    );
    rpc.put(paid.signature, paid.result);
    const verdict = await adapter.verifyPayment(expectation(paid.signature));
    expect(verdict).toMatchObject({ ok: true, transfers: [{ amount: 25_000_000n, payer: sponsor.publicKey.toBase58(), payerDebited: false }] });
    const boundTo = (wallet: Keypair) => ({ customer_wallet: wallet.publicKey.toBase58() }) as CheckoutSessionRow;
    expect(bindToPayer(verdict, boundTo(sponsor), "solana").ok).toBe(true);
    expect(bindToPayer(verdict, boundTo(customer), "solana")).toMatchObject({ ok: false, reason: "wrong_payer" });
  });

  test("SOL from the customer, fee paid by the sponsor", async () => {
    // Less than the fee itself, so the fee payer's whole drop is larger than the customer's.
    const paid = ledger.send(
      [SystemProgram.transfer({ fromPubkey: customer.publicKey, toPubkey: merchant.publicKey, lamports: 1_000n })],
      [sponsor, customer],
    );
    expect(paid.ok).toBe(true);
    expect(paid.result.meta.fee).toBeGreaterThan(1_000);
    rpc.put(paid.signature, paid.result);
    expect(await adapter.verifyPayment(expectation(paid.signature, { token: SOL, amount: 1_000n }))).toMatchObject({
      ok: true,
      transfers: [{ amount: 1_000n, payer: customer.publicKey.toBase58() }],
    });
  });
});

describe("solana verifyPayment: lookup and signature", () => {
  test("a signature the node never saw is not_found", async () => {
    const unknown = encodeBase58(crypto.getRandomValues(new Uint8Array(64)));
    expectRefusal(await adapter.verifyPayment(expectation(unknown)), "not_found");
  });

  test("a served transaction whose first signature is another is invalid_transaction", async () => {
    const asked = payToken(usdcMint, merchant, 25_000_000n);
    const other = payToken(usdcMint, merchant, 26_000_000n);
    rpc.put(asked.signature, other.result);
    expectRefusal(await adapter.verifyPayment(expectation(asked.signature)), "invalid_transaction");
  });

  test("a malformed signature is invalid_transaction without any RPC call", async () => {
    const before = rpc.calls.length;
    for (const txHash of ["", "not-a-signature", "0x" + "ab".repeat(64), payer.publicKey.toBase58(), encodeBase58(new Uint8Array(65).fill(7))]) {
      expectRefusal(await adapter.verifyPayment(expectation(txHash)), "invalid_transaction");
    }
    expect(rpc.calls.length).toBe(before);
  });

  test("isSignature accepts exactly base58 of 64 bytes, leading zero bytes included", () => {
    const withZeros = new Uint8Array(64);
    withZeros.set(crypto.getRandomValues(new Uint8Array(61)), 3);
    expect(isSignature(encodeBase58(withZeros))).toBe(true);
    expect(isSignature(encodeBase58(new Uint8Array(64)))).toBe(true);
    expect(isSignature(encodeBase58(new Uint8Array(63).fill(255)))).toBe(false);
    expect(isSignature(encodeBase58(new Uint8Array(64).fill(255)) + "1")).toBe(false);
  });
});

describe("solana verifyPayment: endpoint failures are rpc_unavailable", () => {
  test("nothing listening on the port", async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response() });
    const url = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const verdict = await solanaAdapter.verifyPayment({ ...expectation(encodeBase58(new Uint8Array(64).fill(1))), network: network(url) });
    expectRefusal(verdict, "rpc_unavailable");
  });

  for (const fault of ["jsonrpc-error", "http-500", "http-429"] as const) {
    test(`the node answers ${fault}, once, without retries`, async () => {
      const paid = payToken(usdcMint, merchant, 25_000_000n);
      const before = rpc.calls.length;
      rpc.fault = fault;
      try {
        expectRefusal(await adapter.verifyPayment(expectation(paid.signature)), "rpc_unavailable");
      } finally {
        rpc.fault = "none";
      }
      expect(rpc.calls.slice(before)).toEqual(["getTransaction"]);
    });
  }
});
