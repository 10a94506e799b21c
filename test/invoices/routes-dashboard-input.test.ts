/**
 * The edges of the dashboard's invoice routes: an id that cannot be an invoice's is a 404 on every
 * single-invoice route; answers carrying download links are never cached; a discount cannot raise a total;
 * a customer wallet without a network must still be an address; 400 details say in words what is expected
 * and spell array items with brackets; a credit note is answered as GET then shows it.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";

const t = await createTestApp();
const team = await createTeamFixture(t, "Dashboard invoice input");
const admin = { token: team.dashboardAdmin };
const dash = (method: string, path: string, body?: unknown) => t.call(method, `/dashboard/invoices${path}`, { ...admin, body });
const line = (unitAmount: unknown, extra: Record<string, unknown> = {}) => ({ description: "Line", quantity: 1, unitAmount, taxRate: "0", ...extra });
const draft = (extra: Record<string, unknown> = {}) => ({ currency: "USDC", lineItems: [line("10")], ...extra });

describe("ids", () => {
  test("an id that cannot be an invoice's is 404 {error} on every single-invoice route, before its body is looked at", async () => {
    const logged = t.logs.length;
    const routes: [string, string, unknown][] = [
      ["GET", "/dashboard/invoices/:id", undefined],
      ["PUT", "/dashboard/invoices/:id", { currency: 5 }],
      ["POST", "/dashboard/invoices/:id/issue", undefined],
      ["POST", "/dashboard/invoices/:id/void", undefined],
      ["POST", "/dashboard/invoices/:id/credit-notes", { amount: true }],
      ["POST", "/dashboard/invoices/:id/payments", { txHash: 5 }],
      ["POST", "/invoices/:id/refunds", {}],
      ["POST", "/dashboard/invoices/:id/send", { channel: "fax" }],
      ["GET", "/dashboard/invoices/:id/camt054", undefined],
    ];
    for (const [method, path, body] of routes)
      for (const id of ["in_%00", "in_%FF", "x".repeat(65), "in_a.b"]) {
        const res = await t.call(method, path.replace(":id", id), { ...admin, body });
        expect({ method, path, id, status: res.status, body: res.body }).toEqual({
          method,
          path,
          id,
          status: 404,
          body: { error: "No such invoice" },
        });
      }
    expect(t.logs.slice(logged).filter((l) => l.includes('"status":500'))).toEqual([]);
  });
});

test("every answer carrying download links is Cache-Control: private, no-store", async () => {
  const created = await dash("POST", "", draft());
  const id = created.body.data.id as string;
  const answers = [created, await dash("GET", `/${id}`), await dash("PUT", `/${id}`, draft()), await dash("POST", `/${id}/issue`)];
  const other = (await dash("POST", "", draft())).body.data.id as string;
  answers.push(await dash("POST", `/${other}/void`));
  expect(answers.map((a) => [a.status, a.body.data.downloadUrl !== undefined, a.headers.get("cache-control")])).toEqual([
    [201, true, "private, no-store"],
    [200, true, "private, no-store"],
    [200, true, "private, no-store"],
    [200, true, "private, no-store"],
    [200, true, "private, no-store"],
  ]);
});

describe("lines and wallets", () => {
  test("a discount cannot raise the total (400 naming its unitAmount); an item may be negative", async () => {
    const refused = await dash("POST", "", draft({ lineItems: [line("10"), line("2", { kind: "discount" }), line("-1", { kind: "discount" })] }));
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual({
      "body.lineItems[1].unitAmount": "Expected 0 or a negative amount on a discount line (a discount lowers the total)",
    });
    const negativeItem = await dash("POST", "", draft({ lineItems: [line("10"), line("-3", { kind: "item" }), line("-1")] }));
    expect(negativeItem.status).toBe(201);
    expect(negativeItem.body.data.lineItems.map((l: { kind: string }) => l.kind)).toEqual(["item", "item", "discount"]);
    expect(negativeItem.body.data.total).toBe("6.000000");
  });

  test("customerWallet without a network: an address of the family of some network in the registry", async () => {
    for (const wallet of ["0xnot", "not a wallet", "0x52908400098527886e0F7030069857D2E4169EE7" /* checksum typo */]) {
      const res = await dash("POST", "", draft({ customerWallet: wallet }));
      expect({ wallet, status: res.status, fields: Object.keys(res.body.details ?? {}) }).toEqual({
        wallet,
        status: 400,
        fields: ["body.customerWallet"],
      });
    }
    for (const wallet of [
      "0x52908400098527886E0F7030069857D2E4169EE7",
      "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H",
      "So11111111111111111111111111111111111111112",
    ]) {
      const res = await dash("POST", "", draft({ customerWallet: wallet }));
      expect({ wallet, status: res.status }).toEqual({ wallet, status: 201 });
    }
  });
});

