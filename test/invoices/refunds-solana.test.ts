/**
 * POST /invoices/{id}/refunds on Solana: litesvm executes SPL transfers signed with web3.js, a JSON-RPC
 * node on a real port serves what it produced, and the service's chain workers read it over HTTP. A refund
 * from the team's settlement wallet is recorded; every other proof is refused with its code, recording nothing.
 */
import { describe, expect, test } from "bun:test";
import { Keypair, LAMPORTS_PER_SOL, SystemProgram } from "@solana/web3.js";
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
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { SolanaLedger, type Executed } from "../helpers/chains/solana-ledger";
import { FakeSolanaRpc } from "../helpers/chains/solana-rpc-server";
import { expectRefused, NOTHING_RECORDED, refundBed, setSettlementWallet } from "../helpers/refunds";

const DECIMALS = 6;
const ledger = new SolanaLedger();
const rpc = new FakeSolanaRpc();
const merchant = Keypair.generate();
const stranger = Keypair.generate();
const customer = Keypair.generate();
const elsewhere = Keypair.generate();
const usdcMint = Keypair.generate();
const otherMint = Keypair.generate(); // same decimals, another mint
const ata = (mint: Keypair, owner: Keypair) => getAssociatedTokenAddressSync(mint.publicKey, owner.publicKey);

