/**
 * The Soroban RPC double itself, driven with the SDK's rpc.Server: a double that accepted anything would
 * make the adapter's tests prove nothing, so every check it claims is shown refusing a transaction that
 * breaks it, with no balance moving.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  Account,
  Address,
  Asset,
  BASE_FEE,
  Contract,
  Keypair,
  Memo,
  Networks,
  nativeToScVal,
  Operation,
  rpc,
  scValToBigInt,
  type Transaction,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import { type StellarSubscriptionSetup, startStellarSubscriptions } from "../helpers/chains/stellar-subscriptions";
import { chainNowMs } from "../helpers/chains/stellar-rpc-node";

let s: StellarSubscriptionSetup;
let server: rpc.Server;
const UNIT = 10_000_000n;

beforeAll(async () => {
  s = startStellarSubscriptions();
  server = new rpc.Server(s.double.url, { allowHttp: true });
  await s.approve(50n * UNIT);
});
afterAll(() => s.stop());

const addr = (key: Keypair | string) => new Address(typeof key === "string" ? key : key.publicKey()).toScVal();

/** The operator's transfer_from of `amount` from the payer to the payee, as built before simulation. */
async function transferFrom(amount: bigint, options: { passphrase?: string; contractId?: string; amountVal?: xdr.ScVal } = {}) {
  const account = await server.getAccount(s.operator.publicKey());
  const sac = new Contract(options.contractId ?? s.asset.contractId(s.double.passphrase));
  const call = sac.call(
    "transfer_from",
    addr(s.operator),
    addr(s.payer),
    addr(s.payee),
    options.amountVal ?? nativeToScVal(amount, { type: "i128" }),
  );
  return new TransactionBuilder(account, { fee: BASE_FEE, networkPassphrase: options.passphrase ?? s.double.passphrase, memo: Memo.text("double") })
    .addOperation(call)
    .setTimebounds(0, Math.floor(chainNowMs() / 1000) + 30)
    .build();
}

async function prepared(amount: bigint): Promise<Transaction> {
  const tx = await server.prepareTransaction(await transferFrom(amount));
  tx.sign(s.operator);
  return tx;
}

const balances = () => [s.double.balance(s.asset, s.payer.publicKey()), s.double.balance(s.asset, s.payee.publicKey())];

async function expectRefused(tx: Transaction, code: string) {
  const before = balances();
  const sent = await server.sendTransaction(tx);
  expect({ status: String(sent.status), code: String(sent.errorResult?.result.type) }).toEqual({ status: "ERROR", code });
  expect(balances()).toEqual(before);
}

describe("the double's reads", () => {
  test("network, health and latest ledger decode with the SDK", async () => {
    expect(await server.getNetwork()).toMatchObject({ passphrase: Networks.TESTNET });
    const latest = await server.getLatestLedger();
    expect(latest.sequence).toBe(s.double.node.latest);
    expect(latest.headerXdr.ledgerSeq).toBe(latest.sequence);
    expect(await server.getHealth()).toMatchObject({ status: "healthy", latestLedger: latest.sequence });
  });

  test("simulation answers the SAC's allowance and balance", async () => {
    const read = async (fn: string, ...args: xdr.ScVal[]) => {
      const tx = new TransactionBuilder(new Account(s.operator.publicKey(), "0"), { fee: BASE_FEE, networkPassphrase: s.double.passphrase })
        .addOperation(new Contract(s.asset.contractId(s.double.passphrase)).call(fn, ...args))
        .setTimeout(0)
        .build();
      const sim = await server.simulateTransaction(tx);
      if (!rpc.Api.isSimulationSuccess(sim)) throw new Error("simulation failed");
      return scValToBigInt(sim.result!.retval);
    };
    expect(await read("allowance", addr(s.payer), addr(s.operator))).toBe(50n * UNIT);
    expect(await read("balance", addr(s.payer))).toBe(1_000n * UNIT);
  });
});

