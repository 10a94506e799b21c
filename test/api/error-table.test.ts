/** The one error table (src/lib/errors.ts) is what docs/api/errors.md and the OpenAPI document say, code for code. */
import { expect, test } from "bun:test";
import { CODED_ERROR_CODES, ERRORS } from "../../src/lib/errors";
import { createTestApp } from "../helpers/app";

const SHAPES = { error: "`{error}`", code: "`{error, code}`", details: "`{error, details}`" } as const;

test("docs/api/errors.md lists every code of the table with its status and body shape, and no other", async () => {
  const page = await Bun.file(new URL("../../docs/api/errors.md", import.meta.url)).text();
  const rows = [...page.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \| (`\{[^`]+\}`) \|/gm)].map(([, code, status, shape]) => [code, Number(status), shape]);
  expect(rows).toEqual(Object.entries(ERRORS).map(([code, kind]) => [code, kind.status, SHAPES[kind.shape]]));
});

test("the OpenAPI document lists the table, and its code enum is exactly the codes whose body carries one", async () => {
  const t = await createTestApp();
  const doc = (await t.call("GET", "/openapi.json")).body;
  expect(doc["x-error-codes"]).toEqual(Object.entries(ERRORS).map(([code, kind]) => ({ code, ...kind })));
  expect(doc.paths["/api/v1/companies"].get.responses["401"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/CodedError" });
  const coded = doc.components.schemas.CodedError.properties.code;
  const values = coded.enum ?? coded.anyOf.map((branch: { const: string }) => branch.const);
  expect([...values].sort()).toEqual([...CODED_ERROR_CODES].sort());
  expect(values).not.toContain("rate_limited");
  expect(Object.keys(doc.paths["/api/v1/check"].get.responses["429"].headers)).toEqual([
    "Retry-After",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
  ]);
});