describe("400 details", () => {
  test("say what is expected in words (never 'Expected union value') and spell array items with brackets", async () => {
    const invoice = await dash("POST", "", {
      currency: "USDC",
      lineItems: [{ description: "x", quantity: 1, unitAmount: true, taxRate: "0", kind: "credit" }],
      customerEmail: "not-an-email",
      customerName: "n".repeat(201),
      network: 5,
    });
    expect(invoice.body.details).toEqual({
      "body.lineItems[0].unitAmount": 'Expected a decimal string with at most 6 fractional digits ("12.50"), or a JSON number a double holds exactly',
      "body.lineItems[0].kind": "Expected one of: item, discount",
      "body.customerEmail": "Expected an email address of at most 320 characters or null",
      "body.customerName": "Expected a string of at most 200 characters or null",
      "body.network": "Expected a string of 1 to 64 characters or null",
    });
    const id = (await dash("POST", "", draft({ issue: true }))).body.data.id as string;
    const note = await dash("POST", `/${id}/credit-notes`, { reason: "x", amount: "1", memo: "m".repeat(2001), lineItems: [{ description: "y" }] });
    expect(note.body.details).toEqual({
      "body.memo": "Expected a string of at most 2000 characters or null",
      "body.lineItems[0].amount": 'Expected a decimal string with at most 6 fractional digits ("12.50"), or a JSON number a double holds exactly',
    });
    const settings = await t.call("PUT", "/dashboard/invoice-settings", { ...admin, body: { sellerName: " ", sellerEmail: "nope" } });
    expect(settings.body.details).toEqual({
      "body.sellerName": "Expected a string of 1 to 200 characters, not all whitespace, or null",
      "body.sellerEmail": "Expected an email address of at most 320 characters or null",
    });
    const send = await t.call("POST", `/dashboard/invoices/${id}/send`, { ...admin, body: { channel: "fax", to: "nope" } });
    expect(send.body.details).toEqual({
      "body.channel": "Expected one of: email, webhook",
      "body.to": "Expected an email address of at most 320 characters",
    });
    const refund = await t.call("POST", `/invoices/${id}/refunds`, { ...admin, body: { amount: [], reason: "r", refundProof: { txHash: "h" } } });
    expect(Object.values(refund.body.details)).not.toContain("Expected union value");
    expect(Object.keys(refund.body.details).sort()).toEqual(["body.amount", "body.refundProof.recipientWallet"]);
  });
});

test("a credit note is answered as GET /invoices/{id} shows it, the fifth as the first", async () => {
  const id = (await dash("POST", "", draft({ lineItems: [line("100")], issue: true }))).body.data.id as string;
  const answers = [];
  for (let i = 1; i <= 5; i++)
    answers.push((await dash("POST", `/${id}/credit-notes`, { reason: `Credit ${i}`, amount: `${i}`, memo: i === 5 ? "Last" : null })).body.data);
  answers.push(
    (
      await dash("POST", `/${id}/credit-notes`, {
        reason: "Two lines",
        amount: "3",
        lineItems: [
          { description: "a", amount: "1" },
          { description: "b", amount: "2" },
        ],
      })
    ).body.data,
  );
  expect((await dash("GET", `/${id}`)).body.data.creditNotes).toEqual(answers);
});
