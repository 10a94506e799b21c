/**
 * `invoice refund` as an operator runs it, against anvil: a subprocess over the test database and the same
 * chain registry, verifying the transaction through its own chain worker before recording anything.
 */
import { expect, test } from "bun:test";
import { anvilRefundBed } from "../helpers/chains/anvil-refunds";
import { TEST_SECRETS } from "../helpers/app";
import { NOTHING_RECORDED } from "../helpers/refunds";

const { bed, usdc, merchant, stranger, customer, send, confirm } = await anvilRefundBed();

async function cli(...args: string[]) {
  const p = Bun.spawn([process.execPath, "src/cli.ts", ...args], {
    env: { ...process.env, DATABASE_URL: bed.t.db.url, CHAIN_REGISTRY_FILE: bed.registryFile, ...TEST_SECRETS },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

const options = (tx: string) => ["--team", bed.team.teamId, "--amount", "2.5", "--reason", "Goodwill", "--tx", tx, "--to", customer];

test("invoice refund <id>: a verified transfer from the settlement wallet is recorded and printed as the API's Refund", async () => {
  const invoice = await bed.paidInvoice("anvil", 10_000_000n);
  const hash = await send(merchant, usdc, customer, 2_500_000n);
  await confirm();
  const r = await cli("invoice", "refund", invoice, ...options(hash));
  expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
  expect(JSON.parse(r.out).data).toMatchObject({ invoiceId: invoice, amount: "2.500000", tokenAmount: "2500000", txHash: hash, reason: "Goodwill" });
  expect(await bed.recorded(invoice)).toEqual({ refunds: 1, creditNotes: 1, amountRefunded: "2500000", refundEvents: 1, audits: 1 });
  const [audit] = await bed.t.db.sql`select actor_kind from audit_log where action = 'refund.create' and details ->> 'invoiceId' = ${invoice}`;
  expect(audit!.actor_kind).toBe("operator");
}, 60_000);

test("a proof the chain refutes exits 1 with the API's error; bad input exits 2; nothing is recorded", async () => {
  const invoice = await bed.paidInvoice("anvil", 10_000_000n);
  const hash = await send(stranger, usdc, customer, 2_500_000n);
  await confirm();
  const refused = await cli("invoice", "refund", "--invoice", invoice, ...options(hash));
  expect({ code: refused.code, out: refused.out }).toEqual({ code: 1, out: "" });
  expect(JSON.parse(refused.err)).toEqual({ error: expect.any(String), code: "wrong_sender" });
  const bad = await cli("invoice", "refund", invoice, ...options(hash).map((v) => (v === "2.5" ? "2.5000001" : v)));
  expect(bad.code).toBe(2);
  expect(Object.keys(JSON.parse(bad.err).details)).toEqual(["body.amount"]);
  const extra = await cli("invoice", "refund", invoice, "another", ...options(hash));
  expect(extra.code).toBe(2);
  expect(JSON.parse(extra.err).error).toContain("Unexpected argument 'another'");
  expect(await bed.recorded(invoice)).toEqual(NOTHING_RECORDED);
}, 60_000);
