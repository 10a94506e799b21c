/**
 * The safety net itself (test/helpers/contract.ts): every response the suite sees is held to the served
 * OpenAPI document, so the checker must fail on each kind of drift, or it would pass anything in silence.
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { contractChecked, contractErrors, contractFrom } from "../helpers/contract";

const t = await createTestApp();
const served = (await t.call("GET", "/openapi.json")).body;
const contract = contractFrom(served);

const json = (body: unknown) => ({ headers: new Headers({ "content-type": "application/json" }), text: JSON.stringify(body) });
const errorsOf = (method: string, path: string, status: number, reply: { headers: Headers; text: string }) =>
  contractErrors(contract, method, `http://localhost/api/v1${path}`, status, reply.headers, reply.text);

test("a documented answer passes: the health check, a coded 401, the generic 404 of an unknown path", () => {
  expect(errorsOf("GET", "/health", 200, json({ status: "ok", database: "ok" }))).toEqual([]);
  expect(errorsOf("GET", "/companies", 401, json({ error: "Missing credentials", code: "missing_credentials" }))).toEqual([]);
  expect(errorsOf("GET", "/nothing/here", 404, json({ error: "Not found" }))).toEqual([]);
});

test("a status the operation does not list is a mismatch", () => {
  const errors = errorsOf("GET", "/health", 402, json({ error: "Payment required", code: "insufficient_credits" }));
  expect(errors).toEqual([expect.stringContaining("does not document status 402")]);
  // A request no operation matches may only get the generic answers.
  expect(errorsOf("GET", "/nothing/here", 200, json({}))).toEqual([expect.stringContaining("no operation matches")]);
});

test("a body that does not match the schema is a mismatch: a missing field, a wrong type, an extra field on an exact error shape", () => {
  expect(errorsOf("GET", "/health", 200, json({ status: "ok" }))).toEqual([expect.stringContaining("missing database")]);
  expect(errorsOf("GET", "/companies", 401, json({ error: 7, code: "missing_credentials" }))).toEqual([expect.stringContaining("/error")]);
  // {error, code} where the document names {error}: the drift a generated client cannot see.
  expect(errorsOf("GET", "/nothing/here", 404, json({ error: "Not found", code: "plan_not_found" }))).toEqual([
    expect.stringContaining("unexpected property code"),
  ]);
  expect(errorsOf("GET", "/companies", 401, json({ error: "x", code: "not_a_code" }))).toEqual([expect.stringContaining("/code")]);
});

test("a media type the document does not list for the status is a mismatch, and so is a JSON body that does not parse", () => {
  const text = { headers: new Headers({ "content-type": "text/plain" }), text: "ok" };
  expect(errorsOf("GET", "/health", 200, text)).toEqual([expect.stringContaining('got content-type "text/plain"')]);
  const broken = { headers: new Headers({ "content-type": "application/json" }), text: "{" };
  expect(errorsOf("GET", "/health", 200, broken)).toEqual(["the body is not JSON"]);
});

test("an x402 header (PAYMENT-*, X-PAYMENT-*) the status does not document is a mismatch; other headers are not checked", () => {
  const withHeaders = (extra: Record<string, string>) => ({
    ...json({ status: "ok", database: "ok" }),
    headers: new Headers({ "content-type": "application/json", ...extra }),
  });
  expect(errorsOf("GET", "/health", 200, withHeaders({ "payment-response": "e30=" }))).toEqual([
    expect.stringContaining("/health 200 does not document the payment-response header"),
  ]);
  expect(errorsOf("GET", "/health", 200, withHeaders({ "x-payment-response": "e30=", "x-request-id": "r" }))).toEqual([
    expect.stringContaining("x-payment-response"),
  ]);
  // POST /usage/consume documents the settlement on every status and the terms on its 402.
  const refused = {
    headers: new Headers({ "content-type": "application/json", "payment-response": "e30=", "payment-required": "e30=" }),
    text: JSON.stringify({ error: "Insufficient credits", code: "insufficient_credits" }),
  };
  expect(errorsOf("POST", "/usage/consume", 402, refused)).toEqual([]);
  const notFound = {
    headers: new Headers({ "content-type": "application/json", "x-payment-response": "e30=" }),
    text: JSON.stringify({ error: "Feature not found" }),
  };
  expect(errorsOf("POST", "/usage/consume", 404, notFound)).toEqual([]);
});

test("the wrapped handler throws on a mismatch, naming method, path, status and what is wrong", async () => {
  // The real server behind a handler that changes one answer: a 200 turned into an undocumented 418.
  const handle = contractChecked(async (request) => {
    if (new URL(request.url).pathname === "/api/v1/health") return Response.json({ error: "teapot" }, { status: 418 });
    return t.app.handle(request);
  });
  const failure = await handle(new Request("http://localhost/api/v1/health")).catch((e: Error) => e);
  expect(failure).toBeInstanceOf(Error);
  expect((failure as Error).message).toContain("GET /api/v1/health answered 418");
  expect((failure as Error).message).toContain("does not document status 418");
});
