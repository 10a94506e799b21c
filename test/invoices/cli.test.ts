/**
 * `invoice …` from the operator CLI (subprocesses, as an operator runs them): a draft made, replaced,
 * issued, credited and listed is what the API then shows; bad values exit 2 with the API's 400 naming the
 * field; an unknown invoice exits 1; every change is audited as the operator.
 */
import { expect, test } from "bun:test";
import { createTestApp, TEST_SECRETS } from "../helpers/app";
import { newKey } from "../helpers/fixtures";

const SPAWNS_TIMEOUT = 120_000;
const t = await createTestApp();

function cli(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: t.db.url, ...TEST_SECRETS } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}
function ok(...args: string[]) {
  const r = cli(...args);
  expect(r).toMatchObject({ code: 0, err: "" });
  return JSON.parse(r.out);
}

test(
  "create -> update -> issue -> credit-note -> list and show; the API shows the same; refusals exit 2 or 1",
  async () => {
    const team = ok("team", "create", "--name", "CLI invoices").data.id as string;
    const lines = JSON.stringify([{ description: "Seats", quantity: 3, unitAmount: "12.50", taxRate: "7.25" }]);
    const draft = ok("invoice", "create", "--team", team, "--currency", "USDC", "--lines", lines, "--customer-email", "ap@acme.test").data;
    expect(draft).toMatchObject({ status: "DRAFT", subtotal: "37.500000", taxTotal: "2.718750", total: "40.218750", customerEmail: "ap@acme.test" });
    expect(draft.downloadUrl).toStartWith("http://localhost:3000/api/v1/invoice-documents/");

    const updated = ok(
      "invoice",
      "update",
      "--team",
      team,
      "--id",
      draft.id,
      "--currency",
      "USDC",
      "--lines",
      lines,
      "--payment-terms-days",
      "7",
    ).data;
    expect(updated).toMatchObject({ customerEmail: null, paymentTermsDays: 7 });
    const issued = ok("invoice", "issue", "--team", team, "--id", draft.id).data;
    expect(issued).toMatchObject({ status: "ISSUED", number: "INV-000001" });
    const note = ok("invoice", "credit-note", "--team", team, "--id", draft.id, "--reason", "Outage", "--amount", "0.218750").data;
    expect(note).toMatchObject({ number: "CN-000001", creditAmount: "0.218750" });

    const listed = ok("invoice", "list", "--team", team, "--status", "ISSUED");
    expect(listed).toMatchObject({ count: 1, data: [{ id: draft.id, amountCredited: "0.218750", amountOutstanding: "40.000000" }] });
    expect(ok("invoice", "list", "--team", team, "--q", "inv-000001").data).toHaveLength(1);
    const shown = ok("invoice", "show", "--team", team, "--id", draft.id).data;
    expect(shown.creditNotes).toHaveLength(1);

    const key = (await newKey(t.db.sql, team, "SECRET", "development", t.clock.now())).key;
    const api = await t.call("GET", `/invoices/${draft.id}`, { token: key });
    const { downloadUrl: _a, iso20022DownloadUrl: _b, ...detail } = shown;
    expect(api.body.invoice).toEqual(detail);

    // Bad input: exit 2, the API's 400 body naming the field; nothing written.
    const bad = cli(
      "invoice",
      "create",
      "--team",
      team,
      "--currency",
      "USDC",
      "--lines",
      JSON.stringify([{ description: "x", quantity: 0, unitAmount: "1e3", taxRate: "0" }]),
    );
    expect(bad.code).toBe(2);
    expect(Object.keys(JSON.parse(bad.err).details)).toEqual(["body.lineItems[0].quantity"]);
    const amount = cli(
      "invoice",
      "create",
      "--team",
      team,
      "--currency",
      "USDC",
      "--lines",
      JSON.stringify([{ description: "x", quantity: 1, unitAmount: "1e3", taxRate: "0" }]),
    );
    expect(amount.code).toBe(2);
    expect(JSON.parse(amount.err)).toEqual({ error: "Validation failed", details: { "body.lineItems[0].unitAmount": expect.any(String) } });
    expect(cli("invoice", "create", "--team", team, "--currency", "USDC", "--lines", "[").code).toBe(2);
    expect(cli("invoice", "list", "--team", team, "--status", "paid").code).toBe(2);
    // Refused by the service: exit 1 with its code.
    const voided = cli("invoice", "void", "--team", team, "--id", "in_nothing");
    expect(voided.code).toBe(1);
    expect(JSON.parse(voided.err)).toEqual({ error: "No invoice in_nothing" });
    const again = cli("invoice", "issue", "--team", team, "--id", draft.id);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.err).code).toBe("invoice_not_draft");
    expect((await t.db.sql`select count(*)::int as n from invoices where team_id = ${team}`)[0]!.n).toBe(1);

    const audit = await t.db
      .sql`select action, actor_kind from audit_log where team_id = ${team} and resource_type in ('invoice', 'credit_note') order by chain_seq`;
    expect(audit.map((a) => `${a.action}:${a.actor_kind}`)).toEqual([
      "invoice.create:operator",
      "invoice.update:operator",
      "invoice.issue:operator",
      "credit_note.create:operator",
    ]);
  },
  SPAWNS_TIMEOUT,
);

test(
  "an unknown --team is {error: No team …} (exit 1), never a database error; invoice list pages with --cursor as GET /invoices does",
  async () => {
    for (const args of [
      ["invoice", "create", "--team", "team_nope", "--currency", "USDC"],
      ["invoice", "list", "--team", "team_nope"],
      ["invoice-settings", "set", "--team", "team_nope", "--seller-name", "X"],
      ["settlement-wallet", "set", "--team", "team_nope", "--network", "sepolia", "--wallet", "0x52908400098527886E0F7030069857D2E4169EE7"],
    ])
      expect({ args, ...cli(...args) }).toEqual({ args, code: 1, out: "", err: '{"error":"No team team_nope"}\n' });

    const team = ok("team", "create", "--name", "CLI pages").data.id as string;
    const made = [1, 2, 3].map(() => ok("invoice", "create", "--team", team, "--currency", "USDC").data.id as string);
    const first = ok("invoice", "list", "--team", team, "--limit", "2");
    const cursor = first.nextCursor as string; // (read before toMatchObject: bun writes its matchers into the object)
    expect([first.count, typeof cursor]).toEqual([2, "string"]);
    const second = ok("invoice", "list", "--team", team, "--limit", "2", "--cursor", cursor);
    expect(second).toMatchObject({ count: 1, nextCursor: null });
    expect([...first.data, ...second.data].map((i: { id: string }) => i.id)).toEqual(made.reverse());
    // The API's cursor: bound to the filters, and good for GET /invoices too.
    const otherFilter = cli("invoice", "list", "--team", team, "--status", "DRAFT", "--cursor", cursor);
    expect(otherFilter.code).toBe(2);
    expect(Object.keys(JSON.parse(otherFilter.err).details)).toEqual(["query.cursor"]);
    const key = (await newKey(t.db.sql, team, "SECRET", "development", t.clock.now())).key;
    const api = await t.call("GET", `/invoices?limit=2&cursor=${cursor}`, { token: key });
    expect(api.body.invoices).toEqual(second.data);
  },
  SPAWNS_TIMEOUT,
);