describe("what the double refuses at submission", () => {
  test("a tampered signature", async () => {
    const tx = await prepared(UNIT);
    const signature = tx.signatures[0]!.signature.value;
    signature[0] = signature[0]! ^ 0xff;
    await expectRefused(tx, "txBadAuth");
  });

  test("a signature by a key other than the source account's", async () => {
    const tx = await server.prepareTransaction(await transferFrom(UNIT));
    tx.sign(Keypair.random());
    await expectRefused(tx, "txBadAuth");
  });

  test("a transaction signed for another network's passphrase", async () => {
    const sim = await server.simulateTransaction(await transferFrom(UNIT));
    const elsewhere = await transferFrom(UNIT, { passphrase: Networks.PUBLIC });
    const tx = rpc.assembleTransaction(elsewhere, sim as rpc.Api.SimulateTransactionSuccessResponse).build();
    tx.sign(s.operator);
    await expectRefused(tx, "txBadAuth");
  });

  test("a sequence number already used, and one skipped ahead", async () => {
    const first = await prepared(UNIT);
    const stale = await prepared(UNIT); // built on the same sequence number
    expect((await server.sendTransaction(first)).status).toBe("PENDING");
    await expectRefused(stale, "txBadSeq");
    const account = await server.getAccount(s.operator.publicKey());
    account.incrementSequenceNumber();
    const ahead = new TransactionBuilder(account, { fee: "1000000", networkPassphrase: s.double.passphrase }).addOperation(
      new Contract(s.asset.contractId(s.double.passphrase)).call("balance", addr(s.payer)),
    );
    const skipped = await server.prepareTransaction(ahead.setTimebounds(0, Math.floor(chainNowMs() / 1000) + 30).build());
    skipped.sign(s.operator);
    await expectRefused(skipped, "txBadSeq");
  });

  test("a transaction past its time bound", async () => {
    const account = await server.getAccount(s.operator.publicKey());
    const late = new TransactionBuilder(account, { fee: BASE_FEE, networkPassphrase: s.double.passphrase, timebounds: { minTime: 0, maxTime: 1 } })
      .addOperation(new Contract(s.asset.contractId(s.double.passphrase)).call("balance", addr(s.payer)))
      .build();
    const tx = await server.prepareTransaction(late);
    tx.sign(s.operator);
    await expectRefused(tx, "txTooLate");
  });

  test("an invocation sent without its simulated resources", async () => {
    const tx = await transferFrom(UNIT);
    tx.sign(s.operator);
    await expectRefused(tx, "txSorobanInvalid");
  });
});

describe("what the double fails at application", () => {
  async function sendLanded(tx: Transaction) {
    const before = balances();
    const sent = await server.sendTransaction(tx);
    expect(sent.status).toBe("PENDING");
    const landed = await server.getTransaction(sent.hash);
    return { landed, moved: balances().some((b, i) => b !== before[i]) };
  }

  /** The operator's transfer_from re-assembled from its simulation with `auth` and `data` changed, then signed. */
  async function tampered(
    change: (sim: rpc.Api.SimulateTransactionSuccessResponse) => { auth: xdr.SorobanAuthorizationEntry[]; data: xdr.SorobanTransactionData },
  ) {
    const built = await transferFrom(UNIT);
    const sim = (await server.simulateTransaction(built)) as rpc.Api.SimulateTransactionSuccessResponse;
    const { auth, data } = change(sim);
    const op = built.operations[0] as Operation.InvokeHostFunction;
    const account = await server.getAccount(s.operator.publicKey());
    const tx = new TransactionBuilder(account, { fee: "200000", networkPassphrase: s.double.passphrase, sorobanData: data })
      .addOperation(Operation.invokeHostFunction({ func: op.func, auth }))
      .setTimebounds(0, Math.floor(chainNowMs() / 1000) + 30)
      .build();
    tx.sign(s.operator);
    return tx;
  }

  test("an invocation whose authorization entry was removed after simulation", async () => {
    const { landed, moved } = await sendLanded(await tampered((sim) => ({ auth: [], data: sim.transactionData.build() })));
    expect({ status: String(landed.status), moved }).toEqual({ status: "FAILED", moved: false });
  });

  test("an invocation whose footprint does not declare the entries it writes", async () => {
    const stripped = await tampered((sim) => ({ auth: sim.result!.auth, data: sim.transactionData.setReadWrite([]).build() }));
    const { landed, moved } = await sendLanded(stripped);
    expect({ status: String(landed.status), moved }).toEqual({ status: "FAILED", moved: false });
  });

  test("another contract, and an amount of the wrong type, do not simulate", async () => {
    const unknown = new Asset("EURC", Keypair.random().publicKey()).contractId(s.double.passphrase);
    const wrongContract = await server.simulateTransaction(await transferFrom(UNIT, { contractId: unknown }));
    const wrongType = await server.simulateTransaction(await transferFrom(UNIT, { amountVal: nativeToScVal(UNIT, { type: "u64" }) }));
    expect([rpc.Api.isSimulationError(wrongContract), rpc.Api.isSimulationError(wrongType)]).toEqual([true, true]);
  });

  test("a valid pull lands, with its transfer event served by getTransaction and getEvents", async () => {
    const { landed, moved } = await sendLanded(await prepared(2n * UNIT));
    expect({ status: String(landed.status), moved }).toEqual({ status: "SUCCESS", moved: true });
    if (landed.status !== "SUCCESS") return;
    const [event] = landed.events.contractEventsXdr[0]!;
    expect(event?.body.v0.topics[0]?.toXDR("base64")).toBe(xdr.ScVal.scvSymbol("transfer").toXDR("base64"));
    const topics = [[xdr.ScVal.scvSymbol("transfer"), addr(s.payer), addr(s.payee)].map((t) => t.toXDR("base64")).concat("*")];
    const found = await server.getEvents({ startLedger: s.double.node.oldestLedger, filters: [{ type: "contract", topics }] });
    expect(found.events.map((e) => e.txHash)).toContain(landed.txHash);
    expect(found.events.every((e) => scValToBigInt(e.value) > 0n)).toBe(true);
  });
});
