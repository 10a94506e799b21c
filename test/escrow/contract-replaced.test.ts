/**
 * A network's escrow contract replaced in the registry while reservations of the old one are held
 * (docs/escrow.md#consistency): every chain call of a row goes to the row's own contract, so the old reservations are
 * captured and resolved where their money is; a chain that holds nothing for a recorded reservation is never written
 * over the row; the public dispute route finds reservations of the network's current contract only; and a dispute
 * signature names its chain, contract and payee, so it is not replayed on another contract or deployment.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { Abi, Address } from "viem";
import { ESCROW_ABI, ESCROW_BYTECODE } from "../../src/chains/evm/escrow-contract";
import { enqueueJob } from "../../src/jobs/enqueue";
import { deploy } from "../helpers/chains/anvil";
import { escrowApp } from "../helpers/escrow";
import { drainJobs } from "../helpers/jobs";

const e = await escrowApp();
const { bed, t, reserved, expectChainMatches, disputeBody } = e;
const AMOUNT = 5_000_000n;
const network = t.config.chains.get("anvil")! as { escrowContract?: string };
const replacement = (await deploy(bed.anvil, { abi: ESCROW_ABI as Abi, bytecode: ESCROW_BYTECODE }, [
  bed.owner.address,
  bed.operatorAccount.address,
])) as Address;
const dispute = (body: Record<string, unknown>) => t.call("POST", "/public/escrow/dispute", { body });

afterEach(() => {
  network.escrowContract = bed.contract;
});

/** `act` changes neither balances, the reservation on chain nor its row. */
async function unchanged(nonce: string, act: () => Promise<void>) {
  const snapshot = async () => {
    const { status, pending_action, updated_at } = (await e.row(nonce)) ?? {};
    return { balances: await bed.balances(), chain: await bed.reservation(nonce), row: { status, pending_action, updated_at } };
  };
  const before = await snapshot();
  await act();
  expect(await snapshot()).toEqual(before);
}

describe("the registry's contract replaced", () => {
  test("a reservation of the old contract is captured there after its window", async () => {
    const r = await reserved({ windowEnd: (await bed.now()) + 60 });
    network.escrowContract = replacement;
    await e.elapse(61);
    const before = await bed.balances();
    await enqueueJob(t.db.sql, "escrow.capture_due", {});
    await drainJobs(t);
    const { db } = await expectChainMatches(r.requestNonce);
    expect({ status: db.status, contract: db.contract }).toEqual({ status: "captured", contract: bed.contract.toLowerCase() });
    expect(await bed.balances()).toEqual({ payer: before.payer, payee: before.payee + AMOUNT, escrow: before.escrow - AMOUNT });
  });

  test("the dispute route finds only the current contract's reservations; the old one is resolved on its own contract", async () => {
    const r = await reserved();
    const reason = "never delivered";
    network.escrowContract = replacement;
    await unchanged(r.requestNonce, async () => {
      // Signed for the old contract: that reservation is not the current contract's, so the route does not find it.
      const old = await dispute(await disputeBody(bed.payer, r.requestNonce, reason));
      expect({ status: old.status, reason: old.body.details?.reason }).toEqual({ status: 403, reason: "not_payer" });
      // Signed for the current contract: no reservation there under this payee and nonce.
      const current = await dispute(await disputeBody(bed.payer, r.requestNonce, reason, { contract: replacement }));
      expect({ status: current.status, body: current.body }).toEqual({ status: 403, body: old.body });
    });
    // Back on the original contract, the payer disputes; the operator resolves after the next replacement, on the old one.
    network.escrowContract = bed.contract;
    expect((await dispute(await disputeBody(bed.payer, r.requestNonce, reason))).status).toBe(200);
    network.escrowContract = replacement;
    const before = await bed.balances();
    const resolved = await t.call("POST", `/escrow/reservations/${r.id}/resolve`, { token: e.team.dashboardAdmin, body: { outcome: "refunded" } });
    expect(resolved.status).toBe(200);
    expect((await expectChainMatches(r.requestNonce)).db.status).toBe("refunded");
    expect(await bed.balances()).toEqual({ payer: before.payer + AMOUNT, payee: before.payee, escrow: before.escrow - AMOUNT });
  });

  test("a chain holding nothing for a recorded reservation is reported, never written over the row", async () => {
    const r = await reserved({ windowEnd: (await bed.now()) + 60 });
    // As if the row named a contract that holds nothing under its key (a wrong address, a reset chain).
    await t.db.sql`update escrow_reservations set contract = ${replacement.toLowerCase()} where id = ${r.id}`;
    await e.elapse(61);
    const before = { balances: await bed.balances(), chain: await bed.reservation(r.requestNonce) };
    await enqueueJob(t.db.sql, "escrow.capture_due", {});
    await drainJobs(t);
    const row = await e.row(r.requestNonce);
    expect({ status: row!.status, pending: row!.pending_action }).toEqual({ status: "authorized", pending: null });
    expect({ balances: await bed.balances(), chain: await bed.reservation(r.requestNonce) }).toEqual(before);
    // A dispute on such a row: the answer is our sentence, not the chain's status name, and the row stays.
    await t.db.sql`update escrow_reservations set status = 'disputed' where id = ${r.id}`;
    const resolved = await t.call("POST", `/escrow/reservations/${r.id}/resolve`, { token: e.team.dashboardAdmin, body: { outcome: "refunded" } });
    expect(resolved.status).toBe(409);
    expect(resolved.body.error).toBe("The escrow contract holds no reservation under this nonce");
    expect(JSON.stringify(resolved.body)).not.toContain("none");
    expect((await e.row(r.requestNonce))!.status).toBe("disputed");
  });
});

describe("dispute signatures name chain, contract and payee", () => {
  test("a signature for another contract, chain or payee disputes nothing", async () => {
    const r = await reserved();
    const reason = "The report was empty";
    await unchanged(r.requestNonce, async () => {
      for (const other of [{ contract: replacement }, { chainId: 1 }, { payee: bed.owner.address }]) {
        // Signed for another deployment, sent as if for this one.
        const { signature } = await disputeBody(bed.payer, r.requestNonce, reason, other);
        const res = await dispute({ ...(await disputeBody(bed.payer, r.requestNonce, reason)), signature });
        expect({ status: res.status, reason: res.body.details?.reason }).toEqual({ status: 403, reason: "not_payer" });
      }
    });
    expect((await dispute(await disputeBody(bed.payer, r.requestNonce, reason))).status).toBe(200);
  });
});
