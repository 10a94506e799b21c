/**
 * The OpenAPI document generates a typed client that compiles: openapi-typescript turns the live
 * document (fetched through the app) into types, and tsc checks a file that uses them as a client
 * would: named resources, operations by operationId, request bodies and error shapes.
 */
import { expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import openapiTS, { astToString } from "openapi-typescript";
import { createTestApp } from "../helpers/app";

const t = await createTestApp();

const USAGE = `import type { components, operations, paths } from "./api";

type Company = components["schemas"]["Company"];
const id: string = ({} as Company).id;
// @ts-expect-error the generated Company.id is a string, not a number
const wrong: number = ({} as Company).id;

type CompanyPage = operations["listCompanies"]["responses"][200]["content"]["application/json"];
const companies: Company[] = ({} as CompanyPage).data;
const next: string | null = ({} as CompanyPage).nextCursor;

type Check = paths["/api/v1/check"]["get"]["responses"][200]["content"]["application/json"];
const access: boolean = ({} as Check).data.access;
const checkQuery: operations["checkFeature"]["parameters"]["query"] = { feature: "api-calls", company: "acme" };

type Patch = NonNullable<operations["updateCompany"]["requestBody"]>["content"]["application/json"];
const patch: Patch = { name: "Acme", traits: { seats: 3 } };
const notFound: components["schemas"]["Error"] = {} as operations["updateCompany"]["responses"][404]["content"]["application/json"];
const coded: components["schemas"]["CodedError"]["code"] = "limit_reached";
// @ts-expect-error rate_limited is answered as {error}, never with a code
const uncoded: components["schemas"]["CodedError"]["code"] = "rate_limited";
type Token = operations["createAccessToken"]["responses"][201]["content"]["application/json"];
const token: string = ({} as Token).token;

export { id, wrong, companies, next, access, checkQuery, patch, notFound, coded, uncoded, token };
`;

test("openapi-typescript generates a client from GET /openapi.json that tsc compiles with its usages", async () => {
  const doc = (await t.call("GET", "/openapi.json")).body;
  const dir = await mkdtemp(`${tmpdir()}/openapi-client-`);
  try {
    await Bun.write(`${dir}/api.ts`, astToString(await openapiTS(doc)));
    await Bun.write(`${dir}/usage.ts`, USAGE);
    const tsc = Bun.spawn(
      [
        `${process.cwd()}/node_modules/.bin/tsc`,
        "--noEmit",
        "--strict",
        "--target",
        "es2022",
        "--module",
        "esnext",
        "--moduleResolution",
        "bundler",
        // TypeScript's own lib .d.ts files need no checking; the generated api.ts and usage.ts are .ts and still are (halves the run).
        "--skipLibCheck",
        "usage.ts",
      ],
      // Run in the temp folder: no tsconfig or @types of the project applies, only the generated client.
      { cwd: dir, stdout: "pipe", stderr: "pipe" },
    );
    const output = (await new Response(tsc.stdout).text()) + (await new Response(tsc.stderr).text());
    expect({ exit: await tsc.exited, output }).toEqual({ exit: 0, output: "" });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
