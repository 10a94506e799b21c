/**
 * Log lines never carry a body or a credential: an unhandled error (here a response that fails its schema,
 * whose Elysia error held the whole answer, a working download link and a customer email included) is logged
 * by class, message and frames; a document link's token is masked on the normalized path however the path
 * is spelled (an empty segment, another case, escapes), refused or not.
 */
import { expect, test } from "bun:test";
import { Elysia, t as T } from "elysia";
import { createTestApp } from "../helpers/app";
import { serverFetch } from "../../src/app";
import { requestContext } from "../../src/http/request-context";
import { errorHandler } from "../../src/http/errors";
import { randomToken } from "../../src/lib/ids";

const t = await createTestApp();
const handle = serverFetch(t.deps, t.app);

const TOKEN = `v1.${randomToken(60)}.${randomToken(43)}`;
const DOWNLOAD_URL = `https://billing.example/api/v1/invoice-documents/${TOKEN}`;
const EMAIL = "jane.customer@example.com";

/** The lines written since `from`; the request line is written after the answer is sent, so a moment later. */
const logged = async (from: number) => {
  await Bun.sleep(10);
  t.logger.flush();
  return t.logs.slice(from).join("\n");
};

test("an unhandled error is logged without the response body", async () => {
  // A route whose answer fails its own schema, behind the service's request context and error handler.
  const app = new Elysia()
    .use(requestContext({ logger: t.logger }))
    .use(errorHandler({ logger: t.logger }))
    .get("/api/v1/leaky", () => ({ downloadUrl: DOWNLOAD_URL, customerEmail: EMAIL, total: 12 }) as never, {
      response: T.Object({ downloadUrl: T.String(), customerEmail: T.String(), total: T.String() }),
    });
  const from = t.logs.length;
  const res = await serverFetch(t.deps, app as never)(new Request("http://localhost/api/v1/leaky"));
  expect(res.status).toBe(500);
  expect(await res.json()).toEqual({ error: "Internal server error" });
  const text = await logged(from);
  const line = JSON.parse(text.split("\n").find((l) => l.includes('"unhandled error"'))!);
  expect(line.error).toMatchObject({ class: "ValidationError", message: "response validation failed at /total" });
  expect(line.requestId).toBeTruthy();
  for (const secret of [TOKEN, EMAIL, "downloadUrl", "billing.example"]) expect(text).not.toContain(secret);
});

test.each([
  `/api/v1//invoice-documents/${TOKEN}`,
  `/api/v1/invoice-documents//${TOKEN}`,
  `/API/V1/Invoice-Documents/${TOKEN}`,
  `/api/v1/invoice%2Ddocuments/${TOKEN}`,
  `/api/v1/invoice-documents/${TOKEN}`,
  `/api/v1/invoice-documents/${TOKEN}/`,
])("the token of %s never reaches the log", async (path) => {
  const from = t.logs.length;
  const res = await handle(new Request(`http://localhost${path}`));
  expect(res.status).toBeGreaterThanOrEqual(400);
  const text = await logged(from);
  expect(text).toContain('"msg":"request"');
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(TOKEN.slice(3, 40));
});

test("the request line names the route with the token masked", async () => {
  const from = t.logs.length;
  await handle(new Request(`http://localhost/api/v1//invoice-documents/${TOKEN}`));
  const line = JSON.parse((await logged(from)).split("\n").find((l) => l.includes('"msg":"request"'))!);
  expect(line).toMatchObject({ method: "GET", path: "/api/v1/invoice-documents/:token", status: 400 });
});
