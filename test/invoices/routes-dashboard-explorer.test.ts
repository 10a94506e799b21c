/**
 * The dashboard's invoice answer links each payment's and refund's transaction to its network's explorer (the
 * chain registry's `explorerTxUrl`); the public GET /invoices/{id} keeps the spec's record, without it.
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { issuedInvoice, line, payInvoice } from "../helpers/invoices";

const t = await createTestApp();
const team = await createTeamFixture(t, "Explorer links");
const dev = { teamId: team.teamId, environment: "development" as const };
const now = () => new Date(t.clock.now());

test("a payment on base-sepolia carries its basescan page in the dashboard's answer, not in the public record", async () => {
  const invoice = await issuedInvoice(t.db.sql, t.config.chains, dev, now(), [line(5_000_000n)]);
  await payInvoice(t.db.sql, t.config.chains, dev, now(), invoice.id, 2_000_000n, "base-sepolia");
  const res = await t.call("GET", `/dashboard/invoices/${invoice.id}`, { token: team.dashboardAdmin });
  expect(res.status).toBe(200);
  const [payment] = res.body.data.payments;
  expect(payment.explorerUrl).toBe(`https://sepolia.basescan.org/tx/${payment.txHash}`);
  const open = await t.call("GET", `/invoices/${invoice.id}`, { token: team.dashboardAdmin });
  expect(open.status).toBe(200);
  expect(open.body.invoice.payments[0].explorerUrl).toBeUndefined();
});
