/** The pages' API client: what it hands the API of the browser's request, and how a refusal reaches a form. */
import { expect, test } from "bun:test";
import { apiFor, fieldErrors, readAll, type ApiAnswer } from "../../src/ui/api";

const refusal = (details?: Record<string, string>): ApiAnswer => ({
  status: 400,
  body: { error: "Validation failed", ...(details ? { details } : {}) },
  setCookie: null,
});

test("a detail naming a posted field goes beside it; one naming no posted field goes above the form with its path", () => {
  const posted = { name: "Pro", amount: "x", csrf: "t" };
  expect(fieldErrors(refusal({ "body.name": "Too long" }), posted)).toEqual({ form: null, fields: { name: "Too long" } });
  expect(fieldErrors(refusal({ "body.name": "Too long", "body.prices[0].amount": "Not an integer" }), posted)).toEqual({
    form: "Validation failed. prices[0].amount: Not an integer",
    fields: { name: "Too long" },
  });
  // A key the prototype holds is not a posted field.
  expect(fieldErrors(refusal({ "body.constructor": "No" }), posted).form).toBe("Validation failed. constructor: No");
});

test("without details the API's error is the form's; without the posted fields every detail is a field's", () => {
  expect(fieldErrors({ status: 409, body: { error: "Already exists" }, setCookie: null }, {})).toEqual({ form: "Already exists", fields: {} });
  expect(fieldErrors({ status: 502, body: null, setCookie: null })).toEqual({ form: "The service answered 502", fields: {} });
  expect(fieldErrors(refusal({ "body.x": "Bad" }))).toEqual({ form: null, fields: { x: "Bad" } });
});

test("apiFor hands the API the browser's cookie and a proxy's headers, the form's CSRF token and key, and nothing else of the browser's", async () => {
  let seen: Request | undefined;
  const api = apiFor(
    (request) => {
      seen = request;
      return Response.json({ data: { ok: true } }, { status: 201, headers: { "set-cookie": "be_session=x" } });
    },
    new Request("http://10.0.0.5:3000/dashboard/features", {
      method: "POST",
      headers: {
        cookie: "be_session=abc",
        "x-forwarded-for": "203.0.113.7",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "billing.example",
        authorization: "Bearer sk_not_for_the_api",
        "x-csrf-token": "from-the-browser",
      },
    }),
  );
  const answer = await api({ method: "POST", path: "/dashboard/features", body: { name: "A" }, csrf: "form-token", idempotencyKey: "k1" });
  expect(answer).toEqual({ status: 201, body: { data: { ok: true } }, setCookie: "be_session=x" });
  expect(seen!.url).toBe("http://10.0.0.5:3000/api/v1/dashboard/features");
  const headers: Record<string, string> = {};
  seen!.headers.forEach((value, name) => {
    headers[name] = value;
  });
  expect(headers).toMatchObject({
    cookie: "be_session=abc",
    "x-forwarded-for": "203.0.113.7",
    "x-forwarded-proto": "https",
    "x-forwarded-host": "billing.example",
    "x-csrf-token": "form-token",
    "idempotency-key": "k1",
    "content-type": "application/json",
  });
  expect(headers.authorization).toBeUndefined();
  expect(await seen!.json()).toEqual({ name: "A" });
});

test("readAll follows the API's cursor to the last page, and answers the first refusal as it came", async () => {
  const asked: string[] = [];
  const pages: Record<string, { data: number[]; nextCursor: string | null }> = {
    "": { data: [1, 2], nextCursor: "c2" },
    c2: { data: [3], nextCursor: "c3" },
    c3: { data: [4], nextCursor: null },
  };
  const api = async ({ path }: { path: string }) => {
    asked.push(path);
    const cursor = new URL(path, "http://x").searchParams.get("cursor") ?? "";
    return { status: 200, body: pages[cursor], setCookie: null };
  };
  expect((await readAll(api, "/dashboard/plans?kind=plan")).body.data).toEqual([1, 2, 3, 4]);
  expect(asked).toEqual([
    "/dashboard/plans?kind=plan&limit=200",
    "/dashboard/plans?kind=plan&limit=200&cursor=c2",
    "/dashboard/plans?kind=plan&limit=200&cursor=c3",
  ]);
  const refusing = async () => ({ status: 403, body: { error: "No" }, setCookie: null });
  expect(await readAll(refusing, "/dashboard/features")).toEqual({ status: 403, body: { error: "No" }, setCookie: null });
});
