/**
 * GET /invoice-documents/{token}: the signed link is the only credential. A valid link serves the PDF or the
 * pain.013, uncached; a tampered one, one signed by another secret or for another purpose or kind is 403
 * document_link_invalid, an expired one 410 document_link_expired, and neither says anything about the
 * invoice. GET /dashboard/invoices/{id}/camt054 (billing:read) exports the payments as camt.054.
 */
import { describe, expect, test } from "bun:test";
import { extractText, getDocumentProxy } from "unpdf";
import { createTestApp } from "../helpers/app";
import { serverFetch } from "../../src/app";
import { contractChecked } from "../helpers/contract";
import { createTeamFixture } from "../helpers/fixtures";
import { configureSeller, paidInvoice } from "../helpers/invoice-documents";
import { textsOf, xsdErrors } from "../helpers/iso20022";
import { DOCUMENT_PATH, signDocumentToken, type DocumentKind } from "../../src/modules/invoices/documents/tokens";
import { signPayload } from "../../src/lib/hash";
import { findInvoice } from "../../src/modules/invoices/repo";
import type { Tenant } from "../../src/lib/tenant";

const t = await createTestApp();
const sql = t.db.sql;
const team = await createTeamFixture(t);
const tenant: Tenant = { teamId: team.teamId, environment: "development" };
const now = new Date(t.clock.now());
await configureSeller(sql, tenant);
const paid = await paidInvoice(sql, t.config.chains, tenant, now);
const number = (await findInvoice(sql, tenant, paid.id))!.number;
const secret = t.config.linkSigningSecret;
const link = (kind: DocumentKind, options: { invoiceId?: string; at?: Date; ttl?: number; who?: Tenant; key?: string } = {}) =>
  signDocumentToken(
    options.key ?? secret,
    { tenant: options.who ?? tenant, invoiceId: options.invoiceId ?? paid.id, kind },
    options.at ?? new Date(t.clock.now()),
    options.ttl,
  );
// The server's own handler, read as bytes (the PDF is binary); JSON refusals parsed.
const handle = contractChecked(serverFetch(t.deps, t.app));
async function download(token: string, headers: Record<string, string> = {}) {
  const res = await handle(new Request(`http://localhost${DOCUMENT_PATH}/${token}`, { headers }));
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  const body = res.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, bytes, body };
}

/** A refusal that names nothing of the invoice and is not cached. */
function expectOpaqueRefusal(res: Awaited<ReturnType<typeof download>>, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: expect.any(String), code });
  for (const secretThing of [paid.id, number, team.teamId, "Globex"]) expect(JSON.stringify(res.body)).not.toContain(secretThing);
  expect(res.headers.get("cache-control")).toBe("private, no-store");
}

