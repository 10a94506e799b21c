/**
 * Escrow calls whose answer was lost, and the chain moving without us (docs/escrow.md#consistency): the reconcile job
 * records what the chain did (a capture someone else sent, a reserve whose answer never came back), a payer's dispute
 * made on the contract itself is taken over when the capture job meets it, two workers capturing at once send each
 * capture once, and a smart account (ERC-1271) consents through the chain.
 */
import { describe, expect, test } from "bun:test";
import { encodeFunctionData, erc20Abi, getAddress, type Abi } from "viem";
import { escrowKey, type EscrowConsent } from "../../src/chains/evm/escrow-consent";
import { ESCROW_ABI } from "../../src/chains/evm/escrow-contract";
import { enqueueJob } from "../../src/jobs/enqueue";
import { insertReservation } from "../../src/modules/escrow/repo";
import { account, compileFixture, deploy } from "../helpers/chains/anvil";
import { escrowApp } from "../helpers/escrow";
import { drainJobs } from "../helpers/jobs";

const e = await escrowApp();
const { bed, t, team, reserved, expectChainMatches } = e;
const AMOUNT = 5_000_000n;
const ABI = ESCROW_ABI as Abi;
const THREE_MINUTES = 3 * 60_000;

/** The pending row of a reserve whose answer was lost (sent at `created`). */
const lostReserve = (id: string, consent: EscrowConsent, signature: string, created: Date) => ({
  id,
  team_id: team.teamId,
  environment: "development",
  company_id: null,
  network: "anvil",
  contract: bed.contract.toLowerCase(),
  request_nonce: consent.requestNonce,
  payer: consent.payer.toLowerCase(),
  payee: consent.payee.toLowerCase(),
  token: consent.token.toLowerCase(),
  token_symbol: "USDC",
  amount: consent.amount.toString(),
  window_ends_at: new Date(consent.windowEnd * 1000).toISOString(),
  consent_deadline: new Date(consent.deadline * 1000).toISOString(),
  delivery_provider: null,
  consent_signature: signature,
  created_at: created.toISOString(),
});

const reconcile = async () => {
  await enqueueJob(t.db.sql, "escrow.reconcile", {});
  return (await drainJobs(t)).completed.map((j) => j.task);
};

