/**
 * checkout_session.paid and payment_link.paid, emitted in the settlement transaction that marks a session
 * PAID. The chain verdict is given directly to applyVerdict (the settlement step after the chain worker),
 * so no chain is needed: the session is opened and submitted through the API on a network whose node is down.
 */
import { afterAll, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs } from "../helpers/jobs";
import { applyVerdict } from "../../src/modules/payments/settle";
import { OPERATOR } from "../../src/modules/teams/roles";
import { randomToken } from "../../src/lib/ids";
import { startReceiver } from "./receiver";

const registryFile = `${process.cwd()}/.data/test/webhook-registry-${randomToken(8)}.json`;
await Bun.write(
  registryFile,
  JSON.stringify([
    {
      id: "hook-chain",
      family: "evm",
      testnet: true,
      chainId: 31998,
      rpcUrl: "http://127.0.0.1:9",
      confirmations: 1,
      tokens: [{ symbol: "USDC", decimals: 6, contract: `0x${"1".repeat(40)}` }],
    },
  ]),
);
const t = await createTestApp({ CHAIN_REGISTRY_FILE: registryFile, WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true" });
const receiver = startReceiver();
afterAll(() => receiver.stop());

test("a paid checkout session sends checkout_session.paid and payment_link.paid with the API's records", async () => {
  const team = await createTeamFixture(t);
  const tenant = { teamId: team.teamId, environment: "development" as const };
  const created = await t.call("POST", "/dashboard/webhooks/endpoints", {
    token: team.dashboardAdmin,
    body: { url: `${receiver.url}/pay`, eventTypes: ["checkout_session.paid", "payment_link.paid"] },
  });
  receiver.secrets = [created.body.data.secret];
  const sk = team.keys.secret;
  const link = (
    await t.call("POST", "/payment-links", {
      token: sk,
      body: { amount: "1000000", network: "hook-chain", acceptedToken: "USDC", recipientWallet: `0x${"2".repeat(40)}` },
    })
  ).body.paymentLink;
  const session = (await t.call("POST", "/checkout-sessions", { token: sk, body: { paymentLinkId: link.id } })).body.checkoutSession;
  const txHash = `0x${"ab".repeat(32)}`;
  expect((await t.call("POST", `/checkout-sessions/${session.id}/payments`, { token: sk, body: { txHash } })).status).toBe(202);
  await drainJobs(t);
  expect(receiver.received).toHaveLength(0); // CONFIRMING is no event
  const payer = `0x${"3".repeat(40)}`;
  const outcome = await applyVerdict(t.deps.settlement, { tenant, actor: OPERATOR, now: new Date(t.clock.now()) }, session.id, {
    txHash,
    verdict: { ok: true, transfers: [{ transferIndex: 0, amount: 1_000_000n, payer }], blockNumber: 7n, blockHash: `0x${"cd".repeat(32)}` } as never,
  });
  expect(outcome.kind).toBe("paid");
  await drainJobs(t);
  expect(receiver.received.map((r) => JSON.parse(r.body).type).sort()).toEqual(["checkout_session.paid", "payment_link.paid"]);
  expect(receiver.received.every((r) => r.verifiedBy.length === 1)).toBe(true);
  const byType = Object.fromEntries(receiver.received.map((r) => [JSON.parse(r.body).type, JSON.parse(r.body).data]));
  const paid = (await t.call("GET", `/checkout-sessions/${session.id}`, { token: team.keys.legacy })).body.checkoutSession;
  expect(paid.status).toBe("PAID");
  expect(byType["checkout_session.paid"]).toEqual(paid);
  expect(byType["payment_link.paid"]).toEqual({
    paymentLink: (await t.call("GET", `/payment-links/${link.id}`, { token: sk })).body.paymentLink,
    checkoutSession: paid,
  });
});