// The settlement wallet and a stranger hold both tokens; everyone has an account of each.
for (const holder of [merchant, stranger]) ledger.fund(holder.publicKey, 10n * BigInt(LAMPORTS_PER_SOL));
const rent = Number(ledger.svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE)));
for (const mint of [usdcMint, otherMint])
  ledger.mustSend(
    [
      SystemProgram.createAccount({
        fromPubkey: merchant.publicKey,
        newAccountPubkey: mint.publicKey,
        lamports: rent,
        space: MINT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeMint2Instruction(mint.publicKey, DECIMALS, merchant.publicKey, null),
    ],
    [merchant, mint],
  );
ledger.mustSend(
  [usdcMint, otherMint].flatMap((mint) =>
    [merchant, stranger, customer, elsewhere].map((owner) =>
      createAssociatedTokenAccountInstruction(merchant.publicKey, ata(mint, owner), owner.publicKey, mint.publicKey),
    ),
  ),
  [merchant],
);
ledger.mustSend(
  [usdcMint, otherMint].flatMap((mint) =>
    [merchant, stranger].map((holder) => createMintToInstruction(mint.publicKey, ata(mint, holder), merchant.publicKey, 10n ** 12n)),
  ),
  [merchant],
);

const bed = await refundBed([
  {
    id: "solana-local",
    family: "solana",
    testnet: true,
    chainId: null,
    rpcUrl: rpc.url,
    confirmations: 0,
    tokens: [{ symbol: "USDC", decimals: DECIMALS, mint: usdcMint.publicKey.toBase58() }],
  },
]);
bed.t.closers.push(async () => rpc.stop());
await setSettlementWallet(bed, "solana-local", merchant.publicKey.toBase58());

const executions = new Map<string, Executed>();

/** A transferChecked signed by `from`, served by the node at `commitment`; returns its signature. */
function send(from: Keypair, mint: Keypair, to: Keypair, amount: bigint, commitment: "confirmed" | "finalized" = "finalized"): string {
  const executed = ledger.send(
    [createTransferCheckedInstruction(ata(mint, from), mint.publicKey, ata(mint, to), from.publicKey, amount, DECIMALS)],
    [from],
  );
  if (!executed.ok) throw new Error("transfer failed");
  rpc.put(executed.signature, executed.result, commitment);
  executions.set(executed.signature, executed);
  return executed.signature;
}
const body = (amount: unknown, txHash: string, to: Keypair = customer) => ({
  amount,
  reason: "Service outage credit",
  refundProof: { txHash, recipientWallet: to.publicKey.toBase58() },
});

describe("Solana refunds (litesvm)", () => {
  test("201: a finalized USDC transfer from the settlement wallet records refund, credit note and webhook", async () => {
    const invoice = await bed.paidInvoice("solana-local", 40_000_000n);
    const signature = send(merchant, usdcMint, customer, 15_000_000n);
    const res = await bed.refund(invoice, body("15", signature));
    expect(res.status).toBe(201);
    expect(res.body.refund).toMatchObject({
      amount: "15.000000",
      tokenAmount: "15000000",
      network: "solana-local",
      txHash: signature,
      senderWallet: merchant.publicKey.toBase58(),
      recipientWallet: customer.publicKey.toBase58(),
    });
    expect(await bed.recorded(invoice)).toEqual({ refunds: 1, creditNotes: 1, amountRefunded: "15000000", refundEvents: 1, audits: 1 });
  });

  const refused = async (signature: string, status: number, code: string, to: Keypair = customer) => {
    const invoice = await bed.paidInvoice("solana-local", 40_000_000n);
    await expectRefused(bed, invoice, await bed.refund(invoice, body("15", signature, to)), status, code, NOTHING_RECORDED);
    return invoice;
  };

  test("wrong token: another mint from the settlement wallet", () => refused(send(merchant, otherMint, customer, 15_000_000n), 422, "wrong_token"));
  test("wrong sender: USDC from a wallet that is not the team's", () =>
    refused(send(stranger, usdcMint, customer, 15_000_000n), 422, "wrong_sender"));
  test("wrong recipient: USDC to another owner", () => refused(send(merchant, usdcMint, elsewhere, 15_000_000n), 422, "wrong_recipient"));
  test("too small: one base unit short", () => refused(send(merchant, usdcMint, customer, 14_999_999n), 422, "amount_too_low"));

  /** Runs a transaction (signers[0] pays the fee) and serves it finalized; returns its signature. */
  const sendFinal = (instructions: Parameters<SolanaLedger["send"]>[0], signers: Keypair[]) => {
    const executed = ledger.mustSend(instructions, signers);
    rpc.put(executed.signature, executed.result, "finalized");
    return executed.signature;
  };

  test("wrong sender: the settlement wallet alone moves a stranger's USDC as its SPL delegate (the team's money never left)", async () => {
    sendFinal([createApproveInstruction(ata(usdcMint, stranger), merchant.publicKey, stranger.publicKey, 15_000_000n)], [stranger]);
    const signature = sendFinal(
      [
        createTransferCheckedInstruction(
          ata(usdcMint, stranger),
          usdcMint.publicKey,
          ata(usdcMint, customer),
          merchant.publicKey,
          15_000_000n,
          DECIMALS,
        ),
      ],
      [merchant],
    );
    await refused(signature, 422, "wrong_sender");
  });

  test("wrong sender: a circle, the settlement wallet's USDC to the customer and the same back from another account of the customer's", async () => {
    const spare = Keypair.generate(); // a second USDC account of the customer's, holding 15 USDC
    const rent = Number(ledger.svm.minimumBalanceForRentExemption(BigInt(ACCOUNT_SIZE)));
    ledger.mustSend(
      [
        SystemProgram.createAccount({
          fromPubkey: merchant.publicKey,
          newAccountPubkey: spare.publicKey,
          lamports: rent,
          space: ACCOUNT_SIZE,
          programId: TOKEN_PROGRAM_ID,
        }),
        createInitializeAccount3Instruction(spare.publicKey, usdcMint.publicKey, customer.publicKey),
        createMintToInstruction(usdcMint.publicKey, spare.publicKey, merchant.publicKey, 15_000_000n),
      ],
      [merchant, spare],
    );
    const signature = sendFinal(
      [
        createTransferCheckedInstruction(
          ata(usdcMint, merchant),
          usdcMint.publicKey,
          ata(usdcMint, customer),
          merchant.publicKey,
          15_000_000n,
          DECIMALS,
        ),
        createTransferCheckedInstruction(spare.publicKey, usdcMint.publicKey, ata(usdcMint, merchant), customer.publicKey, 15_000_000n, DECIMALS),
      ],
      [merchant, customer],
    );
    await refused(signature, 422, "wrong_sender");
  });

  test("unconfirmed: only confirmed, not finalized, is refund_not_final; recorded once finalized", async () => {
    const signature = send(merchant, usdcMint, customer, 15_000_000n, "confirmed");
    const invoice = await refused(signature, 409, "refund_not_final");
    rpc.put(signature, executions.get(signature)!.result, "finalized"); // the cluster finalizes it
    expect((await bed.refund(invoice, body("15", signature))).status).toBe(201);
  });

  test("reused: a signature that proved a refund is refund_replayed, on this invoice or another", async () => {
    const invoice = await bed.paidInvoice("solana-local", 40_000_000n);
    const signature = send(merchant, usdcMint, customer, 15_000_000n);
    expect((await bed.refund(invoice, body("15", signature))).status).toBe(201);
    const once = await bed.recorded(invoice);
    await expectRefused(bed, invoice, await bed.refund(invoice, body("15", signature)), 409, "refund_replayed", once);
    await refused(signature, 409, "refund_replayed");
  });

  test("400: an EVM hash and an EVM address are not Solana's", async () => {
    const invoice = await bed.paidInvoice("solana-local", 40_000_000n);
    const res = await bed.refund(invoice, {
      amount: 1,
      reason: "x",
      refundProof: { txHash: `0x${"ab".repeat(32)}`, recipientWallet: `0x${"12".repeat(20)}` },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details).sort()).toEqual(["body.refundProof.recipientWallet", "body.refundProof.txHash"]);
  });
});