describe("reconcile", () => {
  test("a capture whose answer was lost: the chain's capture (sent by anyone) is recorded with its transaction", async () => {
    const r = await reserved({ windowEnd: (await bed.now()) + 60 });
    await e.elapse(61);
    // As if our capture was sent and the process died before recording it.
    const sentAt = new Date(t.clock.now() - THREE_MINUTES);
    await t.db.sql`update escrow_reservations set pending_action = 'capture', pending_since = ${sentAt} where id = ${r.id}`;
    const receipt = await bed.write(account(7), bed.contract, ABI, "capture", [escrowKey(bed.payee, r.requestNonce)]);
    expect(await reconcile()).toContain("escrow.reconcile");
    const { db } = await expectChainMatches(r.requestNonce);
    expect({ status: db.status, tx: db.capture_tx }).toEqual({ status: "captured", tx: receipt.transactionHash });
  });

  test("a dispute whose answer was lost is recorded with the reason and proof its claim noted", async () => {
    const r = await reserved();
    const sentAt = new Date(t.clock.now() - THREE_MINUTES);
    // As the dispute route claims it, then the operator's call lands and the process dies before recording it.
    await t.db.sql`update escrow_reservations set pending_action = 'dispute', pending_since = ${sentAt},
      dispute_reason = 'Never arrived', disputed_via = 'embed_token' where id = ${r.id}`;
    const receipt = await bed.write(bed.operatorAccount, bed.contract, ABI, "dispute", [
      escrowKey(bed.payee, r.requestNonce),
      `0x${"00".repeat(32)}`,
    ]);
    await reconcile();
    const { db } = await expectChainMatches(r.requestNonce);
    expect({ status: db.status, tx: db.dispute_tx, reason: db.dispute_reason, via: db.disputed_via }).toEqual({
      status: "disputed",
      tx: receipt.transactionHash,
      reason: "Never arrived",
      via: "embed_token",
    });
  });

  test("a call that never reached the chain is released, and what its claim noted is cleared", async () => {
    const r = await reserved();
    const sentAt = new Date(t.clock.now() - THREE_MINUTES);
    await t.db.sql`update escrow_reservations set pending_action = 'dispute', pending_since = ${sentAt},
      dispute_reason = 'Lost', disputed_via = 'signature' where id = ${r.id}`;
    await reconcile();
    const { db } = await expectChainMatches(r.requestNonce);
    expect({ status: db.status, reason: db.dispute_reason, via: db.disputed_via }).toEqual({ status: "authorized", reason: null, via: null });
  });

  test("a reserve whose answer was lost is sent again while its consent holds, and reserves once", async () => {
    const { consent, body } = await e.reservationBody(bed.payer, {}, null);
    const before = await bed.balances();
    const created = new Date(t.clock.now() - THREE_MINUTES);
    await insertReservation(t.db.sql, {
      id: "esc_lostreserve0000000000001",
      team_id: team.teamId,
      environment: "development",
      company_id: null,
      network: "anvil",
      contract: bed.contract.toLowerCase(),
      request_nonce: consent.requestNonce,
      payer: consent.payer.toLowerCase(),
      payee: consent.payee.toLowerCase(),
      token: consent.token.toLowerCase(),
      token_symbol: "USDC",
      amount: consent.amount.toString(),
      window_ends_at: new Date(consent.windowEnd * 1000).toISOString(),
      consent_deadline: new Date(consent.deadline * 1000).toISOString(),
      delivery_provider: null,
      consent_signature: body.signature,
      created_at: created.toISOString(),
    });
    await reconcile();
    const { db } = await expectChainMatches(consent.requestNonce);
    expect(db.status).toBe("authorized");
    expect(await bed.balances()).toEqual({ payer: before.payer - AMOUNT, payee: before.payee, escrow: before.escrow + AMOUNT });
    // The client's retry of the same consent now finds the nonce taken by an authorized reservation: nothing more moves.
    expect((await e.create(body)).status).toBe(409);
    expect((await bed.balances()).escrow).toBe(before.escrow + AMOUNT);
  });

  test("a client's retry of a consent whose reserve lost its answer resumes it once; one in flight is not sent again", async () => {
    const operatorNonce = () => bed.anvil.client.getTransactionCount({ address: bed.operatorAccount.address });
    // In flight: claimed a moment ago by another request, whose send is under way. The retry sends nothing.
    const fresh = await e.reservationBody(bed.payer, {}, null);
    await insertReservation(
      t.db.sql,
      lostReserve("esc_lostreserve0000000000004", fresh.consent, fresh.body.signature, new Date(t.clock.now() - 1000)),
    );
    let sent = await operatorNonce();
    const early = await e.create(fresh.body);
    expect({ status: early.status, reason: early.body.details?.reason }).toEqual({ status: 409, reason: "nonce_used" });
    expect(await operatorNonce()).toBe(sent);
    expect((await e.row(fresh.consent.requestNonce))?.status).toBe("pending");
    // Lost: sent three minutes ago and never recorded. Twin retries at once: one takes it over and reserves, once.
    const { consent, body } = await e.reservationBody(bed.payer, {}, null);
    await insertReservation(t.db.sql, lostReserve("esc_lostreserve0000000000005", consent, body.signature, new Date(t.clock.now() - THREE_MINUTES)));
    const before = await bed.balances();
    sent = await operatorNonce();
    const answers = await Promise.all([e.create(body), e.create(body), e.create(body)]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    expect(answers.find((r) => r.status === 201)!.body.reservation.id).toBe("esc_lostreserve0000000000005");
    expect(await operatorNonce()).toBe(sent + 1);
    const { db } = await expectChainMatches(consent.requestNonce);
    expect(db.status).toBe("authorized");
    expect(await bed.balances()).toEqual({ payer: before.payer - AMOUNT, payee: before.payee, escrow: before.escrow + AMOUNT });
    // The in-flight one never had a sender here: gone, so the later tests' reconcile runs do not send it.
    await t.db.sql`delete from escrow_reservations where id = 'esc_lostreserve0000000000004'`;
  });

  test("a pending reserve is judged by the chain's clock: the server's clock past the deadline drops nothing", async () => {
    const { consent, body } = await e.reservationBody(bed.payer, {}, null);
    const created = new Date(t.clock.now() - THREE_MINUTES);
    await insertReservation(t.db.sql, lostReserve("esc_lostreserve0000000000002", consent, body.signature, created));
    // Our clock runs 20 minutes ahead of the chain's: past the consent's deadline here, not on the chain.
    t.clock.set(t.clock.now() + 20 * 60_000);
    const before = await bed.balances();
    await reconcile();
    await e.syncClock();
    const { db } = await expectChainMatches(consent.requestNonce);
    expect(db.status).toBe("authorized");
    expect(await bed.balances()).toEqual({ payer: before.payer - AMOUNT, payee: before.payee, escrow: before.escrow + AMOUNT });
  });

  test("a pending reserve whose consent expired on the chain (past the margin) is dropped, nothing sent", async () => {
    const { consent, body } = await e.reservationBody(bed.payer, {}, null);
    await insertReservation(t.db.sql, lostReserve("esc_lostreserve0000000000003", consent, body.signature, new Date(t.clock.now())));
    await e.elapse(600 + 301);
    const sent = await bed.anvil.client.getTransactionCount({ address: bed.operatorAccount.address });
    const before = await bed.balances();
    await reconcile();
    expect(await e.row(consent.requestNonce)).toBeUndefined();
    expect(await bed.balances()).toEqual(before);
    expect(await bed.anvil.client.getTransactionCount({ address: bed.operatorAccount.address })).toBe(sent);
  });
});

test("a dispute the payer made on the contract itself is taken over by the capture job, which captures nothing", async () => {
  const r = await reserved({ windowEnd: (await bed.now()) + 60 });
  await bed.write(bed.payer, bed.contract, ABI, "dispute", [escrowKey(bed.payee, r.requestNonce), `0x${"00".repeat(32)}`]);
  await e.elapse(61);
  const before = await bed.balances();
  await enqueueJob(t.db.sql, "escrow.capture_due", {});
  await drainJobs(t);
  const { db } = await expectChainMatches(r.requestNonce);
  expect({ status: db.status, via: db.disputed_via }).toEqual({ status: "disputed", via: "chain" });
  expect(await bed.balances()).toEqual(before);
});

test("two capture jobs running at once capture each reservation once", async () => {
  const windowEnd = (await bed.now()) + 60;
  const made = [];
  for (let i = 0; i < 4; i++) made.push(await reserved({ windowEnd }));
  await e.elapse(61);
  const before = await bed.balances();
  const operatorNonce = () => bed.anvil.client.getTransactionCount({ address: bed.operatorAccount.address });
  const sent = await operatorNonce();
  await enqueueJob(t.db.sql, "escrow.capture_due", {});
  await enqueueJob(t.db.sql, "escrow.capture_due", {});
  await drainJobs(t, {}, { concurrency: 2 });
  for (const r of made) {
    const { db } = await expectChainMatches(r.requestNonce);
    expect(db.status).toBe("captured");
    const captured = await bed.anvil.client.getContractEvents({
      address: bed.contract,
      abi: ESCROW_ABI,
      eventName: "Captured",
      args: { key: escrowKey(bed.payee, r.requestNonce) },
      fromBlock: 0n,
    });
    expect(captured.length).toBe(1);
  }
  expect((await bed.balances()).payee).toBe(before.payee + 4n * AMOUNT);
  // One capture transaction per reservation: a double claim would have sent a second one that reverts (gas spent).
  expect(await operatorNonce()).toBe(sent + made.length);
});

test("a smart account's consent (ERC-1271) is verified through the chain and reserves from the account", async () => {
  const owner = await bed.newPayer();
  const fixtures = await compileFixture("TestSmartAccount.sol");
  const wallet = getAddress(await deploy(bed.anvil, fixtures.TestSmartAccount!, [owner.address]));
  await bed.write(bed.owner, bed.usdc, bed.contracts.TestToken.abi, "mint", [wallet, 10_000_000n]);
  const approve = encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [bed.contract, 10_000_000n] });
  await bed.write(owner, wallet, fixtures.TestSmartAccount!.abi, "execute", [bed.usdc, approve]);
  const { body } = await e.reservationBody(owner, { payer: wallet });
  const res = await e.create(body);
  expect(res.status).toBe(201);
  expect(res.body.reservation.payer).toBe(wallet.toLowerCase());
  expect(await bed.balanceOf(wallet)).toBe(10_000_000n - AMOUNT);
  await expectChainMatches(body.requestNonce);
  // Signed by someone the account does not accept: refused, nothing moves.
  const stranger = await e.reservationBody(bed.otherPayer, { payer: wallet });
  const refused = await e.create(stranger.body);
  expect({ status: refused.status, reason: refused.body.details?.reason }).toEqual({ status: 400, reason: "bad_signature" });
  expect(await bed.balanceOf(wallet)).toBe(10_000_000n - AMOUNT);
});