describe("GET /invoice-documents/{token}", () => {
  test("200 pdf: application/pdf, inline with the invoice number as file name, uncached, the invoice's text", async () => {
    const res = await download(link("pdf"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="${number}.pdf"`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const { text } = await extractText(await getDocumentProxy(res.bytes), { mergePages: true });
    expect(text).toContain(number);
    expect(text).toContain(paid.paymentHashes[0]!);
  });

  test("200 pain013: application/xml, valid against the XSD, for the link's invoice", async () => {
    const res = await download(link("pain013"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="${number}.pain013.xml"`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const xml = res.body as string;
    expect(await xsdErrors("pain.013.001.08", xml)).toEqual([]);
    expect(textsOf(xml, "EndToEndId")).toEqual([number]);
  });

  test("no credential needed, and one sent changes nothing (the link is the credential)", async () => {
    expect((await download(link("pdf"), { authorization: "Bearer sk_test_nothing" })).status).toBe(200);
  });

  test("403 document_link_invalid: tampered signature, tampered claims, garbage", async () => {
    const token = link("pdf");
    const [body, signature] = token.split(".") as [string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    // Another invoice's id in the claims, signed with the original signature.
    const otherClaims = btoa(atob(body.replace(/-/g, "+").replace(/_/g, "/")).replace(paid.id, "in_someoneelse0000000000000"))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    for (const bad of [`${body}.${flip(signature, 3)}`, `${flip(body, 5)}.${signature}`, `${otherClaims}.${signature}`, "x", `${token}.x`])
      expectOpaqueRefusal(await download(bad), 403, "document_link_invalid");
  });

  test("403 document_link_invalid: signed by another secret, for another purpose, or naming a kind that is not a link's", async () => {
    expectOpaqueRefusal(await download(link("pdf", { key: "another-link-signing-secret-0123456789" })), 403, "document_link_invalid");
    const claims = { t: team.teamId, e: "development", i: paid.id, k: "pdf", x: Math.floor(t.clock.now() / 1000) + 3600 };
    expectOpaqueRefusal(await download(signPayload(secret, "cursor", claims)), 403, "document_link_invalid");
    expectOpaqueRefusal(await download(signPayload(secret, "invoice-document", { ...claims, k: "camt054" })), 403, "document_link_invalid");
    // Even signed with the secret, claims that are not our ids' shape reach no query (a NUL was a 500 from PostgreSQL).
    for (const bad of [{ i: "in_\u0000" }, { i: "x".repeat(65) }, { t: "team_\u0000" }])
      expectOpaqueRefusal(await download(signPayload(secret, "invoice-document", { ...claims, ...bad })), 403, "document_link_invalid");
  });

  test("the request's log line names the route, never the token (the link is the credential)", async () => {
    const token = link("pdf");
    const requestId = "document-download-log-1";
    expect((await download(token, { "x-request-id": requestId })).status).toBe(200);
    // Written after the response, so looked for a moment.
    const logLine = () => t.logs.map((l) => JSON.parse(l)).find((l) => l.msg === "request" && l.requestId === requestId);
    for (let i = 0; i < 50 && !logLine(); i++) {
      await Bun.sleep(10);
      t.logger.flush();
    }
    expect(logLine()).toMatchObject({ method: "GET", path: `${DOCUMENT_PATH}/:token`, status: 200 });
    for (const part of [token, token.slice(0, 40), token.slice(-43)]) expect(t.logs.join("\n")).not.toContain(part);
  });

  test("400 path.token for a token over 1024 characters, before any signature work; 1024 is still a 403", async () => {
    const long = await download("A".repeat(1025));
    expect(long.status).toBe(400);
    expect(Object.keys(long.body.details)).toEqual(["path.token"]);
    expectOpaqueRefusal(await download("A".repeat(1024)), 403, "document_link_invalid");
  });

  test("410 document_link_expired once its time has passed (and not a second before)", async () => {
    const token = link("pdf", { ttl: 60 });
    expect((await download(token)).status).toBe(200);
    t.clock.advance(59_000);
    expect((await download(token)).status).toBe(200);
    t.clock.advance(1_000);
    expectOpaqueRefusal(await download(token), 410, "document_link_expired");
    expectOpaqueRefusal(await download(link("pain013", { at: new Date(t.clock.now() - 25 * 3600_000) })), 410, "document_link_expired");
  });

  test("404 for a valid link whose invoice is not the tenant's (another team or environment) or does not exist", async () => {
    const other = await createTeamFixture(t);
    for (const token of [
      link("pdf", { who: { teamId: other.teamId, environment: "development" } }),
      link("pdf", { who: { ...tenant, environment: "production" } }),
      link("pain013", { invoiceId: "in_doesnotexist" }),
    ]) {
      const res = await download(token);
      expect(res.status).toBe(404);
      expect(Object.keys(res.body)).toEqual(["error"]);
    }
  });
});

describe("GET /dashboard/invoices/{id}/camt054", () => {
  test("200 with billing:read: every payment and refund, valid camt.054, as an attachment", async () => {
    const res = await t.call("GET", `/dashboard/invoices/${paid.id}/camt054`, { token: team.dashboardAdmin });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${number}.camt054.xml"`);
    const xml = res.body as string;
    expect(await xsdErrors("camt.054.001.08", xml)).toEqual([]);
    expect(textsOf(xml, "AddtlNtryInf")).toEqual([...paid.paymentHashes, paid.refundHash].map((h) => `Tx ${h} on base-sepolia`));
  });

  test("403 without billing:read, 401 without a session, 404 for another team's or an unknown invoice", async () => {
    const catalog = await t.call("GET", `/dashboard/invoices/${paid.id}/camt054`, { token: team.dashboardCatalog });
    expect(catalog.status).toBe(403);
    expect(catalog.body.code).toBe("missing_permission");
    expect((await t.call("GET", `/dashboard/invoices/${paid.id}/camt054`, { token: team.keys.secret })).status).toBe(403);
    expect((await t.call("GET", `/dashboard/invoices/${paid.id}/camt054`)).status).toBe(401);
    const other = await createTeamFixture(t);
    for (const id of [paid.id, "in_unknown"]) {
      const res = await t.call("GET", `/dashboard/invoices/${id}/camt054`, { token: other.dashboardAdmin });
      expect(res.status).toBe(404);
    }
  });
});
