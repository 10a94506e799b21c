/**
 * The bed the escrow flow tests share: the anvil escrow chain (test/helpers/chains/anvil-escrow.ts), a test app whose
 * registry names it, whose chain workers hold its operator key and which trusts the zkTLS test attestors, a team with
 * its settlement wallet on anvil (the bed's payee) and a company "acme", and what the tests create reservations with.
 * The service's clock follows the chain's (`syncClock`), so windows and deadlines agree on both sides.
 */
import { afterAll, expect } from "bun:test";
import type { HDAccount } from "viem/accounts";
import { disputeText, type DisputeTerms } from "../../src/modules/escrow/compute";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { createTestApp } from "./app";
import { anvilEscrowBed, type ConsentTerms } from "./chains/anvil-escrow";
import { createTeamFixture } from "./fixtures";
import { TEST_ATTESTORS } from "./zktls";

/** `env`: more of the test app's environment (the dashboard's browser tests turn the cookie's Secure off). */
export async function escrowApp(env: Record<string, string> = {}) {
  const bed = await anvilEscrowBed();
  afterAll(() => bed.stop());
  const t = await createTestApp({
    CHAIN_REGISTRY_FILE: bed.registryFile,
    SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey,
    ZKTLS_ATTESTORS: TEST_ATTESTORS,
    ...env,
  });
  const team = await createTeamFixture(t, "Escrow team");
  const tenant = { teamId: team.teamId, environment: "development" as const };
  const actor = { kind: "test", id: "test", requestId: null };
  await setSettlementWallet({ sql: t.db.sql, registry: t.config.chains }, { tenant, actor, now: new Date(t.clock.now()) }, "anvil", {
    wallet: bed.payee,
  });
  const identify = await t.call("POST", "/events", {
    token: team.keys.legacy,
    body: { event_type: "identify", company: { id: "acme", name: "Acme" } },
  });
  expect(identify.status).toBe(200);
  const syncClock = async () => t.clock.set((await bed.now()) * 1000);
  await syncClock();

  /** A signed consent and the API body that carries it (`company`: the integrator's company id, default acme). */
  async function reservationBody(
    signer: HDAccount = bed.payer,
    terms: Partial<ConsentTerms> & { payer?: `0x${string}` } = {},
    company: string | null = "acme",
  ) {
    const { consent, signature } = await bed.consent(signer, terms);
    return {
      consent,
      body: {
        network: "anvil",
        token: "USDC",
        payer: consent.payer,
        amount: consent.amount.toString(),
        requestNonce: consent.requestNonce,
        windowEnd: consent.windowEnd,
        deadline: consent.deadline,
        signature,
        ...(terms.deliveryProvider ? { deliveryProvider: terms.deliveryProvider } : {}),
        ...(company ? { company: { id: company } } : {}),
      },
    };
  }
  const create = (body: unknown, token = team.keys.secret, headers: Record<string, string> = {}) =>
    t.call("POST", "/escrow/reservations", { token, body, headers });
  /** Creates a reservation of the bed's payer; returns the API's reservation. */
  async function reserved(terms: Partial<ConsentTerms> = {}, signer: HDAccount = bed.payer) {
    const { body } = await reservationBody(signer, terms);
    const res = await create(body);
    expect(res.status).toBe(201);
    return res.body.reservation as { id: string; requestNonce: string; status: string; [k: string]: unknown };
  }
  const row = async (nonce: string) => (await t.db.sql`select * from escrow_reservations where request_nonce = ${nonce}`)[0];
  /** The chain's reservation and the database's row agree: status, parties, amount, window. */
  async function expectChainMatches(nonce: string) {
    const chain = await bed.reservation(nonce);
    const db = await row(nonce);
    expect(db).toBeDefined();
    expect({
      status: db!.status === "pending" ? "none" : db!.status,
      payer: db!.payer,
      payee: db!.payee,
      token: db!.token,
      amount: BigInt(db!.amount),
      windowEnd: (db!.window_ends_at as Date).getTime() / 1000,
      pending: db!.pending_action,
    }).toEqual({
      status: chain.status,
      payer: chain.payer.toLowerCase(),
      payee: chain.payee.toLowerCase(),
      token: chain.token.toLowerCase(),
      amount: chain.amount,
      windowEnd: chain.windowEnd,
      pending: null,
    });
    return { chain, db: db! };
  }
  /** Moves the chain's clock and the service's together. */
  async function elapse(seconds: number) {
    await bed.elapse(seconds);
    await syncClock();
  }
  /** `signer`'s signature of the dispute text; by default it names the bed's network, chain, contract and payee. */
  const signDispute = (signer: HDAccount, requestNonce: string, failureReason: string, at: Partial<DisputeTerms> = {}) =>
    signer.signMessage({
      message: disputeText({ network: "anvil", chainId: 31337, contract: bed.contract, payee: bed.payee, requestNonce, failureReason, ...at }),
    });
  /** A signed dispute body as the payer's client sends it. */
  const disputeBody = async (signer: HDAccount, requestNonce: string, failureReason: string, at: Partial<DisputeTerms> = {}) => ({
    requestNonce,
    failureReason,
    network: at.network ?? "anvil",
    payee: at.payee ?? bed.payee,
    signature: await signDispute(signer, requestNonce, failureReason, at),
  });
  return { bed, t, team, tenant, syncClock, reservationBody, create, reserved, row, expectChainMatches, elapse, signDispute, disputeBody };
}
