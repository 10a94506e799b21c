/**
 * POST /invoices/{id}/refunds on Stellar: payments built and signed with stellar-sdk, with the result XDR
 * stellar-core records, served by a fake Horizon; the service's chain workers decode the envelope
 * themselves. A refund from the team's settlement account is recorded; every other proof is refused.
 */
import { describe, expect, test } from "bun:test";
import { Keypair, type Transaction } from "@stellar/stellar-sdk/base";
import {
  fakeUsdc,
  hashOf,
  horizonRecord,
  merchant,
  pay,
  signedTx,
  startFakeHorizon,
  stellarNetwork,
  stranger,
  successResult,
  usdc,
} from "../helpers/chains/stellar-fixtures";
import { expectRefused, NOTHING_RECORDED, refundBed, setSettlementWallet } from "../helpers/refunds";

const horizon = startFakeHorizon();
const customer = Keypair.random();
const elsewhere = Keypair.random();
// Replaces the built-in stellar-testnet by id (one registry entry per passphrase), pointed at the fake Horizon.
const bed = await refundBed([stellarNetwork(horizon.url)]);
bed.t.closers.push(async () => horizon.stop());
await setSettlementWallet(bed, "stellar-testnet", merchant.publicKey());

/** A payment signed by `from`, published as applied unless `published` is false; returns its hash. */
function send(from: Keypair, asset: typeof usdc, to: Keypair, amount: string, published = true): { hash: string; tx: Transaction } {
  const tx = signedTx([pay(to.publicKey(), asset, amount)], { from });
  if (published) horizon.serve(hashOf(tx), horizonRecord(tx, successResult(tx)));
  return { hash: hashOf(tx), tx };
}
const body = (amount: unknown, txHash: string, to: Keypair = customer) => ({
  amount,
  reason: "Cancelled within 14 days",
  refundProof: { txHash, recipientWallet: to.publicKey() },
});

describe("Stellar refunds (SDK-signed)", () => {
  test("201: a USDC payment from the settlement account records refund and credit note; 7-decimal token units", async () => {
    const invoice = await bed.paidInvoice("stellar-testnet", 30_000_000n);
    const { hash } = send(merchant, usdc, customer, "12.5");
    const res = await bed.refund(invoice, body(12.5, hash));
    expect(res.status).toBe(201);
    expect(res.body.refund).toMatchObject({
      amount: "12.500000",
      tokenAmount: "125000000",
      network: "stellar-testnet",
      txHash: hash,
      senderWallet: merchant.publicKey(),
      recipientWallet: customer.publicKey(),
    });
    expect(await bed.recorded(invoice)).toEqual({ refunds: 1, creditNotes: 1, amountRefunded: "12500000", refundEvents: 1, audits: 1 });
  });

  const refused = async (hash: string, status: number, code: string, to: Keypair = customer) => {
    const invoice = await bed.paidInvoice("stellar-testnet", 30_000_000n);
    await expectRefused(bed, invoice, await bed.refund(invoice, body(12.5, hash, to)), status, code, NOTHING_RECORDED);
    return invoice;
  };

  test("wrong token: an asset also called USDC from another issuer", () =>
    refused(send(merchant, fakeUsdc, customer, "12.5").hash, 422, "wrong_token"));
  test("wrong sender: USDC paid by another account", () => refused(send(stranger, usdc, customer, "12.5").hash, 422, "wrong_sender"));
  test("wrong recipient: USDC to another account", () => refused(send(merchant, usdc, elsewhere, "12.5").hash, 422, "wrong_recipient"));
  test("too small: one stroop short", () => refused(send(merchant, usdc, customer, "12.4999999").hash, 422, "amount_too_low"));

  test("unconfirmed: not in a closed ledger yet (Horizon 404) is refund_not_final; recorded once it is", async () => {
    const { hash, tx } = send(merchant, usdc, customer, "12.5", false);
    const invoice = await refused(hash, 409, "refund_not_final");
    horizon.serve(hash, horizonRecord(tx, successResult(tx)));
    expect((await bed.refund(invoice, body(12.5, hash))).status).toBe(201);
  });

  test("reused: a hash that proved a refund is refund_replayed, in any spelling", async () => {
    const invoice = await bed.paidInvoice("stellar-testnet", 30_000_000n);
    const { hash } = send(merchant, usdc, customer, "12.5");
    expect((await bed.refund(invoice, body(12.5, hash))).status).toBe(201);
    const once = await bed.recorded(invoice);
    await expectRefused(bed, invoice, await bed.refund(invoice, body(12.5, hash.toUpperCase())), 409, "refund_replayed", once);
    await refused(hash, 409, "refund_replayed");
  });

  test("400: an amount finer than a micro-unit; then a Solana signature and an EVM address", async () => {
    const invoice = await bed.paidInvoice("stellar-testnet", 30_000_000n);
    const res = await bed.refund(invoice, {
      amount: "0.0000001",
      reason: "x",
      refundProof: { txHash: "5".repeat(88), recipientWallet: `0x${"12".repeat(20)}` },
    });
    // The amount is wrong whatever the invoice: named alone, before the invoice is read.
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details)).toEqual(["body.amount"]);
    // Hash and wallet of other networks' shapes are wrong for this invoice's network: named together.
    const onStellar = await bed.refund(invoice, {
      amount: "1",
      reason: "x",
      refundProof: { txHash: "5".repeat(88), recipientWallet: `0x${"12".repeat(20)}` },
    });
    expect(onStellar.status).toBe(400);
    expect(Object.keys(onStellar.body.details).sort()).toEqual(["body.refundProof.recipientWallet", "body.refundProof.txHash"]);
  });
});
